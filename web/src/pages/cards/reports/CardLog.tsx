import { useMemo, useState } from 'react';
import { Radio, Space, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { CARDLOG_GROUP, type CardLogFigures, type CardLogGroup, type CardLogRow } from '@wuye/contract/cards/reports';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { moneyColumn } from '../../../components/Money';
import EChart from '../../fees/EChart';
import ReportCard from '../../fees/reports/ReportCard';
import { axisTooltip, valueAxis } from '../../fees/chartUnits';
import LiabilityCard from './LiabilityCard';
import { Figures, MerchantFilter, OptionFilter, ReportTable, TotalsRow, useMonthRange, useReportOptions } from './parts';

const GROUP_TITLE: Record<CardLogGroup, string> = { day: '日期', merchant: '商户', operator: '操作人' };

/** The figures after the group's column, in the table's order (the 合计 row follows it). */
const FIGURES: Array<keyof CardLogFigures> = [
  'recharge_count',
  'recharge_paid',
  'recharge_bonus',
  'recharge_refund_count',
  'recharge_refund_paid',
  'recharge_refund_bonus',
  'consume_count',
  'consume_amount',
  'member_discount',
  'coupon_discount',
  'points_money',
  'balance_paid',
  'cash_paid',
  'consume_refund_count',
  'consume_refund_amount',
  'consume_refund_balance',
  'net_stored',
];

const count = (title: string, dataIndex: keyof CardLogRow) => ({ title, dataIndex, width: 70, align: 'right' as const });

/**
 * 会员卡流水 (/feecounts/cardlog, financecount; docs/product.md#card-reports): the members' stored
 * value at a glance (会员权益负债), then the range's recharges, their refunds, counter purchases and
 * their refunds by day, store or operator, with totals, a chart and the export.
 */
export default function CardLog() {
  const { days, picker } = useMonthRange();
  const [groupBy, setGroupBy] = useState<CardLogGroup>('day');
  const [merchantId, setMerchantId] = useState<number>();
  const [operator, setOperator] = useState<string>();
  const options = useReportOptions();
  const payload = { ...days, group_by: groupBy, merchant_id: merchantId, operator };
  const q = useQuery({ queryKey: ['cardlog', payload], queryFn: () => call('cardlog', payload), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const option = useMemo(
    () => ({
      tooltip: axisTooltip('元'),
      legend: { data: ['充值实付', '消费金额', '余额支付'], bottom: 0 },
      grid: { left: 56, right: 16, top: 40, bottom: 56 },
      xAxis: { type: 'category', data: items.map((r) => r.label) },
      yAxis: valueAxis('元'),
      series: [
        { name: '充值实付', type: 'bar', data: items.map((r) => r.recharge_paid) },
        { name: '消费金额', type: 'bar', data: items.map((r) => r.consume_amount) },
        { name: '余额支付', type: groupBy === 'day' ? 'line' : 'bar', data: items.map((r) => r.balance_paid) },
      ],
    }),
    [items, groupBy],
  );
  const columns: TableColumnsType<CardLogRow> = [
    { title: GROUP_TITLE[groupBy], dataIndex: 'label', width: 120, fixed: 'left' },
    {
      title: '充值',
      children: [
        count('笔数', 'recharge_count'),
        moneyColumn('实付', 'recharge_paid', { width: 110 }),
        moneyColumn('赠送', 'recharge_bonus', { width: 100 }),
      ],
    },
    {
      title: '充值退款',
      children: [
        count('笔数', 'recharge_refund_count'),
        moneyColumn('退回实付', 'recharge_refund_paid', { width: 110 }),
        moneyColumn('收回赠送', 'recharge_refund_bonus', { width: 110 }),
      ],
    },
    {
      title: '会员消费',
      children: [
        count('笔数', 'consume_count'),
        moneyColumn('金额', 'consume_amount', { width: 110 }),
        moneyColumn('会员折扣', 'member_discount', { width: 110 }),
        moneyColumn('优惠券', 'coupon_discount', { width: 100 }),
        moneyColumn('积分抵扣', 'points_money', { width: 110 }),
        moneyColumn('余额', 'balance_paid', { width: 110 }),
        moneyColumn('现金/扫码', 'cash_paid', { width: 120 }),
      ],
    },
    {
      title: '消费退款',
      children: [
        count('笔数', 'consume_refund_count'),
        moneyColumn('金额', 'consume_refund_amount', { width: 100 }),
        moneyColumn('退回余额', 'consume_refund_balance', { width: 110 }),
      ],
    },
    moneyColumn('储值净额', 'net_stored', { width: 120 }),
  ];
  const t = q.data?.totals;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <LiabilityCard />
      <ReportCard
        title="会员卡流水"
        testId="cardlog-page"
        onExport={() => runExport('cardlogexport', payload)}
        filters={
          <>
            {picker}
            <Radio.Group
              value={groupBy}
              onChange={(e) => setGroupBy(e.target.value as CardLogGroup)}
              optionType="button"
              options={enumOptions(CARDLOG_GROUP)}
              data-testid="cardlog-group"
            />
            <MerchantFilter value={merchantId} onChange={setMerchantId} testId="cardlog-merchant" />
            <OptionFilter
              placeholder="操作人"
              value={operator}
              onChange={setOperator}
              width={130}
              options={(options?.operators ?? []).map((o) => ({ value: o, label: o }))}
              testId="cardlog-operator"
            />
          </>
        }
      >
        {t && (
          <Figures
            testId="cardlog-totals"
            items={[
              ['充值笔数', t.recharge_count],
              ['充值实付', t.recharge_paid],
              ['充值赠送', t.recharge_bonus],
              ['消费笔数', t.consume_count],
              ['消费金额', t.consume_amount],
              ['余额支付', t.balance_paid],
              ['储值净额', t.net_stored],
            ]}
          />
        )}
        <EChart option={option} testId="cardlog-chart" />
        <ReportTable<CardLogRow>
          rows={items}
          columns={columns}
          loading={q.isFetching}
          testId="cardlog-table"
          totals={t && <TotalsRow span={1} cells={FIGURES.map((k) => t[k])} testId="cardlog-sums" />}
        />
      </ReportCard>
    </Space>
  );
}
