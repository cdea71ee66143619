import { useMemo, useState } from 'react';
import { Button, DatePicker, Statistic, Space, Table } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { BuildingCollectionRow } from '@wuye/contract/fees';
import { call } from '../../../api/client';
import EChart from '../EChart';
import { axisTooltip, valueAxis } from '../chartUnits';
import ReportCard from './ReportCard';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';

/** 物业费收缴 (/feecounts/propertypaystatis): one period's property fee collection by building. */
export default function PropertyPayStatis() {
  const navigate = useNavigate();
  const [month, setMonth] = useState<Dayjs>(dayjs());
  const period = month.format('YYYY-MM');
  const q = useQuery({ queryKey: ['propertypaystatis', period], queryFn: () => call('propertypaystatis', { period }), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const option = useMemo(
    () => ({
      tooltip: axisTooltip('%'),
      xAxis: { type: 'category', data: items.map((r) => r.building_title) },
      yAxis: valueAxis('%', { max: 100 }),
      series: [{ name: '收缴率', type: 'bar', data: items.map((r) => r.rate) }],
    }),
    [items],
  );
  const t = q.data?.totals;
  return (
    <ReportCard
      title="物业费收缴统计"
      testId="propertypaystatis-page"
      exportPayload={{ report: 'propertypaystatis', period }}
      extra={
        <Button
          icon={<UnorderedListOutlined />}
          onClick={() => void navigate('/feecounts/propertypaylog')}
          data-testid="propertypaylog-link"
        >
          缴费明细
        </Button>
      }
      filters={<DatePicker picker="month" value={month} allowClear={false} inputReadOnly onChange={(d) => d && setMonth(d)} />}
    >
      {t && (
        <Space size="large" wrap>
          <MoneyStatistic title="应收" value={t.receivable} />
          <MoneyStatistic title="实收" value={t.received} />
          <Statistic title="收缴率" value={`${t.rate}%`} />
        </Space>
      )}
      <EChart option={option} height={260} testId="propertypaystatis-chart" />
      <Table<BuildingCollectionRow>
        rowKey="bid"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={items}
        pagination={false}
        columns={[
          { title: '楼栋', dataIndex: 'building_title' },
          { title: '户数', dataIndex: 'rooms' },
          { title: '已缴户数', dataIndex: 'paid_rooms' },
          moneyColumn('应收', 'receivable'),
          moneyColumn('实收', 'received'),
          moneyColumn('欠费', 'arrears'),
          { title: '收缴率', dataIndex: 'rate', render: (v: string) => `${v}%` },
        ]}
      />
    </ReportCard>
  );
}
