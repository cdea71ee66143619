import { useState } from 'react';
import { Button, Checkbox, Form, Modal, Radio, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BIND_SCOPE_CH, BIND_SCOPES, type BindingRow, type BindScopeName } from '@wuye/contract/fees';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useActionFixed } from './shared';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { useSmallList } from '../../components/resource';

interface Filters {
  item_id?: number;
  scope?: BindScopeName | '';
}

/** Parking targets: lots, spaces (of a lot, searchable by number or plate) or cars (by plate, or all of them). */
function ParkingPicker({
  scope,
  value,
  onChange,
  allCars,
  setAllCars,
  labels = {},
}: {
  scope: 'lot' | 'space' | 'car';
  value: number[];
  onChange: (v: number[]) => void;
  allCars: boolean;
  setAllCars: (v: boolean) => void;
  /** titles of targets chosen before the search lists them (a space or car the page was opened for) */
  labels?: Record<number, string>;
}) {
  const [lot, setLot] = useState<number>();
  const [keyword, setKeyword] = useState('');
  const lots =
    useQuery({ queryKey: ['fees', 'bindTargets', 'lot'], queryFn: () => call('bindfeetargets', { scope: 'lot' }), retry: false }).data
      ?.items ?? [];
  const found =
    useQuery({
      queryKey: ['fees', 'bindTargets', scope, lot, keyword],
      queryFn: () => call('bindfeetargets', { scope, lot_id: lot, keyword }),
      enabled: scope !== 'lot',
      retry: false,
    }).data?.items ?? [];
  // keep the chosen options listed while the search changes
  const [known, setKnown] = useState<Record<number, string>>(labels);
  const options = [
    ...found,
    ...value.filter((id) => !found.some((f) => f.id === id)).map((id) => ({ id, title: known[id] ?? String(id), address: '' })),
  ].map((o) => ({ value: o.id, label: o.title, address: o.address }));
  const pick = (ids: number[]) => {
    setKnown((k) => ({ ...k, ...Object.fromEntries(found.filter((f) => ids.includes(f.id)).map((f) => [f.id, f.title])) }));
    onChange(ids);
  };
  if (scope === 'lot') {
    return (
      <Space orientation="vertical">
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 260 }}
          value={value}
          onChange={onChange}
          data-testid="bind-targets"
          options={lots.map((l) => ({ value: l.id, label: l.title }))}
        />
        <Typography.Text type="secondary">停车场内已售、已租且登记了房屋的车位，每个车位一张账单，计入车位所属房屋</Typography.Text>
      </Space>
    );
  }
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {scope === 'car' && (
        <Checkbox
          checked={allCars}
          onChange={(e) => {
            setAllCars(e.target.checked);
            onChange([]);
          }}
          data-testid="bind-all-cars"
        >
          全部车辆（本小区所有在用车辆，每辆一张账单）
        </Checkbox>
      )}
      {!(scope === 'car' && allCars) && (
        <>
          {scope === 'space' && (
            <Select
              placeholder="停车场"
              allowClear
              style={{ width: 200 }}
              value={lot}
              onChange={(l?: number) => setLot(l)}
              options={lots.map((l) => ({ value: l.id, label: l.title }))}
              data-testid="bind-lot"
            />
          )}
          <Select
            mode="multiple"
            allowClear
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            style={{ minWidth: 300 }}
            value={value}
            onChange={pick}
            placeholder={scope === 'space' ? '输入车位号或车牌搜索' : '输入车牌搜索'}
            data-testid="bind-targets"
            options={options}
            optionRender={(o) => (
              <Space size={4}>
                <span>{o.label}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {o.data.address}
                </Typography.Text>
              </Space>
            )}
          />
        </>
      )}
    </Space>
  );
}

/** A target the page was opened for (/fees/bindfee?scope=room&ref_id=…&bid=…&tid=…&ref_title=…, from 收费对象). */
interface Preset {
  scope: BindScopeName;
  ref_id: number;
  bid?: number;
  tid?: number;
  title: string;
}

function presetOf(params: URLSearchParams): Preset | undefined {
  const scope = params.get('scope') as BindScopeName | null;
  const ref_id = Number(params.get('ref_id')) || 0;
  if (!scope || !BIND_SCOPES.includes(scope) || scope === 'region' || !ref_id) return undefined;
  return {
    scope,
    ref_id,
    bid: Number(params.get('bid')) || undefined,
    tid: Number(params.get('tid')) || undefined,
    title: params.get('ref_title') ?? String(ref_id),
  };
}

/** Targets of a binding, by scope. */
function TargetPicker({
  scope,
  value,
  onChange,
  allCars,
  setAllCars,
  preset,
}: {
  scope: BindScopeName;
  value: number[];
  onChange: (v: number[]) => void;
  allCars: boolean;
  setAllCars: (v: boolean) => void;
  /** the building, unit and title of the target the page was opened for */
  preset?: Preset;
}) {
  const [bid, setBid] = useState<number | undefined>(preset?.bid);
  const [tid, setTid] = useState<number | undefined>(preset?.tid);
  const buildings = useSmallList('building_small_list', {}).items;
  const units = useSmallList('unit_small_list', bid ? { bid } : null).items;
  const rooms = useSmallList('room_small_list', tid ? { tid } : null).items;
  const cats = useSmallList('roomcate_small_list', {}).items;
  if (scope === 'region') return <span>绑定到整个小区的所有房屋</span>;
  if (scope === 'lot' || scope === 'space' || scope === 'car')
    return (
      <ParkingPicker
        scope={scope}
        value={value}
        onChange={onChange}
        allCars={allCars}
        setAllCars={setAllCars}
        labels={preset ? { [preset.ref_id]: preset.title } : {}}
      />
    );
  const multi = (options: Array<{ id: number; title: string }>) => (
    <Select
      mode="multiple"
      allowClear
      style={{ minWidth: 260 }}
      value={value}
      onChange={onChange}
      optionFilterProp="label"
      data-testid="bind-targets"
      options={options.map((o) => ({ value: o.id, label: o.title }))}
    />
  );
  if (scope === 'building') return multi(buildings);
  if (scope === 'category') return multi(cats);
  return (
    <Space orientation="vertical">
      <Space>
        <Select
          placeholder="楼栋"
          style={{ width: 120 }}
          value={bid}
          onChange={(b: number) => {
            setBid(b);
            setTid(undefined);
            onChange([]);
          }}
          options={buildings.map((b) => ({ value: b.id, label: b.title }))}
          data-testid="bind-building"
        />
        {scope === 'room' && (
          <Select
            placeholder="单元"
            style={{ width: 110 }}
            value={tid}
            onChange={(t: number) => {
              setTid(t);
              onChange([]);
            }}
            options={units.map((u) => ({ value: u.id, label: u.title }))}
            data-testid="bind-unit"
          />
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
  // opened for one target (收费对象's 绑定收费项): the dialog opens with it chosen
  const [preset] = useState(() => presetOf(params));
  const list = useList('bindfeelist', { sort: 'asc', item_id: initialItem });
  const things = useSmallList('feethinglist', {}).items;
  const confirmDelete = useConfirmDelete();
  const [open, setOpen] = useState(preset !== undefined);
  const [itemId, setItemId] = useState<number | undefined>(initialItem);
  const [scope, setScope] = useState<BindScopeName>(preset?.scope ?? 'building');
  const [targets, setTargets] = useState<number[]>(preset ? [preset.ref_id] : []);
  const [allCars, setAllCars] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!itemId) return;
    setSaving(true);
    try {
      // all cars: no target ids (the binding's ref_id 0)
      const answer = await request('bindfeeadd', {
        item_id: itemId,
        scope,
        ref_ids: scope === 'region' || (scope === 'car' && allCars) ? [] : targets,
      });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setOpen(false);
      setTargets([]);
      setAllCars(false);
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
      title: '操作',
      key: 'op',
      width: 90,
      fixed: actionFixed,
      render: (_, row) => (
        <Button
          size="small"
          type="link"
          danger
          data-testid={`bind-del-${row.id}`}
          onClick={() =>
            confirmDelete(async () => {
              const answer = await request('bindfeedel', { id: row.id });
              noticeSuccess(answer.return_msg ?? '操作成功');
              list.reload();
            })
          }
        >
          解除
        </Button>
      ),
    },
  ];

  return (
    <>
      <TablePage<BindingRow, Filters>
        testId="bindfee-page"
        list={list}
        columns={columns}
        rowKey="id"
        title="收费项目绑定"
        initialFilters={{ item_id: initialItem }}
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
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="bind-add">
            新增绑定
          </Button>
        }
      />
      <Modal
        open={open}
        title="绑定收费项目"
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
        confirmLoading={saving}
        okButtonProps={
          { disabled: !itemId || (scope !== 'region' && targets.length === 0 && !allCars), 'data-testid': 'bind-save' } as never
        }
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label="收费项目" required>
            <Select
              value={itemId}
              onChange={setItemId}
              options={things.map((i) => ({ value: i.id, label: i.title }))}
              data-testid="bind-item"
            />
          </Form.Item>
          <Form.Item label="绑定范围">
            <Radio.Group
              value={scope}
              onChange={(e) => {
                setScope(e.target.value as BindScopeName);
                setTargets([]);
                setAllCars(false);
              }}
              options={BIND_SCOPES.map((s) => ({ value: s, label: BIND_SCOPE_CH[s] }))}
              data-testid="bind-scope"
            />
          </Form.Item>
          <Form.Item label="绑定对象">
            <TargetPicker
              key={scope}
              scope={scope}
              value={targets}
              onChange={setTargets}
              allCars={allCars}
              setAllCars={setAllCars}
              preset={preset?.scope === scope ? preset : undefined}
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
