import { DatePicker, Form, Input, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { METER_KIND, READING_SOURCE, type MeterDayBillItem } from '@wuye/contract';
import { useList } from '../../api/useList';
import { Money } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { EnumTag, SmallSelect } from '../../components/resource';

interface Filters {
  meter_no?: string;
  kind?: string;
  bid?: number;
  day?: [Dayjs, Dayjs] | null;
}
const toFilters = (v: Filters) => ({
  meter_no: v.meter_no || undefined,
  kind: (v.kind || undefined) as never,
  bid: v.bid || undefined,
  day: v.day ? [v.day[0].format('YYYY-MM-DD'), v.day[1].format('YYYY-MM-DD')] : undefined,
});

/** /carpark/meterdaybill (日账单; docs/product.md#smart-meters): one row per meter and day, for disputes. */
export default function MeterDayBills() {
  const list = useList('meterdaybilllist', {});
  const columns: TableColumnsType<MeterDayBillItem> = [
    { key: 'day', title: '日期', dataIndex: 'day', width: 110, fixed: 'left' },
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 120 },
    { key: 'kind', title: '类型', dataIndex: 'kind', width: 80, render: (v: string) => <EnumTag enum={METER_KIND} value={v} /> },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'opening', title: '期初读数', dataIndex: 'opening', width: 100 },
    { key: 'closing', title: '期末读数', dataIndex: 'closing', width: 100 },
    { key: 'usage', title: '用量', dataIndex: 'usage', width: 90 },
    { key: 'price', title: '单价', dataIndex: 'price', width: 90 },
    { key: 'amount', title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right', render: (v: string) => <Money value={v} /> },
    {
      key: 'balance_after',
      title: '日终余额',
      dataIndex: 'balance_after',
      width: 100,
      align: 'right',
      render: (v: string) => <Money value={v} />,
    },
    { key: 'source', title: '来源', dataIndex: 'source', width: 80, render: (v: string) => <EnumTag enum={READING_SOURCE} value={v} /> },
  ];
  const sums = list.answer?.sums;
  return (
    <TablePage<MeterDayBillItem, Filters>
      testId="meterdaybill-page"
      title="日账单"
      list={list}
      columns={columns}
      rowKey={(r) => `${r.meter_id}-${r.day}`}
      onSearch={(v) => list.setFilters(toFilters(v))}
      totalText={(total) =>
        sums ? (
          <span>
            共 {total} 条，用量合计 {sums.usage}，金额合计 <Money value={sums.amount} unit="元" />
          </span>
        ) : (
          `共 ${total}${list.answer?.more ? '+' : ''} 条，按日期或表号缩小范围后显示合计`
        )
      }
      filters={
        <>
          <Form.Item name="meter_no" label="表号">
            <Input allowClear maxLength={30} data-testid="meterdaybill-filter-meter" />
          </Form.Item>
          <Form.Item name="kind" label="类型">
            <Select allowClear style={{ width: 100 }} options={enumOptions(METER_KIND)} />
          </Form.Item>
          <Form.Item name="bid" label="楼栋">
            <SmallSelect widget={{ small: 'building_small_list' }} values={{}} allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="day" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1200 }, size: 'middle' }}
    />
  );
}
