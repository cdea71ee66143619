import { useState } from 'react';
import { Button, Form, Input, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { METER_KIND, METER_MODE, type MeterItem } from '@wuye/contract';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, useCanWrite } from '../../components/resource';
import { ReadTimeModal } from './MeterList';

interface Filters {
  meter_no?: string;
  kind?: string;
  mode?: string;
}
const toFilters = (v: Filters) => ({
  meter_no: v.meter_no || undefined,
  kind: (v.kind || undefined) as never,
  mode: (v.mode || undefined) as never,
});

/**
 * /carpark/meterreadtime (抄表时间设置; docs/product.md#smart-meters): each meter's day of the month
 * and hour of reading (a read-and-bill meter bills then); chosen meters set at once.
 */
export default function MeterReadTime() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const list = useList('meterlist', { mode: 'read' } as never);
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState(false);
  const columns: TableColumnsType<MeterItem> = [
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 130 },
    { key: 'kind', title: '类型', dataIndex: 'kind', width: 80, render: (v: string) => <EnumTag enum={METER_KIND} value={v} /> },
    { key: 'mode', title: '计费模式', dataIndex: 'mode', width: 100, render: (v: string) => <EnumTag enum={METER_MODE} value={v} /> },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 170 },
    { key: 'item_title', title: '收费项目', dataIndex: 'item_title', width: 120 },
    { key: 'read', title: '抄表时间', width: 150, render: (_v, r) => `每月 ${r.read_day} 日 ${r.read_hour} 时` },
    { key: 'read_at', title: '最近读表', dataIndex: 'read_at', width: 170 },
  ];
  return (
    <>
      <TablePage<MeterItem, Filters>
        testId="meterreadtime-page"
        title="抄表时间设置"
        list={list}
        columns={columns}
        rowKey="id"
        initialFilters={{ mode: 'read' }}
        onSearch={(v) => list.setFilters(toFilters(v))}
        toolbar={
          canWrite && (
            <Button type="primary" disabled={selected.length === 0} onClick={() => setOpen(true)} data-testid="meterreadtime-set">
              设置抄表时间{selected.length ? `（${selected.length}）` : ''}
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="meter_no" label="表号">
              <Input allowClear maxLength={30} />
            </Form.Item>
            <Form.Item name="kind" label="类型">
              <Select allowClear style={{ width: 100 }} options={enumOptions(METER_KIND)} />
            </Form.Item>
            <Form.Item name="mode" label="计费模式">
              <Select allowClear style={{ width: 110 }} options={enumOptions(METER_MODE)} />
            </Form.Item>
          </>
        }
        tableProps={{
          scroll: { x: 1000 },
          size: 'middle',
          rowSelection: canWrite ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined,
        }}
      />
      {open && (
        <ReadTimeModal
          ids={selected}
          onClose={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            setSelected([]);
            list.reload();
          }}
        />
      )}
    </>
  );
}
