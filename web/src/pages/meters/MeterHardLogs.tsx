import { Button, Form, Input, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { COMMAND_STATE, type MeterCommandItem } from '@wuye/contract';
import { request } from '../../api/client';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, SmallSelect, useCanWrite } from '../../components/resource';
import { sendNotice, usePollWhile } from './meterParts';

interface Filters {
  meter_no?: string;
  gateway_id?: number;
  kind?: string;
  state?: string;
}
const KINDS = [
  { value: 'meter_read', label: '抄表' },
  { value: 'valve_open', label: '开阀' },
  { value: 'valve_close', label: '关阀' },
  { value: 'meter_recharge', label: '充值下发' },
];
const toFilters = (v: Filters) => ({
  meter_no: v.meter_no || undefined,
  gateway_id: v.gateway_id || undefined,
  kind: (v.kind || undefined) as never,
  state: (v.state || undefined) as never,
});

/** /carpark/meterhardlog (硬件日志; docs/product.md#smart-meters): every command to the meters and its answer, with the latency. */
export default function MeterHardLogs() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const list = useList('meterloglist', {});
  usePollWhile(
    list.items.some((c) => c.state === 'pending' || c.state === 'sent'),
    list.reload,
  );
  const retry = async (c: MeterCommandItem) => {
    if (await sendNotice(request('metercommandretry', { id: c.id }))) list.reload();
  };
  const columns: TableColumnsType<MeterCommandItem> = [
    { key: 'id', title: 'ID', dataIndex: 'id', width: 80 },
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170 },
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 120 },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'gateway_title', title: '采集器', dataIndex: 'gateway_title', width: 140 },
    { key: 'request', title: '请求', dataIndex: 'request', width: 130 },
    { key: 'state', title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={COMMAND_STATE} value={v} /> },
    { key: 'answer', title: '应答', dataIndex: 'answer', width: 150 },
    { key: 'attempts', title: '尝试', dataIndex: 'attempts', width: 60 },
    { key: 'latency_ms', title: '耗时', dataIndex: 'latency_ms', width: 90, render: (v: number | null) => (v === null ? '—' : `${v} ms`) },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 90 },
    ...(canWrite
      ? [
          {
            key: 'actions',
            title: '操作',
            width: 80,
            fixed: 'right' as const,
            render: (_v: unknown, c: MeterCommandItem) =>
              c.state === 'failed' && (
                <Button size="small" type="link" onClick={() => void retry(c)} data-testid={`meterlog-retry-${c.id}`}>
                  重试
                </Button>
              ),
          },
        ]
      : []),
  ];
  return (
    <TablePage<MeterCommandItem, Filters>
      testId="meterhardlog-page"
      title="硬件日志"
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
          <Form.Item name="gateway_id" label="采集器">
            <SmallSelect widget={{ small: 'metergateway_small_list' }} values={{}} allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="kind" label="指令">
            <Select allowClear style={{ width: 110 }} options={KINDS} />
          </Form.Item>
          <Form.Item name="state" label="状态">
            <Select allowClear style={{ width: 100 }} options={enumOptions(COMMAND_STATE).filter((o) => o.value !== 'cancelled')} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1400 }, size: 'middle' }}
    />
  );
}
