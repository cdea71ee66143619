import { useMemo, useState } from 'react';
import { DatePicker, Radio, Statistic, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/client';
import { useAppStore } from '../../../stores/app';
import EChart from '../EChart';
import ReportCard from './ReportCard';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import { axisTooltip, chartValue, valueAxis } from '../chartUnits';
import { wayExpandable, wayLabel, wayRows, type WayRow } from './ownWays';

type GroupBy = 'pay_type' | 'cashier' | 'day';

/** 收款统计 (/feecounts/paymentstatis): payments by pay type, cashier or day. */
export default function PaymentStatis() {
  // the report home (报表首页) opens it on its period: ?start_date=YYYY-MM-DD&end_date=YYYY-MM-DD
  const [params] = useSearchParams();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const day = (k: string) => {
      const v = params.get(k) ?? '';
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && dayjs(v).format('YYYY-MM-DD') === v ? dayjs(v) : undefined;
    };
    const [from, to] = [day('start_date'), day('end_date')];
    return from && to && !to.isBefore(from) ? [from, to] : [dayjs().startOf('month'), dayjs()];
  });
  const [groupBy, setGroupBy] = useState<GroupBy>('pay_type');
  const mobile = useAppStore((st) => st.device) === 'mobile';
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD'), group_by: groupBy };
  const q = useQuery({ queryKey: ['paymentstatis', payload], queryFn: () => call('paymentstatis', payload), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  // by pay type, each own way of the group under its base (其中：POS机-工行)
  const rows = useMemo(() => wayRows(items), [items]);
  const option = useMemo(
    () =>
      groupBy === 'day'
        ? {
            tooltip: axisTooltip('元'),
            xAxis: { type: 'category', data: items.map((r) => r.label) },
            yAxis: valueAxis('元'),
            series: [{ name: '实收', type: 'line', data: items.map((r) => r.amount) }],
          }
        : {
            tooltip: {
              trigger: 'item',
              formatter: (p: { marker: string; name: string; value: string; percent: number }) =>
                `${p.marker}${p.name}：${chartValue(p.value, '元')}（${p.percent}%）`,
            },
            legend: { bottom: 0, type: 'scroll' },
            series: [
              {
                name: '实收',
                type: 'pie',
                radius: ['35%', '65%'],
                center: ['50%', '45%'],
                // on a phone the names outside the ring ran into the legend: the ring shows shares, the legend names
                label: mobile ? { position: 'inside', formatter: '{d}%' } : { formatter: '{b}' },
                data: items.map((r) => ({ name: r.label, value: r.amount })),
              },
            ],
          },
    [items, groupBy, mobile],
  );
  return (
    <ReportCard
      title="收款统计"
      testId="paymentstatis-page"
      exportPayload={{ report: 'paymentstatis', ...payload }}
      filters={
        <>
          <DatePicker.RangePicker
            style={{ maxWidth: 260 }}
            value={range}
            allowClear={false}
            inputReadOnly
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Radio.Group
            value={groupBy}
            onChange={(e) => setGroupBy(e.target.value as GroupBy)}
            optionType="button"
            options={[
              { value: 'pay_type', label: '按支付方式' },
              { value: 'cashier', label: '按收银员' },
              { value: 'day', label: '按日' },
            ]}
          />
        </>
      }
    >
      <Space size="large" wrap>
        <Statistic title="笔数" value={q.data?.total_count ?? 0} />
        <MoneyStatistic title="实收合计" value={q.data?.total_amount ?? '0.00'} />
        {/* the pay types the group counts in 实收 (支付方式); the others are named （不计入实收） */}
        <MoneyStatistic title="其中计入实收" value={q.data?.counted_amount ?? '0.00'} />
      </Space>
      <EChart option={option} testId="paymentstatis-chart" />
      <Table<WayRow>
        rowKey="key"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={rows}
        pagination={false}
        expandable={wayExpandable(rows)}
        data-testid="paymentstatis-table"
        columns={[
          { title: '分组', dataIndex: 'label', render: wayLabel },
          { title: '笔数', dataIndex: 'count' },
          moneyColumn('实收', 'amount'),
          moneyColumn('余额抵扣', 'balance_used'),
        ]}
      />
    </ReportCard>
  );
}
