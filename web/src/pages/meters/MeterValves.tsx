import { useEffect, useRef } from 'react';
import { Form, Input, Select } from 'antd';
import { useSearchParams } from 'react-router';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { METER_KIND, VALVE_STATE, type MeterItem } from '@wuye/contract';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { Money } from '../../components/Money';
import { EnumTag, useCanWrite } from '../../components/resource';
import { usePollWhile, ValveActions, ValveCell } from './meterParts';

interface Filters {
  meter_no?: string;
  kind?: string;
  valve?: string;
}
const toFilters = (v: Filters) => ({
  meter_no: v.meter_no || undefined,
  kind: (v.kind || undefined) as never,
  valve: (v.valve || undefined) as never,
});

/**
 * /carpark/metervalve (阀门管理; docs/product.md#smart-meters): every meter's valve, why it is
 * closed, its last command (下发中 until the meter answers, 下发失败 retryable), 开阀 and 关阀.
 * ?valve=closed (the home page's card) opens it at the valves closed now.
 */
export default function MeterValves() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const [params] = useSearchParams();
  const linked = params.get('valve');
  const valve = linked === 'open' || linked === 'closed' || linked === 'fault' ? linked : undefined;
  const [form] = Form.useForm<Filters>();
  const list = useList('meterlist', { valve });
  // a link followed while the page is kept open filters it again
  const { setFilters } = list;
  const shown = useRef(valve);
  useEffect(() => {
    if (!valve || shown.current === valve) return;
    shown.current = valve;
    form.setFieldsValue({ meter_no: undefined, kind: undefined, valve });
    setFilters({ valve });
  }, [valve, form, setFilters]);
  usePollWhile(
    list.items.some((m) => m.valve_command === 'pending'),
    list.reload,
  );
  const columns: TableColumnsType<MeterItem> = [
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 130, fixed: 'left' },
    { key: 'kind', title: '类型', dataIndex: 'kind', width: 80, render: (v: string) => <EnumTag enum={METER_KIND} value={v} /> },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'owner', title: '业主', dataIndex: 'owner', width: 90 },
    { key: 'balance', title: '剩余金额', dataIndex: 'balance', width: 100, render: (v: string) => (v === '' ? '—' : <Money value={v} />) },
    { key: 'valve', title: '阀门', dataIndex: 'valve', width: 220, render: (_v: string, row) => <ValveCell row={row} /> },
    { key: 'gateway_title', title: '采集器', dataIndex: 'gateway_title', width: 140 },
    ...(canWrite
      ? [
          {
            key: 'actions',
            title: '操作',
            width: 130,
            fixed: 'right' as const,
            render: (_v: unknown, row: MeterItem) => <ValveActions row={row} onDone={list.reload} />,
          },
        ]
      : []),
  ];
  return (
    <TablePage<MeterItem, Filters>
      testId="metervalve-page"
      title="阀门管理"
      list={list}
      form={form}
      initialFilters={{ valve }}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters(toFilters(v))}
      filters={
        <>
          <Form.Item name="meter_no" label="表号">
            <Input allowClear maxLength={30} />
          </Form.Item>
          <Form.Item name="kind" label="类型">
            <Select allowClear style={{ width: 100 }} options={enumOptions(METER_KIND)} />
          </Form.Item>
          <Form.Item name="valve" label="阀门">
            <Select allowClear style={{ width: 100 }} options={enumOptions(VALVE_STATE)} data-testid="metervalve-filter-valve" />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1000 }, size: 'middle' }}
    />
  );
}
