import { useMemo, useState, type ReactNode } from 'react';
import { DatePicker, Segmented, Space, Statistic, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { BUSINESSCOUNT_MAX_DAYS, type BusinessFigures } from '@wuye/contract/fees/businesscount';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { dayRangePresets } from '../../../components/resource/dateRanges';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import ReportCard from './ReportCard';

type Preset = 'today' | 'yesterday' | 'week' | 'month' | 'custom';
const PRESETS: Array<{ value: Preset; label: string; of: string }> = [
  { value: 'today', label: '今日', of: '今天' },
  { value: 'yesterday', label: '昨日', of: '昨天' },
  { value: 'week', label: '本周', of: '本周' },
  { value: 'month', label: '本月', of: '本月' },
];

/** A preset's days, counted in the business time zone (components/resource/dateRanges.ts). */
function presetRange(p: Exclude<Preset, 'custom'>): [Dayjs, Dayjs] {
  const of = PRESETS.find((x) => x.value === p)!.of;
  const r = dayRangePresets().find((x) => x.label === of)!.range;
  return [dayjs(r[0]), dayjs(r[1])];
}

/** A row of the 收款人 table: a pay method of a cashier, the part of it an own way took (其中), a cashier's 小计, or the 合计. */
type PayeeRow = BusinessFigures & {
  key: string;
  payee: string;
  method: string;
  kind: 'method' | 'way' | 'subtotal' | 'total';
  span: number;
};
type DayRow = BusinessFigures & { day: string };

const plain = (kind: PayeeRow['kind']) => kind === 'method' || kind === 'way';
const strong = (kind: PayeeRow['kind'], v: ReactNode) => (plain(kind) ? v : <Typography.Text strong>{v}</Typography.Text>);

/** The figure columns both tables share. */
function figureColumns<T extends BusinessFigures>(): TableColumnsType<T> {
  return [
    { title: '收款笔数', dataIndex: 'receipts', key: 'receipts', align: 'right', width: 90 },
    moneyColumn<T>('收款金额', 'receipts_amount', { width: 130 }),
    { title: '退款笔数', dataIndex: 'refunds', key: 'refunds', align: 'right', width: 90 },
    moneyColumn<T>('退款金额', 'refunds_amount', { width: 130 }),
    { title: '作废笔数', dataIndex: 'voided', key: 'voided', align: 'right', width: 90 },
    moneyColumn<T>('作废金额', 'voided_amount', { width: 130 }),
    moneyColumn<T>('净收款', 'net', { width: 130 }),
  ];
}

/**
 * 营业统计 (/feecounts/businesscount, docs/product.md#businesscount): a range's receipts, refunds and
 * voids per 收款人 (each cashier, 线上) × 支付方式 with subtotals and the total, and per day.
 */
export default function BusinessCount() {
  const [preset, setPreset] = useState<Preset>('today');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presetRange('today'));
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD') };
  const q = useQuery({ queryKey: ['businesscount', payload], queryFn: () => call('businesscount', payload), retry: false });
  const data = q.data;

  const payeeRows = useMemo<PayeeRow[]>(() => {
    if (!data) return [];
    const rows: PayeeRow[] = data.payees.flatMap((p) => {
      const id = p.cashier_id ?? 'online';
      // the cashier's name spans its methods, their own ways and its 小计
      const lines = p.methods.reduce((n, m) => n + 1 + m.ways.length, 0);
      return [
        ...p.methods.flatMap((m, i) => [
          {
            ...m,
            key: `${id}-${m.pay_type}`,
            payee: p.cashier_name,
            method: m.counted === 'Y' ? m.pay_type_ch : `${m.pay_type_ch}（不计入实收）`,
            kind: 'method' as const,
            span: i === 0 ? lines + 1 : 0,
          },
          ...m.ways.map((w) => ({
            ...w,
            key: `${id}-${m.pay_type}-m${w.method_id}`,
            payee: p.cashier_name,
            method: `其中：${w.name}`,
            kind: 'way' as const,
            span: 0,
          })),
        ]),
        { ...p, key: `${id}-all`, payee: p.cashier_name, method: '小计', kind: 'subtotal' as const, span: lines ? 0 : 1 },
      ];
    });
    if (rows.length) rows.push({ ...data.totals, key: 'total', payee: '合计', method: '', kind: 'total', span: 1 });
    return rows;
  }, [data]);

  const payeeColumns: TableColumnsType<PayeeRow> = [
    {
      title: '收款人',
      dataIndex: 'payee',
      key: 'payee',
      width: 110,
      fixed: 'left',
      onCell: (r) => ({ rowSpan: r.span }),
      render: (v: string, r) => <span data-testid={r.kind === 'total' ? 'businesscount-total' : undefined}>{strong(r.kind, v)}</span>,
    },
    {
      title: '支付方式',
      dataIndex: 'method',
      key: 'method',
      width: 130,
      render: (v: string, r) =>
        r.kind === 'way' ? (
          <Typography.Text type="secondary" style={{ paddingLeft: 12 }} data-testid={`businesscount-way-${r.key}`}>
            {v}
          </Typography.Text>
        ) : (
          strong(r.kind, v)
        ),
    },
    ...figureColumns<PayeeRow>().map((c) => ({
      ...c,
      onCell: (r: PayeeRow) => (plain(r.kind) ? {} : { style: { fontWeight: 600 } }),
    })),
  ];

  return (
    <ReportCard
      title="营业统计"
      testId="businesscount-page"
      onExport={() => runExport('businesscountexport', payload)}
      filters={
        <>
          <Segmented<Preset>
            value={preset}
            options={[...PRESETS.map(({ value, label }) => ({ value, label })), { value: 'custom', label: '自定义' }]}
            data-testid="businesscount-preset"
            onChange={(p) => {
              setPreset(p);
              if (p !== 'custom') setRange(presetRange(p));
            }}
          />
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            inputReadOnly
            style={{ maxWidth: 260 }}
            data-testid="businesscount-range"
            disabledDate={(d, info) => !!info.from && Math.abs(d.diff(info.from, 'day')) >= BUSINESSCOUNT_MAX_DAYS}
            onChange={(v) => {
              if (v?.[0] && v[1]) {
                setRange([v[0], v[1]]);
                setPreset('custom');
              }
            }}
          />
          <Typography.Text type="secondary" data-testid="businesscount-range-text">
            {payload.start_date === payload.end_date ? payload.start_date : `${payload.start_date} 至 ${payload.end_date}`}
          </Typography.Text>
        </>
      }
    >
      <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="businesscount-totals">
        <Statistic title="收款笔数" value={data?.totals.receipts ?? 0} />
        <MoneyStatistic title="收款金额" value={data?.totals.receipts_amount ?? '0.00'} />
        <MoneyStatistic title="退款金额" value={data?.totals.refunds_amount ?? '0.00'} />
        <MoneyStatistic title="作废金额" value={data?.totals.voided_amount ?? '0.00'} />
        <MoneyStatistic title="净收款" value={data?.totals.net ?? '0.00'} />
        <MoneyStatistic title="其中计入实收" value={data?.counted_net ?? '0.00'} data-testid="businesscount-counted" />
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>
        收款：区间内收取且未作废的收据（与交班、收款统计一致）；退款：区间内审核通过的退款中原路退回的金额，计入申请退款的收银员；
        作废：区间内作废的收据，不计入收款；净收款 = 收款金额 −
        退款金额；其中计入实收：集团“支付方式”设置为计入实收的支付方式的净收款（余额抵扣默认不计入）。线上为业主自助支付、无收银员的收据。
      </Typography.Paragraph>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        按收款人
      </Typography.Title>
      <Table<PayeeRow>
        rowKey="key"
        size="small"
        bordered
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={payeeRows}
        pagination={false}
        columns={payeeColumns}
        data-testid="businesscount-payees"
        locale={{ emptyText: '所选日期内没有收款、退款或作废' }}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        按日汇总
      </Typography.Title>
      <Table<DayRow>
        rowKey="day"
        size="small"
        bordered
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={data?.days ?? []}
        pagination={false}
        data-testid="businesscount-days"
        columns={[{ title: '日期', dataIndex: 'day', key: 'day', width: 110, fixed: 'left' }, ...figureColumns<DayRow>()]}
        locale={{ emptyText: '所选日期内没有收款、退款或作废' }}
      />
    </ReportCard>
  );
}
