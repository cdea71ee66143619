import { Form, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { METER_ALERT_KIND, METER_ALERT_SENT, type MeterAlertItem } from '@wuye/contract';
import { useList } from '../../api/useList';
import { Money } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { EnumTag } from '../../components/resource';

/** /carpark/meteralert (业主通知; docs/product.md#smart-meters): what the owners were told: the alarm once per crossing, a valve closed, a valve opened. */
export default function MeterAlerts() {
  const list = useList('meteralertlist', {});
  const columns: TableColumnsType<MeterAlertItem> = [
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170 },
    { key: 'kind', title: '类别', dataIndex: 'kind', width: 100, render: (v: string) => <EnumTag enum={METER_ALERT_KIND} value={v} /> },
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 120 },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'balance', title: '余额（元）', dataIndex: 'balance', width: 100, align: 'right', render: (v: string) => <Money value={v} /> },
    { key: 'mobile', title: '手机号', dataIndex: 'mobile', width: 120 },
    { key: 'content', title: '内容', dataIndex: 'content', ellipsis: true },
    {
      key: 'sent',
      title: '发送',
      dataIndex: 'sent',
      width: 100,
      render: (v: string, r) => (
        <span title={r.error}>
          <EnumTag enum={METER_ALERT_SENT} value={v} />
        </span>
      ),
    },
  ];
  return (
    <TablePage<MeterAlertItem, { kind?: string }>
      testId="meteralert-page"
      title="业主通知"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters({ kind: (v.kind || undefined) as never })}
      filters={
        <Form.Item name="kind" label="类别">
          <Select allowClear style={{ width: 120 }} options={enumOptions(METER_ALERT_KIND)} />
        </Form.Item>
      }
      tableProps={{ scroll: { x: 1200 }, size: 'middle' }}
    />
  );
}
