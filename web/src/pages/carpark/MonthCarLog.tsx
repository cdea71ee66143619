import { Card, DatePicker, Form, Input, Select, Tabs } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { CAR_LOG_ACTION, RENEW_SOURCE, type CarLogItem, type RenewalItem } from '@wuye/contract';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, SmallSelect } from '../../components/resource';

interface LogFilterForm {
  carlicense?: string;
  action?: string;
  lot_id?: number;
  source?: string;
  date?: [Dayjs, Dayjs] | null;
}
const dayRange = (d: LogFilterForm['date']): [string, string] | undefined =>
  d && d[0] && d[1] ? [d[0].format('YYYY-MM-DD'), d[1].format('YYYY-MM-DD')] : undefined;
const given = (v: unknown) => (v === '' || v === null ? undefined : v);

/** The cars' history: added, edited, released, assigned, renewed, deleted, with who and when. */
function History() {
  const list = useList('monthcarlog', {});
  const toFilters = (v: LogFilterForm) => ({
    carlicense: given(v.carlicense) as string | undefined,
    action: given(v.action) as never,
    date: dayRange(v.date),
  });
  const columns: TableColumnsType<CarLogItem> = [
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170 },
    { key: 'carlicense', title: '车牌号', dataIndex: 'carlicense', width: 110 },
    { key: 'action', title: '操作', dataIndex: 'action', width: 100, render: (a: string) => <EnumTag enum={CAR_LOG_ACTION} value={a} /> },
    { key: 'content', title: '内容', dataIndex: 'content' },
    { key: 'created_by_name', title: '操作人', dataIndex: 'created_by_name', width: 100 },
  ];
  return (
    <TablePage<CarLogItem, LogFilterForm>
      testId="carlog-page"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters(toFilters(v))}
      onExport={(v) => runExport('monthcarlogexport', toFilters(v))}
      filters={
        <>
          <Form.Item name="carlicense" label="车牌号">
            <Input allowClear maxLength={12} style={{ width: 130 }} data-testid="carlog-filter-carlicense" />
          </Form.Item>
          <Form.Item name="action" label="操作">
            <Select allowClear style={{ width: 120 }} options={enumOptions(CAR_LOG_ACTION)} data-testid="carlog-filter-action" />
          </Form.Item>
          <Form.Item name="date" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 800 }, size: 'middle' }}
    />
  );
}

/** The renewal orders, written once and never changed. */
function Orders() {
  const list = useList('monthcarorderlist', {});
  const toFilters = (v: LogFilterForm) => ({
    carlicense: given(v.carlicense) as string | undefined,
    lot_id: given(v.lot_id) as number | undefined,
    source: given(v.source) as never,
    date: dayRange(v.date),
  });
  const columns: TableColumnsType<RenewalItem> = [
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170 },
    { key: 'carlicense', title: '车牌号', dataIndex: 'carlicense', width: 110 },
    { key: 'lot_title', title: '停车场', dataIndex: 'lot_title', width: 120 },
    { key: 'months', title: '月数', dataIndex: 'months', width: 70 },
    { key: 'amount', title: '金额(元)', dataIndex: 'amount', width: 100, align: 'right' },
    { key: 'old_end', title: '原到期日', dataIndex: 'old_end', width: 110 },
    { key: 'new_end', title: '新到期日', dataIndex: 'new_end', width: 110 },
    { key: 'source', title: '来源', dataIndex: 'source', width: 100, render: (s: string) => <EnumTag enum={RENEW_SOURCE} value={s} /> },
    { key: 'pay_type_ch', title: '支付方式', dataIndex: 'pay_type_ch', width: 170 },
    { key: 'pay_ref', title: '凭证号', dataIndex: 'pay_ref', width: 130, render: (v: string) => v || '-' },
    { key: 'receipt_no', title: '收据号', dataIndex: 'receipt_no', width: 150 },
    { key: 'cashier_name', title: '收款人', dataIndex: 'cashier_name', width: 90 },
  ];
  return (
    <TablePage<RenewalItem, LogFilterForm>
      testId="carorder-page"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters(toFilters(v))}
      onExport={(v) => runExport('monthcarorderexport', toFilters(v))}
      filters={
        <>
          <Form.Item name="carlicense" label="车牌号">
            <Input allowClear maxLength={12} style={{ width: 130 }} data-testid="carorder-filter-carlicense" />
          </Form.Item>
          <Form.Item name="lot_id" label="停车场">
            <SmallSelect widget={{ small: 'carpark_small_list' }} values={{}} allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="source" label="来源">
            <Select allowClear style={{ width: 120 }} options={enumOptions(RENEW_SOURCE)} />
          </Form.Item>
          <Form.Item name="date" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1200 }, size: 'middle' }}
    />
  );
}

/** /carpark/monthcarlog (月租车记录; docs/product.md#carpark): the cars' change history and the renewal orders, with filters and export. */
export default function MonthCarLog() {
  return (
    <Card variant="borderless" styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        items={[
          { key: 'orders', label: '续费订单', children: <Orders /> },
          { key: 'log', label: '变更记录', children: <History /> },
        ]}
      />
    </Card>
  );
}
