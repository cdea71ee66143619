import { useState } from 'react';
import { Card, DatePicker, Descriptions, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { Money, moneyColumn } from '../../../components/Money';
import { wayExpandable, wayLabel, wayRows, type WayRow } from './ownWays';

/** The report's figures in the order read, each a sum of money; 净收款 follows them, in bold. */
const FIGURES: Array<
  [string, 'collected' | 'counted_collected' | 'topups' | 'balance_used' | 'discounts' | 'late_fees' | 'refunds_cash' | 'refunds_balance']
> = [
  ['收银收款', 'collected'],
  // the pay types the group counts in 实收 (支付方式)
  ['其中计入实收', 'counted_collected'],
  ['预存充值', 'topups'],
  ['余额抵扣', 'balance_used'],
  ['优惠', 'discounts'],
  ['滞纳金', 'late_fees'],
  ['退款（原路）', 'refunds_cash'],
  ['退款（退回余额）', 'refunds_balance'],
];

/** 财务报表 (/feecounts/financereport): money in and out over a date range. */
export default function FinanceReport() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().startOf('month'), dayjs()]);
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD') };
  const q = useQuery({ queryKey: ['financereport', payload], queryFn: () => call('financereport', payload), retry: false });
  const r = q.data;
  const ways = wayRows(
    (r?.by_pay_type ?? []).map((t) => ({ key: t.pay_type, label: t.label, count: t.count, amount: t.amount, ways: t.methods })),
  );
  return (
    <Card title="财务报表" data-testid="financereport-page">
      {/* in the body, not the card's extra: beside the title it would not fit a phone */}
      <div style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          style={{ maxWidth: 260 }}
          value={range}
          allowClear={false}
          inputReadOnly
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
        />
      </div>
      {r && (
        <>
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }}>
            {FIGURES.map(([label, key]) => (
              <Descriptions.Item key={key} label={label}>
                <Money value={r[key]} unit="¥" />
              </Descriptions.Item>
            ))}
            <Descriptions.Item label="净收款">
              <b>
                <Money value={r.net} unit="¥" />
              </b>
            </Descriptions.Item>
          </Descriptions>
          <Table<WayRow>
            rowKey="key"
            size="small"
            scroll={{ x: 'max-content' }}
            style={{ marginTop: 16 }}
            dataSource={ways}
            pagination={false}
            expandable={wayExpandable(ways)}
            columns={[
              { title: '支付方式', dataIndex: 'label', render: wayLabel },
              { title: '笔数', dataIndex: 'count' },
              moneyColumn('金额', 'amount'),
            ]}
            data-testid="financereport-ways"
          />
        </>
      )}
    </Card>
  );
}
