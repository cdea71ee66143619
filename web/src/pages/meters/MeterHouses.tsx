import { useState } from 'react';
import { Alert, App, Button, Checkbox, Form, Input, Modal, Radio, Select, Space, Tag } from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { enumOptions, enumText } from '@wuye/contract/kit/resource';
import { METER_KIND, type MeterHouseItem, type MeterKind } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import MoneyInput from '../../components/MoneyInput';
import { Money } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { SmallSelect, useCanWrite } from '../../components/resource';
import { useMeterRefresh } from './meterParts';

interface Filters {
  keyword?: string;
  bid?: number;
  tid?: number;
  low?: string;
  closed?: string;
  protected?: string;
}
const toFilters = (v: Filters) => ({
  keyword: v.keyword || undefined,
  bid: v.bid || undefined,
  tid: v.tid || undefined,
  low: (v.low || undefined) as never,
  closed: (v.closed || undefined) as never,
  protected: (v.protected || undefined) as never,
});

interface SettingsValues {
  alarm_threshold?: string;
  overdraft?: string;
  protected?: 'Y' | 'N';
  remark?: string;
}

/** The settings' three fields, for one room and for a building alike. */
function SettingsFields() {
  return (
    <>
      <Form.Item
        name="alarm_threshold"
        label="预警金额（元）"
        extra="预付费表余额低于此金额时通知业主一次；0 为不预警"
        rules={[{ required: true, message: '请输入预警金额' }]}
      >
        <MoneyInput style={{ width: 200 }} data-testid="meterhouse-alarm" />
      </Form.Item>
      <Form.Item
        name="overdraft"
        label="透支额度（元）"
        extra="余额低于负的透支额度时关阀"
        rules={[{ required: true, message: '请输入透支额度' }]}
      >
        <MoneyInput style={{ width: 200 }} data-testid="meterhouse-overdraft" />
      </Form.Item>
      <Form.Item name="protected" label="保护（不断供）" extra="医疗等需要：欠费也不关阀">
        <Radio.Group
          options={[
            { value: 'N', label: '否' },
            { value: 'Y', label: '是' },
          ]}
        />
      </Form.Item>
    </>
  );
}

/** One room's settings. */
function SettingsModal({ house, onClose, onDone }: { house: MeterHouseItem; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<SettingsValues>();
  const [busy, setBusy] = useState(false);
  const save = async (v: SettingsValues) => {
    setBusy(true);
    try {
      const answer = await request('meterhouseedit', {
        hid: house.hid,
        alarm_threshold: v.alarm_threshold ?? '0',
        overdraft: v.overdraft ?? '0',
        protected: v.protected ?? 'N',
        remark: v.remark ?? '',
      });
      noticeSuccess(answer.return_msg);
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`房屋设置 · ${house.address}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'meterhouse-ok' } as never}
      destroyOnHidden
    >
      <Form<SettingsValues>
        form={form}
        layout="vertical"
        onFinish={(v) => void save(v)}
        initialValues={{
          alarm_threshold: house.alarm_threshold,
          overdraft: house.overdraft,
          protected: house.protected,
          remark: house.remark,
        }}
      >
        <SettingsFields />
        <Form.Item name="remark" label="备注">
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface BatchValues extends SettingsValues {
  bid?: number;
  tid?: number;
  settings?: boolean;
  bind?: boolean;
  kind?: MeterKind;
}

/**
 * A building (or a unit of it) at once: the settings of every room with meters, and the binding of
 * the kind's meters bound to no room (in meter-number order) to its rooms without one (in the
 * rooms' order). What will change is counted first (meterhousepreview) and confirmed.
 */
function BatchModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { modal } = App.useApp();
  const [form] = Form.useForm<BatchValues>();
  const bid = Form.useWatch('bid', form);
  const tid = Form.useWatch('tid', form);
  const kind = Form.useWatch('kind', form) ?? 'power';
  const settings = Form.useWatch('settings', form) ?? true;
  const bind = Form.useWatch('bind', form) ?? false;
  const preview = useQuery({
    queryKey: ['meterhousepreview', bid, tid, kind],
    queryFn: () => call('meterhousepreview', { bid: bid!, tid: tid || undefined, kind }),
    enabled: Boolean(bid),
    retry: false,
  });
  const p = preview.data;
  const kindText = enumText(METER_KIND, kind);
  const run = async (v: BatchValues) => {
    if (v.settings !== false) {
      const common = { alarm_threshold: v.alarm_threshold ?? '0', overdraft: v.overdraft ?? '0', protected: v.protected ?? 'N' };
      noticeSuccess((await request('meterhousebatch', { bid: v.bid!, tid: v.tid || undefined, ...common })).return_msg);
    }
    if (v.bind)
      noticeSuccess((await request('meterhousebind', { bid: v.bid!, tid: v.tid || undefined, kind: v.kind ?? 'power' })).return_msg);
    onDone();
  };
  const confirm = (v: BatchValues) => {
    if (!p) return;
    const lines = [
      ...(v.settings !== false ? [`设置 ${p.with_meters} 户有表房屋的预警金额、透支额度和保护`] : []),
      ...(v.bind ? [`把 ${p.to_bind} 块未绑定的${kindText}按表号顺序绑定到 ${p.to_bind} 户还没有${kindText}的房屋`] : []),
    ];
    if (!lines.length) return;
    void modal.confirm({
      title: '确认批量操作',
      content: (
        <ul style={{ paddingLeft: 18, margin: 0 }} data-testid="meterhouse-batch-summary">
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ),
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { 'data-testid': 'meterhouse-batch-confirm' } as ButtonProps,
      onOk: () => run(v).catch(() => undefined),
    });
  };
  const nothing = !p || (!settings && !bind) || (settings && !bind && p.with_meters === 0) || (bind && !settings && p.to_bind === 0);
  return (
    <Modal
      open
      title="按楼栋批量设置与绑定"
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="下一步"
      okButtonProps={{ disabled: nothing, 'data-testid': 'meterhouse-ok' } as never}
      destroyOnHidden
    >
      <Form<BatchValues>
        form={form}
        layout="vertical"
        onFinish={confirm}
        initialValues={{ alarm_threshold: '20', overdraft: '0', protected: 'N', settings: true, bind: false, kind: 'power' }}
      >
        <Space wrap>
          <Form.Item name="bid" label="楼栋" rules={[{ required: true, message: '请选择楼栋' }]}>
            <SmallSelect
              widget={{ small: 'building_small_list' }}
              values={{}}
              style={{ width: 160 }}
              onChange={() => form.setFieldValue('tid', undefined)}
              testId="meterhouse-batch-bid"
            />
          </Form.Item>
          <Form.Item name="tid" label="单元">
            <SmallSelect
              widget={{ small: 'unit_small_list', dependsOn: { bid: 'bid' } }}
              values={{ bid }}
              allowClear
              placeholder="全部单元"
              style={{ width: 140 }}
            />
          </Form.Item>
        </Space>
        {p && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="meterhouse-preview"
            message={`共 ${p.rooms} 户，有表的 ${p.with_meters} 户；没有${kindText}的 ${p.free_rooms} 户，未绑定房屋的${kindText} ${p.unbound_meters} 块`}
          />
        )}
        <Form.Item name="settings" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox data-testid="meterhouse-batch-settings">设置有表房屋的预警金额、透支额度和保护</Checkbox>
        </Form.Item>
        {settings && <SettingsFields />}
        <Form.Item name="bind" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox data-testid="meterhouse-batch-bind">绑定未绑定房屋的表</Checkbox>
        </Form.Item>
        {bind && (
          <Form.Item
            name="kind"
            label="表类型"
            extra={p ? `按表号顺序，依次绑定到还没有${kindText}的房屋（按单元、房号顺序），将绑定 ${p.to_bind} 块` : undefined}
          >
            <Radio.Group options={enumOptions(METER_KIND)} data-testid="meterhouse-batch-kind" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * /carpark/meterhouse (房屋管理; docs/product.md#smart-meters): the rooms with meters, their owner,
 * the money left per kind, the alarm threshold, the overdraft and the protection; set one room or a
 * building (unit) at once, and bind a building's rooms to the meters not yet bound to a room.
 */
export default function MeterHouses() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const list = useList('meterhouselist', {});
  const refresh = useMeterRefresh();
  const [editing, setEditing] = useState<MeterHouseItem | 'batch' | null>(null);
  const money = (v: string | null) => (v === null ? '—' : <Money value={v} />);
  const columns: TableColumnsType<MeterHouseItem> = [
    { key: 'address', title: '房屋', dataIndex: 'address', width: 170, fixed: 'left' },
    { key: 'owner', title: '业主', dataIndex: 'owner', width: 90 },
    { key: 'mobile', title: '手机号', dataIndex: 'mobile', width: 120 },
    { key: 'meters', title: '表计数', dataIndex: 'meters', width: 70 },
    { key: 'power_balance', title: '电表余额', dataIndex: 'power_balance', width: 100, render: money },
    { key: 'water_balance', title: '水表余额', dataIndex: 'water_balance', width: 100, render: money },
    { key: 'gas_balance', title: '燃气余额', dataIndex: 'gas_balance', width: 100, render: money },
    { key: 'alarm_threshold', title: '预警金额', dataIndex: 'alarm_threshold', width: 90, render: (v: string) => <Money value={v} /> },
    { key: 'overdraft', title: '透支额度', dataIndex: 'overdraft', width: 90, render: (v: string) => <Money value={v} /> },
    {
      key: 'state',
      title: '状态',
      width: 170,
      render: (_v, r) => (
        <Space size={4} wrap>
          {r.low === 'Y' && <Tag color="warning">低于预警</Tag>}
          {r.closed > 0 && <Tag color="error">关阀 {r.closed}</Tag>}
          {r.protected === 'Y' && <Tag color="processing">保护</Tag>}
        </Space>
      ),
    },
    { key: 'last_read_at', title: '最后读表', dataIndex: 'last_read_at', width: 170 },
    ...(canWrite
      ? [
          {
            key: 'actions',
            title: '操作',
            width: 80,
            fixed: 'right' as const,
            render: (_v: unknown, r: MeterHouseItem) => (
              <Button size="small" type="link" onClick={() => setEditing(r)} data-testid={`meterhouse-edit-${r.hid}`}>
                设置
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <TablePage<MeterHouseItem, Filters>
        testId="meterhouse-page"
        title="房屋管理"
        list={list}
        columns={columns}
        rowKey="hid"
        onSearch={(v) => list.setFilters(toFilters(v))}
        toolbar={
          canWrite && (
            <Button onClick={() => setEditing('batch')} data-testid="meterhouse-batch">
              按楼栋批量设置/绑定
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="keyword" label="房屋">
              <Input allowClear maxLength={30} placeholder="房号" />
            </Form.Item>
            <Form.Item name="bid" label="楼栋">
              <SmallSelect widget={{ small: 'building_small_list' }} values={{}} allowClear style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="low" label="低于预警">
              <Select allowClear style={{ width: 90 }} options={[{ value: 'Y', label: '是' }]} data-testid="meterhouse-filter-low" />
            </Form.Item>
            <Form.Item name="closed" label="关阀">
              <Select allowClear style={{ width: 90 }} options={[{ value: 'Y', label: '有' }]} />
            </Form.Item>
            <Form.Item name="protected" label="保护">
              <Select
                allowClear
                style={{ width: 90 }}
                options={[
                  { value: 'Y', label: '是' },
                  { value: 'N', label: '否' },
                ]}
              />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1300 }, size: 'middle' }}
      />
      {editing === 'batch' && (
        <BatchModal
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            list.reload();
            refresh();
          }}
        />
      )}
      {editing && editing !== 'batch' && (
        <SettingsModal
          house={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
    </>
  );
}
