import { Card, DatePicker, Form, Input, Select, Space, Statistic, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { PAY_TYPE } from '@wuye/contract/fees';
import {
  COUNTED,
  COUNTED_FORMULA,
  ORDER_STATUS,
  SALES_LINE,
  SALES_MAX_DAYS,
  type OrderRow,
  type SalesLine,
} from '@wuye/contract/fees/sales';
import { runExport } from '../../../api/exportJob';
import { useList } from '../../../api/useList';
import TablePage from '../../../components/TablePage';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import { enumOptions } from '../../../utils/forms';

interface Filters {
  dates: [Dayjs, Dayjs];
  line?: SalesLine | '';
  pay_type?: string;
  counted?: string;
  status?: string;
  keyword?: string;
}

const STATUS_COLOR: Record<string, string> = { Y: 'success', P: 'warning', R: 'default', V: 'error' };

/** The filters as the server takes them: the range is required (this month by default). */
function toPayload(v: Filters) {
  return {
    sort: 'desc' as const,
    start_date: v.dates[0].format('YYYY-MM-DD'),
    end_date: v.dates[1].format('YYYY-MM-DD'),
    line: (v.line || '') as SalesLine | '',
    pay_type: (v.pay_type || '') as '',
    counted: (v.counted || '') as '' | 'Y' | 'N',
    status: (v.status || '') as '',
    keyword: v.keyword?.trim() ?? '',
  };
}

const initial: Filters = { dates: [dayjs().startOf('month'), dayjs()], line: '', pay_type: '', counted: '', status: '', keyword: '' };

/** 订单报表 (/feecounts/orderlistreport, docs/product.md#sales-reports): every paid order of the business lines. */
export default function OrderListReport() {
  const list = useList('orderlistreport', toPayload(initial));
  const summary = list.answer?.summary;
  const columns: TableColumnsType<OrderRow> = [
    { title: '订单号/收据号', dataIndex: 'order_no' },
    { title: '业务', dataIndex: 'line_ch' },
    { title: '对象', dataIndex: 'target' },
    { title: '付款人', dataIndex: 'payer' },
    { title: '支付方式', dataIndex: 'pay_type_ch' },
    moneyColumn('金额', 'amount'),
    moneyColumn('退款', 'refunded'),
    { title: '状态', dataIndex: 'status_ch', render: (t: string, r) => <Tag color={STATUS_COLOR[r.status]}>{t}</Tag> },
    { title: '收款人', dataIndex: 'cashier' },
    { title: '时间', dataIndex: 'create_time' },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" data-testid="orderlist-summary">
        <Space size="large" wrap>
          <Statistic title="笔数" value={summary?.count ?? 0} loading={list.loading} />
          <MoneyStatistic title="金额" value={summary?.amount ?? '0.00'} loading={list.loading} />
          <MoneyStatistic title="退款" value={summary?.refunded ?? '0.00'} loading={list.loading} />
          <MoneyStatistic
            title={
              <Tooltip title={COUNTED_FORMULA}>
                <span>计入实收</span>
              </Tooltip>
            }
            value={summary?.counted_net ?? '0.00'}
            loading={list.loading}
          />
        </Space>
      </Card>
      <TablePage<OrderRow, Filters>
        testId="orderlistreport-page"
        title="订单报表"
        list={list}
        columns={columns}
        rowKey="key"
        initialFilters={initial}
        onSearch={(v) => list.setFilters(toPayload({ ...initial, ...v, dates: v.dates ?? initial.dates }))}
        onExport={(v) => runExport('orderlistreportexport', toPayload({ ...initial, ...v, dates: v.dates ?? initial.dates }))}
        filters={
          <>
            <Form.Item name="dates" label="日期">
              <DatePicker.RangePicker
                style={{ maxWidth: 260 }}
                allowClear={false}
                inputReadOnly
                disabledDate={(d, info) => !!info.from && Math.abs(d.diff(info.from, 'day')) >= SALES_MAX_DAYS}
              />
            </Form.Item>
            <Form.Item name="line" label="业务">
              <Select
                style={{ width: 130 }}
                options={[{ value: '', label: '全部' }, ...enumOptions(SALES_LINE)]}
                data-testid="orderlist-line"
              />
            </Form.Item>
            <Form.Item name="pay_type" label="支付方式">
              <Select style={{ width: 120 }} options={[{ value: '', label: '全部' }, ...enumOptions(PAY_TYPE)]} />
            </Form.Item>
            <Form.Item name="counted" label="计入实收">
              <Select
                style={{ width: 130 }}
                options={[{ value: '', label: '全部' }, ...enumOptions(COUNTED)]}
                data-testid="orderlist-counted"
              />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select style={{ width: 120 }} options={[{ value: '', label: '全部' }, ...enumOptions(ORDER_STATUS)]} />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear placeholder="单号/房号/车牌/付款人" data-testid="orderlist-keyword" />
            </Form.Item>
          </>
        }
      />
    </Space>
  );
}
