import { AccountBookOutlined, WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import FigureCard from './FigureCard';

/** This month's collection figures from the fees area (feedashboard), shared by both cards. */
function useFeeDashboard() {
  return useQuery({
    queryKey: ['feedashboard'],
    queryFn: () => call('feedashboard', {}, { silent: true }),
    refetchInterval: 5 * 60_000,
  });
}

export function FeesMonthCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useFeeDashboard();
  return (
    <FigureCard
      testId="card-fees-month"
      loading={isLoading}
      title={t('dashboard.feesMonth', { month: data?.month ?? '' })}
      value={data ? `¥${data.received}` : '-'}
      icon={<AccountBookOutlined />}
      color="#34bfa3"
      footer={data ? t('dashboard.feesMonthFooter', { receivable: data.receivable, rate: data.rate }) : null}
      onClick={() => void navigate('/feecounts/fees_count')}
    />
  );
}

export function FeesArrearsCard() {
  const { t } = useTranslation();
  const { data, isLoading } = useFeeDashboard();
  return (
    <Card
      size="small"
      loading={isLoading}
      data-testid="card-fees-arrears"
      style={{ height: '100%' }}
      title={<span><WarningOutlined style={{ color: '#f4516c', marginRight: 8 }} />{t('dashboard.topArrears')}</span>}
    >
      <List
        size="small"
        dataSource={data?.top_arrears ?? []}
        locale={{ emptyText: t('dashboard.noArrears') }}
        renderItem={(b) => (
          <List.Item style={{ display: 'flex', justifyContent: 'space-between' }}>
            <span>{b.building_title}（{t('dashboard.rooms', { n: b.rooms })}）</span>
            <Typography.Text type="danger">¥{b.arrears}</Typography.Text>
          </List.Item>
        )}
      />
    </Card>
  );
}
