import { AccountBookOutlined, WarningOutlined } from '@ant-design/icons';
import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { HOME_TOP_ARREARS } from '@wuye/contract/home';
import { useNavigate } from 'react-router';
import { useFeeDashboard } from '../../api/feeDashboard';
import { formatMoney } from '../../utils/formatMoney';
import FigureCard from './FigureCard';
import './dashboard.css';

export function FeesMonthCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useFeeDashboard();
  return (
    <FigureCard
      testId="card-fees-month"
      loading={isLoading}
      title={t('dashboard.feesMonth', { month: data?.month ?? '' })}
      value={formatMoney(data?.received, { unit: '¥', empty: '-' })}
      icon={<AccountBookOutlined />}
      color="#34bfa3"
      footer={data ? t('dashboard.feesMonthFooter', { receivable: formatMoney(data.receivable), rate: data.rate }) : null}
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
      title={
        <span>
          <WarningOutlined style={{ color: '#f4516c', marginRight: 8 }} />
          {t('dashboard.topArrears')}
        </span>
      }
    >
      {/* a plain list: antd's List would bring pagination and select onto the dashboard */}
      {data && data.top_arrears.length > 0 ? (
        <ul className="dashboard-arrears">
          {data.top_arrears.slice(0, HOME_TOP_ARREARS).map((b) => (
            <li key={b.bid}>
              <span>
                {b.building_title}（{t('dashboard.rooms', { n: b.rooms })}）
              </span>
              <span className="dashboard-arrears-amount">{formatMoney(b.arrears, { unit: '¥' })}</span>
            </li>
          ))}
        </ul>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noArrears')} />
      )}
    </Card>
  );
}
