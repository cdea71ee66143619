import { useMemo, useState } from 'react';
import { DatePicker, Select, Statistic, Table, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { FeesCountRow } from '@wuye/contract/fees';
import { call } from '../../../api/client';
import EChart from '../EChart';

import ReportCard from './ReportCard';
import { useSmallList } from '../../../components/resource';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import { axisTooltip, valueAxis } from '../chartUnits';

/** 收费统计 (/feecounts/fees_count): receivable, received, arrears and rate by item and period, and how much of what was received is invoiced. */
export default function FeesCount() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(5, 'month'), dayjs()]);
  const [costType, setCostType] = useState<string>();
  const costTypes = useSmallList('feebill_cate_small_list', {}).items;
  const payload = { start_period: range[0].format('YYYY-MM'), end_period: range[1].format('YYYY-MM'), cost_type: costType };
  const q = useQuery({ queryKey: ['fees_count', payload], queryFn: () => call('fees_count', payload), retry: false });
  const byPeriod = useMemo(() => {
    const m = new Map<string, { receivable: number; received: number }>();
    for (const r of q.data?.items ?? []) {
      const v = m.get(r.period) ?? { receivable: 0, received: 0 };
      // chart heights only; the table shows the exact decimal strings
      v.receivable += Number(r.receivable);
      v.received += Number(r.received);
      m.set(r.period, v);
    }
    return m;
  }, [q.data]);
  const option = useMemo(
    () => ({
      tooltip: axisTooltip('元'),
      legend: { data: ['应收', '实收'] },
      xAxis: { type: 'category', data: [...byPeriod.keys()] },
      yAxis: valueAxis('元'),
      series: [
        { name: '应收', type: 'bar', data: [...byPeriod.values()].map((v) => v.receivable.toFixed(2)) },
        { name: '实收', type: 'bar', data: [...byPeriod.values()].map((v) => v.received.toFixed(2)) },
      ],
    }),
    [byPeriod],
  );
  const t = q.data?.totals;
  return (
    <ReportCard
      title="收费统计"
      testId="fees-count-page"
      exportPayload={{ report: 'fees_count', ...payload }}
      filters={
        <>
          <DatePicker.RangePicker
            style={{ maxWidth: 260 }}
            picker="month"
            value={range}
            allowClear={false}
            inputReadOnly
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Select
            allowClear
            placeholder="费用类型"
            style={{ width: 130 }}
            value={costType}
            onChange={setCostType}
            options={costTypes.map((c) => ({ value: c.cost_type, label: c.title }))}
          />
        </>
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }}>
          <MoneyStatistic title="应收" value={t.receivable} />
          <MoneyStatistic title="实收" value={t.received} />
          <MoneyStatistic title="欠费" value={t.arrears} />
          <Statistic title="收缴率" value={`${t.rate}%`} />
          <MoneyStatistic title="已开票" value={t.invoiced} />
          <MoneyStatistic title="未开票" value={t.uninvoiced} />
        </Space>
      )}
      <EChart option={option} testId="fees-count-chart" />
      <Table<FeesCountRow>
        rowKey={(r) => `${r.item_id}-${r.period}`}
        size="small"
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        pagination={false}
        columns={[
          { title: '收费项目', dataIndex: 'title' },
          { title: '账期', dataIndex: 'period' },
          { title: '账单数', dataIndex: 'bill_count' },
          moneyColumn('应收', 'receivable'),
          moneyColumn('实收', 'received'),
          moneyColumn('欠费', 'arrears'),
          { title: '收缴率', dataIndex: 'rate', render: (v: string) => `${v}%` },
          moneyColumn('已开票', 'invoiced'),
          moneyColumn('未开票', 'uninvoiced'),
        ]}
      />
    </ReportCard>
  );
}
