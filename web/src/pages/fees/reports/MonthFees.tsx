import { useMemo, useState } from 'react';
import { Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { MonthRow } from '@wuye/contract/fees';
import { call } from '../../../api/client';
import EChart from '../EChart';
import { axisTooltip, valueAxis } from '../chartUnits';
import ReportCard from './ReportCard';
import YearPicker from './YearPicker';
import { moneyColumn } from '../../../components/Money';

/** 月度收费 (/feecounts/month_fees): twelve months of receivable, received, collected and refunds. */
export default function MonthFees() {
  const [year, setYear] = useState<Dayjs>(dayjs());
  const y = year.year();
  const q = useQuery({ queryKey: ['month_fees', y], queryFn: () => call('month_fees', { year: y }), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const option = useMemo(
    () => ({
      tooltip: axisTooltip('元'),
      legend: { data: ['应收', '已收', '当月收款'] },
      xAxis: { type: 'category', data: items.map((r) => r.month.slice(5) + '月') },
      yAxis: valueAxis('元'),
      series: [
        { name: '应收', type: 'bar', data: items.map((r) => r.receivable) },
        { name: '已收', type: 'bar', data: items.map((r) => r.received) },
        { name: '当月收款', type: 'line', data: items.map((r) => r.collected) },
      ],
    }),
    [items],
  );
  return (
    <ReportCard
      title="月度收费"
      testId="month-fees-page"
      exportPayload={{ report: 'month_fees', year: y }}
      filters={<YearPicker value={year} onChange={setYear} />}
    >
      <EChart option={option} testId="month-fees-chart" />
      <Table<MonthRow>
        rowKey="month"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={items}
        pagination={false}
        columns={[
          { title: '月份', dataIndex: 'month' },
          moneyColumn('应收', 'receivable'),
          moneyColumn('已收', 'received'),
          moneyColumn('当月收款', 'collected'),
          moneyColumn('当月退款', 'refunded'),
          { title: '收缴率', dataIndex: 'rate', render: (v: string) => `${v}%` },
        ]}
      />
    </ReportCard>
  );
}
