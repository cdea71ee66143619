import { useMemo, useState } from 'react';
import { DatePicker, Form, Space, Statistic } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import type { CouponReportRow } from '@wuye/contract/cards/coupons';
import { LIMITS } from '@wuye/contract/codes';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { SmallSelect } from '../../components/resource';
import { useDayPresets, wireRange } from '../invoice/shared';

interface Filters {
  range?: [Dayjs, Dayjs] | null;
  template_id?: number;
}

const columns: TableColumnsType<CouponReportRow> = [
  { title: '日期', dataIndex: 'day', width: 110, fixed: 'left' },
  { title: '优惠券', dataIndex: 'template_name', width: 170 },
  { title: '发放', dataIndex: 'issued', align: 'right', width: 80 },
  { title: '领取', dataIndex: 'claimed', align: 'right', width: 80 },
  { title: '使用', dataIndex: 'used', align: 'right', width: 80 },
  { title: '过期', dataIndex: 'expired', align: 'right', width: 80 },
  moneyColumn<CouponReportRow>('优惠金额', 'discount', { width: 120 }),
  { title: '使用订单', dataIndex: 'orders', align: 'right', width: 90 },
];

const wire = (f: Filters) => {
  const range = wireRange(f.range);
  return { start_date: range ? range[0] : '', end_date: range ? range[1] : '', template_id: f.template_id ?? ('' as never) };
};

/**
 * /carpark/reportcardgenerallist (卡券概况; docs/product.md#member-coupons): per day and template, the
 * coupons given by staff or a rule, claimed, used, expired, the discount granted and the orders that
 * used them, the range's totals above; this month by default, export to Excel.
 */
export default function CouponReport() {
  const presets = useDayPresets();
  const month = presets.find((p) => p.label === '本月')?.value;
  const initial: Filters = { range: month ? [month[0], month[1]] : null };
  const [filters, setFilters] = useState<Filters>(initial);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(LIMITS.pageSize);
  const payload = wire(filters);
  const q = useQuery({ queryKey: ['reportcardgenerallist', payload], queryFn: () => call('reportcardgenerallist', payload), retry: false });
  const rows = useMemo(() => q.data?.items ?? [], [q.data]);
  const t = q.data?.totals;
  const list = {
    items: rows.slice((page - 1) * limit, page * limit),
    total: rows.length,
    loading: q.isFetching,
    page,
    limit,
    setPage: (p: number, l?: number) => {
      setPage(p);
      if (l) setLimit(l);
    },
  };
  return (
    <TablePage<CouponReportRow, Filters>
      title="卡券概况"
      testId="couponreport-page"
      list={list}
      columns={columns}
      rowKey="key"
      initialFilters={initial}
      onSearch={(v) => {
        setFilters(v);
        setPage(1);
      }}
      onExport={(v) => runExport('reportcardgeneralexport', wire(v))}
      toolbar={
        t && (
          <Space size="large" wrap data-testid="couponreport-figures">
            <Statistic title="发放" value={t.issued} suffix="张" />
            <Statistic title="领取" value={t.claimed} suffix="张" />
            <Statistic title="使用" value={t.used} suffix="张" />
            <Statistic title="过期" value={t.expired} suffix="张" />
            <MoneyStatistic title="优惠金额" value={t.discount} />
            <Statistic title="使用订单" value={t.orders} suffix="单" />
          </Space>
        )
      }
      filters={
        <>
          <Form.Item name="range" label="日期">
            <DatePicker.RangePicker
              presets={presets}
              allowClear={false}
              inputReadOnly
              style={{ maxWidth: 260 }}
              data-testid="couponreport-range"
            />
          </Form.Item>
          <Form.Item name="template_id" label="优惠券">
            <SmallSelect
              widget={{ small: 'cards_small_list' }}
              values={{}}
              allowClear
              placeholder="全部优惠券"
              style={{ width: 180 }}
              testId="couponreport-template"
            />
          </Form.Item>
        </>
      }
      tableProps={{ size: 'small' }}
    />
  );
}
