import { useState } from 'react';
import { Button, Form, Input, Modal, Radio, Select, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { MeterHouseItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import MoneyInput from '../../components/MoneyInput';
import { Money } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { SmallSelect, useCanWrite } from '../../components/resource';

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
  bid?: number;
  tid?: number;
}

/** One room's settings, or (no room) every room with meters of a building or unit. */
function SettingsModal({ house, onClose, onDone }: { house: MeterHouseItem | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<SettingsValues>();
  const [busy, setBusy] = useState(false);
  const bid = Form.useWatch('bid', form);
  const save = async (v: SettingsValues) => {
    setBusy(true);
    try {
      const common = { alarm_threshold: v.alarm_threshold ?? '0', overdraft: v.overdraft ?? '0', protected: v.protected ?? 'N' };
      const answer = house
        ? await request('meterhouseedit', { hid: house.hid, ...common, remark: v.remark ?? '' })
        : await request('meterhousebatch', { bid: v.bid!, tid: v.tid, ...common });
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
      title={house ? `房屋设置 · ${house.address}` : '按楼栋批量设置'}
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
        initialValues={
          house
            ? { alarm_threshold: house.alarm_threshold, overdraft: house.overdraft, protected: house.protected, remark: house.remark }
            : { alarm_threshold: '20', overdraft: '0', protected: 'N' }
        }
      >
        {!house && (
          <Space>
            <Form.Item name="bid" label="楼栋" rules={[{ required: true, message: '请选择楼栋' }]}>
              <SmallSelect widget={{ small: 'building_small_list' }} values={{}} style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="tid" label="单元">
              <SmallSelect
                widget={{ small: 'unit_small_list', dependsOn: { bid: 'bid' } }}
                values={{ bid }}
                allowClear
                style={{ width: 140 }}
              />
            </Form.Item>
          </Space>
        )}
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
        {house && (
          <Form.Item name="remark" label="备注">
            <Input maxLength={100} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * /carpark/meterhouse (房屋管理; docs/product.md#smart-meters): the rooms with meters, their owner,
 * the money left per kind, the alarm threshold, the overdraft and the protection; set one room or a
 * building (unit) at once.
 */
export default function MeterHouses() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const list = useList('meterhouselist', {});
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
              按楼栋批量设置
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
      {editing && (
        <SettingsModal
          house={editing === 'batch' ? null : editing}
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
