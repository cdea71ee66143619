import { useMemo, useState } from 'react';
import { Card, DatePicker, Segmented, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { fenToYuan, METER_KIND, METER_UNIT, toFen, type MeterKind, type MeterReportRow } from '@wuye/contract';
import { call } from '../../api/client';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import { EnumTag } from '../../components/resource';
import EChart from '../fees/EChart';

/**
 * /carpark/meterreport (用量统计; docs/product.md#smart-meters): usage and money per month, meter
 * kind and building from the day bills, with the recharges credited; a chart of the money per month.
 */
export default function MeterReport() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(2, 'month'), dayjs()]);
  const [kind, setKind] = useState<'' | MeterKind>('');
  const payload = { from: range[0].format('YYYY-MM'), to: range[1].format('YYYY-MM'), kind };
  const q = useQuery({ queryKey: ['meterreport', payload], queryFn: () => call('meterreport', payload), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const t = q.data?.totals;
  const option = useMemo(() => {
    const months = [...new Set(items.map((r) => r.month))].sort();
    const kinds = [...new Set(items.map((r) => r.kind))];
    const sum = (m: string, k: string) => items.filter((r) => r.month === m && r.kind === k).reduce((s, r) => s + toFen(r.amount), 0n);
    return {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v.toFixed(2)} 元` },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: months },
      yAxis: { type: 'value', name: '元' },
      series: kinds.map((k) => ({
        name: METER_KIND[k as MeterKind].text,
        type: 'bar',
        stack: 'amount',
        data: months.map((m) => Number(fenToYuan(sum(m, k)))),
      })),
    };
  }, [items]);
  return (
    <Card title="用量统计" data-testid="meterreport-page">
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          picker="month"
          value={range}
          allowClear={false}
          inputReadOnly
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          data-testid="meterreport-range"
        />
        <Segmented
          value={kind}
          onChange={(v) => setKind(v as '' | MeterKind)}
          options={[{ value: '', label: '全部' }, ...enumOptions(METER_KIND).map((o) => ({ value: o.value as string, label: o.label }))]}
        />
      </Space>
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="meterreport-figures">
          <MoneyStatistic title="用量金额" value={t.amount} />
          <MoneyStatistic title="充值到账" value={t.recharged} />
          <Typography.Text>
            用电 {t.usage.power} kWh · 用水 {t.usage.water} m³ · 用气 {t.usage.gas} m³
          </Typography.Text>
        </Space>
      )}
      <EChart option={option} height={240} testId="meterreport-chart" />
      <Table<MeterReportRow>
        rowKey={(r) => `${r.month}-${r.kind}-${r.bid}`}
        size="small"
        loading={q.isFetching}
        dataSource={items}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
        data-testid="meterreport-table"
        columns={[
          { title: '月份', dataIndex: 'month', width: 90 },
          { title: '类型', dataIndex: 'kind', width: 80, render: (v: string) => <EnumTag enum={METER_KIND} value={v} /> },
          { title: '楼栋', dataIndex: 'building', width: 110 },
          { title: '表数', dataIndex: 'meters', align: 'right', width: 70 },
          { title: '用量', dataIndex: 'usage', align: 'right', width: 110, render: (v: string, r) => `${v} ${METER_UNIT[r.kind]}` },
          moneyColumn<MeterReportRow>('金额', 'amount'),
          moneyColumn<MeterReportRow>('充值到账', 'recharged'),
        ]}
      />
    </Card>
  );
}
