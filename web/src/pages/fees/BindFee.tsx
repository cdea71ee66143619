import { useState } from 'react';
import { Button, Form, Modal, Radio, Select, Space } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BIND_SCOPE_CH, BIND_SCOPES, type BindingRow, type BindScopeName } from '@wuye/contract/fees';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useBuildings, useFeeThings, useRooms, useUnits, useActionFixed } from './shared';
import { useConfirmDelete } from './useDelete';

interface Filters { item_id?: number; scope?: BindScopeName | '' }

/** Targets of a binding, by scope. */
function TargetPicker({ scope, value, onChange }: { scope: BindScopeName; value: number[]; onChange: (v: number[]) => void }) {
  const [bid, setBid] = useState<number>();
  const [tid, setTid] = useState<number>();
  const buildings = useBuildings();
  const units = useUnits(bid);
  const rooms = useRooms(tid);
  const cats = useQuery({ queryKey: ['structure', 'cats'], queryFn: () => call('roomcate_small_list', {}), retry: false }).data?.items ?? [];
  if (scope === 'region') return <span>绑定到整个小区的所有房屋</span>;
  const multi = (options: Array<{ id: number; title: string }>) => (
    <Select mode="multiple" allowClear style={{ minWidth: 260 }} value={value} onChange={onChange} optionFilterProp="label"
      data-testid="bind-targets" options={options.map((o) => ({ value: o.id, label: o.title }))} />
  );
  if (scope === 'building') return multi(buildings);
  if (scope === 'category') return multi(cats);
  return (
    <Space orientation="vertical">
      <Space>
        <Select placeholder="楼栋" style={{ width: 120 }} value={bid} onChange={(b: number) => { setBid(b); setTid(undefined); onChange([]); }}
          options={buildings.map((b) => ({ value: b.id, label: b.title }))} data-testid="bind-building" />
        {scope === 'room' && (
          <Select placeholder="单元" style={{ width: 110 }} value={tid} onChange={(t: number) => { setTid(t); onChange([]); }}
            options={units.map((u) => ({ value: u.id, label: u.title }))} data-testid="bind-unit" />
        )}
      </Space>
      {scope === 'unit' ? multi(units) : multi(rooms)}
    </Space>
  );
}

/** Bindings (/fees/bindfee): which rooms each fee item bills. */
export default function BindFee() {
  const [params] = useSearchParams();
  const initialItem = Number(params.get('item_id')) || undefined;
  const list = useList('bindfeelist', { sort: 'asc', item_id: initialItem });
  const things = useFeeThings();
  const confirmDelete = useConfirmDelete();
  const [open, setOpen] = useState(false);
  const [itemId, setItemId] = useState<number | undefined>(initialItem);
  const [scope, setScope] = useState<BindScopeName>('building');
  const [targets, setTargets] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!itemId) return;
    setSaving(true);
    try {
      const answer = await request('bindfeeadd', { item_id: itemId, scope, ref_ids: scope === 'region' ? [] : targets });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setOpen(false);
      setTargets([]);
      list.reload();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<BindingRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '收费项目', dataIndex: 'item_title', width: 160 },
    { title: '绑定范围', dataIndex: 'scope_ch', width: 110 },
    { title: '绑定对象', dataIndex: 'target_title', width: 200 },
    { title: '操作人', dataIndex: 'create_user', width: 100 },
    { title: '绑定时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作', key: 'op', width: 90, fixed: actionFixed,
      render: (_, row) => (
        <Button size="small" type="link" danger data-testid={`bind-del-${row.id}`}
          onClick={() => confirmDelete(async () => {
            const answer = await request('bindfeedel', { id: row.id });
            noticeSuccess(answer.return_msg ?? '操作成功');
            list.reload();
          })}>解除</Button>
      ),
    },
  ];

  return (
    <>
      <TablePage<BindingRow, Filters>
        testId="bindfee-page" list={list} columns={columns} rowKey="id" title="收费项目绑定" initialFilters={{ item_id: initialItem }}
        onSearch={(v) => list.setFilters({ ...list.filters, item_id: v.item_id, scope: v.scope ?? '' })}
        filters={
          <>
            <Form.Item name="item_id" label="收费项目">
              <Select allowClear style={{ width: 160 }} options={things.map((i) => ({ value: i.id, label: i.title }))} />
            </Form.Item>
            <Form.Item name="scope" label="范围">
              <Select allowClear style={{ width: 120 }} options={BIND_SCOPES.map((s) => ({ value: s, label: BIND_SCOPE_CH[s] }))} />
            </Form.Item>
          </>
        }
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="bind-add">新增绑定</Button>}
      />
      <Modal open={open} title="绑定收费项目" onCancel={() => setOpen(false)} onOk={() => void save()} confirmLoading={saving}
        okButtonProps={{ disabled: !itemId || (scope !== 'region' && targets.length === 0), 'data-testid': 'bind-save' } as never} destroyOnHidden>
        <Form layout="vertical">
          <Form.Item label="收费项目" required>
            <Select value={itemId} onChange={setItemId} options={things.map((i) => ({ value: i.id, label: i.title }))} data-testid="bind-item" />
          </Form.Item>
          <Form.Item label="绑定范围">
            <Radio.Group value={scope} onChange={(e) => { setScope(e.target.value as BindScopeName); setTargets([]); }}
              options={BIND_SCOPES.map((s) => ({ value: s, label: BIND_SCOPE_CH[s] }))} data-testid="bind-scope" />
          </Form.Item>
          <Form.Item label="绑定对象">
            <TargetPicker key={scope} scope={scope} value={targets} onChange={setTargets} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
