import { useState } from 'react';
import { Button, Descriptions, Drawer, Form, Input, Modal, Radio, Tabs, Timeline, Typography, type ButtonProps } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ASSET_STATE, asset, type AssetDetail, type AssetItem, type AssetState } from '@wuye/contract/assets/ledger';
import { call } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag, ResourcePage, invalidateResource, useCanWrite } from '../../components/resource';
import { formatMoney } from '../../utils/formatMoney';

/** the newest first: a new asset shows at the top */
const LIST_OPTIONS = { permanent: { sort: 'desc' } };

const printPath = (ids: number[]) => `/carpark/device_print?ids=${ids.join(',')}`;

/** 详情: the ledger's fields, 设备日志 (registration, state changes, moves) and the latest maintenance tasks. */
function AssetDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const q = useQuery({ queryKey: ['assetinfo', id], queryFn: () => call('assetinfo', { id: id! }), enabled: !!id, retry: false });
  const a = q.data;
  return (
    <Drawer
      open={!!id}
      onClose={onClose}
      width={640}
      title={a ? `${a.name}（${a.code}）` : '设备详情'}
      destroyOnHidden
      data-testid="asset-drawer"
    >
      {a && (
        <Tabs
          items={[
            {
              key: 'info',
              label: '设备信息',
              children: (
                <Descriptions column={2} size="small" bordered>
                  <Descriptions.Item label="设备分类">{a.category_name}</Descriptions.Item>
                  <Descriptions.Item label="使用状态">
                    <EnumTag enum={ASSET_STATE} value={a.state} />
                  </Descriptions.Item>
                  <Descriptions.Item label="品牌">{a.brand}</Descriptions.Item>
                  <Descriptions.Item label="型号">{a.model}</Descriptions.Item>
                  <Descriptions.Item label="位置" span={2}>
                    <span data-testid="asset-drawer-location">{a.location}</span>
                  </Descriptions.Item>
                  <Descriptions.Item label="首次启用">{a.first_use ?? ''}</Descriptions.Item>
                  <Descriptions.Item label="保修截止">
                    {a.warranty_end ?? ''}
                    {a.warranty_days !== null && (
                      <Typography.Text type={a.warranty_days < 0 ? 'danger' : a.warranty_days <= 30 ? 'warning' : 'secondary'}>
                        {a.warranty_days < 0 ? '（已过保）' : `（剩 ${a.warranty_days} 天）`}
                      </Typography.Text>
                    )}
                  </Descriptions.Item>
                  <Descriptions.Item label="使用年限">{a.service_years ? `${a.service_years} 年` : '不计折旧'}</Descriptions.Item>
                  <Descriptions.Item label="重要等级">{a.importance_ch}</Descriptions.Item>
                  <Descriptions.Item label="采购价格">{formatMoney(a.price)} 元</Descriptions.Item>
                  <Descriptions.Item label="资产净值">
                    <span data-testid="asset-drawer-net">{formatMoney(a.net_value)} 元</span>
                  </Descriptions.Item>
                  <Descriptions.Item label="责任人" span={2}>
                    {a.staff_names}
                  </Descriptions.Item>
                  <Descriptions.Item label="备注" span={2}>
                    {a.remark}
                  </Descriptions.Item>
                </Descriptions>
              ),
            },
            {
              key: 'log',
              label: `设备日志（${a.logs.length}）`,
              children: (
                <Timeline
                  data-testid="asset-drawer-log"
                  items={a.logs.map((l) => ({
                    key: l.id,
                    color: l.action === 'state' ? (l.to_state === 'X' ? 'red' : 'orange') : l.action === 'move' ? 'blue' : 'green',
                    children: (
                      <div>
                        <b>{l.action_ch}</b> {l.action === 'state' && `${l.from_state_ch} → ${l.to_state_ch}`}
                        {l.action === 'move' && `${l.from_location || '（无）'} → ${l.to_location}`}
                        {l.action === 'add' && `${l.to_state_ch}${l.to_location ? `，${l.to_location}` : ''}`}
                        {l.remark && <Typography.Text type="secondary">（{l.remark}）</Typography.Text>}
                        <div>
                          <Typography.Text type="secondary">
                            {l.operator} {l.create_time}
                          </Typography.Text>
                        </div>
                      </div>
                    ),
                  }))}
                />
              ),
            },
            {
              key: 'tasks',
              label: '维保记录',
              children: a.tasks.length ? (
                <Timeline
                  items={a.tasks.map((t) => ({
                    key: t.id,
                    children: `${t.due_on} ${t.plan_name} ${t.status_ch}${t.done_name ? `（${t.done_name}）` : ''}`,
                  }))}
                />
              ) : (
                <Typography.Text type="secondary">暂无维保任务</Typography.Text>
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}

type Change = { kind: 'state' | 'move'; row: AssetItem } | null;

/** 状态变更 / 移动: the new state or place and a remark; the server logs it (and refuses a scrapped asset). */
function ChangeModal({ change, onClose, onDone }: { change: Change; onClose: () => void; onDone: (d: AssetDetail) => void }) {
  const [form] = Form.useForm<{ state?: AssetState; location?: string; remark?: string }>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!change) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer =
        change.kind === 'state'
          ? await call('assetstate', { id: change.row.id, state: v.state!, remark: v.remark ?? '' })
          : await call('assetmove', { id: change.row.id, location: v.location ?? '', remark: v.remark ?? '' });
      noticeSuccess(change.kind === 'state' ? '状态已变更' : '已移动');
      onDone(answer);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!change}
      title={change ? `${change.kind === 'state' ? '状态变更' : '移动'}：${change.row.name}` : ''}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'asset-change-save' } as ButtonProps}
    >
      {change && (
        <Form form={form} layout="vertical" preserve={false}>
          {change.kind === 'state' ? (
            <>
              <Form.Item label="当前状态">
                <EnumTag enum={ASSET_STATE} value={change.row.state} />
              </Form.Item>
              <Form.Item
                name="state"
                label="新状态"
                rules={[{ required: true, message: '请选择新的使用状态' }]}
                extra="报废后不能再改变状态，也不能移动"
              >
                <Radio.Group
                  options={enumOptions(ASSET_STATE).map((o) => ({ ...o, disabled: o.value === change.row.state }))}
                  data-testid="asset-change-state"
                />
              </Form.Item>
            </>
          ) : (
            <>
              <Form.Item label="当前位置">{change.row.location || '（无）'}</Form.Item>
              <Form.Item name="location" label="新位置" rules={[{ required: true, whitespace: true, message: '请输入新位置' }]}>
                <Input maxLength={100} data-testid="asset-change-location" />
              </Form.Item>
            </>
          )}
          <Form.Item name="remark" label="备注">
            <Input.TextArea maxLength={200} rows={2} data-testid="asset-change-remark" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/**
 * /carpark/device (设备台账; docs/product.md#equipment-ledger): the assets with their category (a
 * filter takes its subtree), state, importance, warranty, price and net value; 详情 with the log,
 * 状态变更 and 移动 (logged), QR labels one by one or in a batch (/carpark/device_print), export.
 * Adding and editing open /carpark/device_add and /carpark/device_edit?id=.
 */
export default function AssetList() {
  const [params, setParams] = useSearchParams();
  const viewing = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(asset.def.roles.write);
  const [change, setChange] = useState<Change>(null);
  const view = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('id', String(id));
    else next.delete('id');
    setParams(next, { replace: true });
  };
  return (
    <>
      <ResourcePage<AssetItem>
        resource={asset}
        title="设备台账"
        listOptions={LIST_OPTIONS}
        columns={{
          name: {
            render: (name: string, r: AssetItem) => (
              <a onClick={() => view(r.id)} data-testid={`asset-view-${r.id}`}>
                {name}
              </a>
            ),
          },
          warranty_end: {
            render: (v: string | null, r: AssetItem) =>
              v && (
                <Typography.Text type={r.warranty_days! < 0 ? 'danger' : r.warranty_days! <= 30 ? 'warning' : undefined}>
                  {v}
                </Typography.Text>
              ),
          },
        }}
        rowActions={(row) => (
          <>
            <Button size="small" onClick={() => view(row.id)} data-testid={`asset-detail-${row.id}`}>
              详情
            </Button>
            {canWrite && row.state !== 'X' && (
              <>
                <Button size="small" onClick={() => setChange({ kind: 'state', row })} data-testid={`asset-state-${row.id}`}>
                  状态
                </Button>
                <Button size="small" onClick={() => setChange({ kind: 'move', row })} data-testid={`asset-move-${row.id}`}>
                  移动
                </Button>
              </>
            )}
            <Button
              size="small"
              icon={<PrinterOutlined />}
              onClick={() => void navigate(printPath([row.id]))}
              data-testid={`asset-print-${row.id}`}
            >
              标签
            </Button>
          </>
        )}
        batchActions={(rows) => (
          <Button
            icon={<PrinterOutlined />}
            onClick={() => void navigate(printPath(rows.map((r) => r.id)))}
            data-testid="asset-print-batch"
          >
            批量打印标签
          </Button>
        )}
      />
      <AssetDrawer id={viewing} onClose={() => view(null)} />
      <ChangeModal
        change={change}
        onClose={() => setChange(null)}
        onDone={(d) => {
          setChange(null);
          queryClient.setQueryData(['assetinfo', d.id], d);
          void invalidateResource(queryClient, asset.def.name);
        }}
      />
    </>
  );
}
