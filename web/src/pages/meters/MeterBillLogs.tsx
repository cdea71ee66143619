import { DatePicker, Form, Input, Select, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { METER_KIND, METER_LOG_KIND, type MeterBillLogItem, type TierPart } from '@wuye/contract';
import { useList } from '../../api/useList';
import { Money } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { EnumTag } from '../../components/resource';

interface Filters {
  meter_no?: string;
  kind?: string;
  create_time?: [Dayjs, Dayjs] | null;
}
const toFilters = (v: Filters) => ({
  meter_no: v.meter_no || undefined,
  kind: (v.kind || undefined) as never,
  create_time: v.create_time ? [v.create_time[0].format('YYYY-MM-DD'), v.create_time[1].format('YYYY-MM-DD')] : undefined,
});

const partColumns: TableColumnsType<TierPart> = [
  { key: 'usage', title: '用量', dataIndex: 'usage' },
  { key: 'price', title: '阶梯单价（元）', dataIndex: 'price' },
  { key: 'amount', title: '金额（元）', dataIndex: 'amount' },
];

/**
 * /carpark/meterbilllog (扣费日志; docs/product.md#smart-meters): every deduction of a prepaid meter,
 * every bill of a read-and-bill meter, recharges credited and refunds, each with its tier breakdown
 * and the price plan's version.
 */
export default function MeterBillLogs() {
  const list = useList('meterbillloglist', {});
  const columns: TableColumnsType<MeterBillLogItem> = [
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170, fixed: 'left' },
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 120 },
    {
      key: 'kind_meter',
      title: '表类型',
      dataIndex: 'kind_meter',
      width: 80,
      render: (v: string) => <EnumTag enum={METER_KIND} value={v} />,
    },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'kind', title: '类别', dataIndex: 'kind', width: 90, render: (v: string) => <EnumTag enum={METER_LOG_KIND} value={v} /> },
    { key: 'usage', title: '用量', dataIndex: 'usage', width: 90 },
    { key: 'amount', title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right', render: (v: string) => <Money value={v} /> },
    {
      key: 'balance_after',
      title: '余额（元）',
      dataIndex: 'balance_after',
      width: 100,
      align: 'right',
      render: (v: string, r) => (r.kind === 'bill' ? '—' : <Money value={v} />),
    },
    { key: 'bill_id', title: '账单', dataIndex: 'bill_id', width: 90, render: (v: number | null) => (v ? `#${v}` : '—') },
    {
      key: 'plan_version',
      title: '价格版本',
      dataIndex: 'plan_version',
      width: 90,
      render: (v: number, r) => (r.breakdown.length ? `v${v}` : '—'),
    },
  ];
  return (
    <TablePage<MeterBillLogItem, Filters>
      testId="meterbilllog-page"
      title="扣费日志"
      list={list}
      columns={columns}
      rowKey="id"
      totalText={(total) => `共 ${total}${list.answer?.more ? '+' : ''} 条`}
      onSearch={(v) => list.setFilters(toFilters(v))}
      filters={
        <>
          <Form.Item name="meter_no" label="表号">
            <Input allowClear maxLength={30} />
          </Form.Item>
          <Form.Item name="kind" label="类别">
            <Select allowClear style={{ width: 110 }} options={enumOptions(METER_LOG_KIND)} />
          </Form.Item>
          <Form.Item name="create_time" label="时间">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      tableProps={{
        scroll: { x: 1200 },
        size: 'middle',
        expandable: {
          rowExpandable: (r) => r.breakdown.length > 0,
          expandedRowRender: (r) => (
            <Table<TierPart>
              size="small"
              rowKey="price"
              pagination={false}
              columns={partColumns}
              dataSource={r.breakdown}
              style={{ maxWidth: 480 }}
            />
          ),
        },
      }}
    />
  );
}
