import { useState } from 'react';
import { App, Button, Checkbox, Form, Input, Modal, Select, Space, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  CALL_NO_MSG,
  CALL_NO_RE,
  DEFAULT_CALL_TEMPLATE,
  DEFAULT_CODE_TEMPLATE,
  ROOM_CODE_MSG,
  ROOM_CODE_RE,
  ROOM_SYNC_STATE,
  renderRoomCode,
  templateProblem,
  type RoomCodeImportResult,
  type RoomCodeItem,
} from '@wuye/contract';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import ImportDialog from '../../components/ImportDialog';
import TablePage from '../../components/TablePage';
import { useActionFixed } from '../../components/TablePage/useActionFixed';
import { EnumTag, SmallSelect, useCanWrite } from '../../components/resource';
import { useConfirmDelete } from '../../components/useConfirmDelete';

interface Filters {
  bid?: number;
  tid?: number;
  keyword?: string;
  coded?: 'Y' | 'N';
  sync_state?: string;
}
const toFilters = (v: Filters) => ({
  bid: v.bid || undefined,
  tid: v.tid || undefined,
  keyword: v.keyword || undefined,
  coded: v.coded || undefined,
  sync_state: (v.sync_state || undefined) as never,
});

/** The room the generate dialog previews its templates on. */
const SAMPLE = { building: '1号楼', buildingSort: 1, unit: '2单元', unitSort: 2, room: '1103', floor: 11 };
const TOKENS = '{b} 楼栋号 · {u} 单元号 · {f} 楼层 · {r} 层内房号 · {n} 房号；{f:2} 表示补足 2 位';

interface GenerateValues {
  code_template: string;
  call_template: string;
  bid?: number;
  overwrite: boolean;
}

function GenerateDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<GenerateValues>();
  const [saving, setSaving] = useState(false);
  const code = Form.useWatch('code_template', form) ?? DEFAULT_CODE_TEMPLATE;
  const call = Form.useWatch('call_template', form) ?? DEFAULT_CALL_TEMPLATE;
  const preview = (t: string, kind: 'code' | 'call') => (templateProblem(t, kind) ? '—' : t ? renderRoomCode(t, SAMPLE) : '（不生成）');
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('roomcodegenerate', { ...v, bid: v.bid || undefined, overwrite: v.overwrite ? 'Y' : 'N' });
      noticeSuccess(answer.return_msg);
      onDone();
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  const templateRule = (kind: 'code' | 'call') => ({
    validator: (_: unknown, v: string | undefined) => {
      const problem = templateProblem(v ?? '', kind);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  });
  return (
    <Modal
      open={open}
      title="按模板生成编码"
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText="生成"
      okButtonProps={{ 'data-testid': 'roomcode-generate-ok' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ code_template: DEFAULT_CODE_TEMPLATE, call_template: DEFAULT_CALL_TEMPLATE, overwrite: false }}
        preserve={false}
      >
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {TOKENS}
        </Typography.Paragraph>
        <Form.Item
          name="code_template"
          label="房号编码模板"
          rules={[templateRule('code')]}
          extra={`示例：1号楼2单元1103 → ${preview(code, 'code')}`}
        >
          <Input maxLength={60} data-testid="roomcode-code-template" />
        </Form.Item>
        <Form.Item
          name="call_template"
          label="呼叫号模板"
          rules={[templateRule('call')]}
          extra={`示例：1号楼2单元1103 → ${preview(call, 'call')}；留空则不生成呼叫号`}
        >
          <Input maxLength={60} data-testid="roomcode-call-template" />
        </Form.Item>
        <Form.Item name="bid" label="范围" extra="不选则生成全小区">
          <SmallSelect widget={{ small: 'building_small_list' }} values={{}} allowClear placeholder="全部楼栋" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="overwrite" valuePropName="checked" extra="不勾选时只为还没有编码的房屋生成">
          <Checkbox data-testid="roomcode-overwrite">已有编码的房屋也重新生成</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

function EditDialog({ row, onClose, onDone }: { row: RoomCodeItem | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ code: string; call_no: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    if (!row) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('roomcodeedit', { hid: row.hid, code: v.code, call_no: v.call_no ?? '' });
      noticeSuccess(answer.return_msg);
      onDone();
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={row !== null}
      title={row ? `设置编码：${row.address}` : ''}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText="保存"
      okButtonProps={{ 'data-testid': 'roomcode-save' } as never}
      destroyOnHidden
    >
      {row && (
        <Form form={form} layout="vertical" initialValues={{ code: row.code, call_no: row.call_no }} preserve={false}>
          <Form.Item
            name="code"
            label="房号编码"
            rules={[
              { required: true, message: '请输入房号编码' },
              { pattern: ROOM_CODE_RE, message: ROOM_CODE_MSG },
            ]}
          >
            <Input maxLength={20} data-testid="roomcode-code" />
          </Form.Item>
          <Form.Item name="call_no" label="呼叫号" rules={[{ pattern: CALL_NO_RE, message: CALL_NO_MSG }]}>
            <Input maxLength={16} data-testid="roomcode-call" />
          </Form.Item>
          <Typography.Text type="secondary">保存后下发到服务该户的门禁设备（小区大门、所在楼栋和单元的门禁）。</Typography.Text>
        </Form>
      )}
    </Modal>
  );
}

/**
 * /carpark/roomcode (房号编码; docs/product.md#room-codes): each room's device code and call number,
 * generated from templates, set by hand, imported and exported; each change goes to the doors that
 * serve the room, and 同步状态 follows their answers (the log: /carpark/room_construct_sync_log).
 */
export default function RoomCodes() {
  const { modal } = App.useApp();
  const canWrite = useCanWrite(ACCESS_ROLES.staff);
  const actionFixed = useActionFixed();
  const confirmDelete = useConfirmDelete();
  const list = useList('roomcodelist', {});
  const [generating, setGenerating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<RoomCodeItem | null>(null);
  const [form] = Form.useForm<Filters>();
  const bid = Form.useWatch('bid', form);

  const run = async (method: 'roomcodesync' | 'roomcodedel', hid?: number) => {
    try {
      const answer = await request(method, hid ? { hid } : {});
      noticeSuccess(answer.return_msg);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  const syncAll = () =>
    void modal.confirm({
      title: '全部重新下发',
      content: '将所有已生成编码的房屋重新下发到门禁设备，确定继续？',
      okText: '下发',
      cancelText: '取消',
      okButtonProps: { 'data-testid': 'roomcode-sync-all-ok' } as never,
      onOk: () => run('roomcodesync'),
    });

  const columns: TableColumnsType<RoomCodeItem> = [
    { key: 'address', title: '房屋', dataIndex: 'address', width: 150, fixed: actionFixed ? 'left' : undefined },
    { key: 'floor', title: '楼层', dataIndex: 'floor', width: 70 },
    {
      key: 'code',
      title: '房号编码',
      dataIndex: 'code',
      width: 130,
      render: (v: string) => (v ? <Typography.Text code>{v}</Typography.Text> : <Typography.Text type="secondary">未生成</Typography.Text>),
    },
    { key: 'call_no', title: '呼叫号', dataIndex: 'call_no', width: 120, render: (v: string) => v || '—' },
    {
      key: 'sync_state',
      title: '同步状态',
      dataIndex: 'sync_state',
      width: 110,
      render: (v: string, r) => {
        if (!v) return <Typography.Text type="secondary">未生成</Typography.Text>;
        const tag = (
          <span data-testid={`roomcode-state-${r.hid}`}>
            <EnumTag enum={ROOM_SYNC_STATE} value={v} />
          </span>
        );
        return r.sync_error ? <Tooltip title={r.sync_error}>{tag}</Tooltip> : tag;
      },
    },
    { key: 'update_time', title: '更新时间', dataIndex: 'update_time', width: 170 },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 90 },
    ...(canWrite
      ? [
          {
            key: 'actions',
            title: '操作',
            width: 190,
            fixed: actionFixed,
            render: (_: unknown, r: RoomCodeItem) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => setEditing(r)} data-testid={`roomcode-edit-${r.hid}`}>
                  {r.code ? '编辑' : '设置'}
                </Button>
                {r.code && (
                  <Button type="link" size="small" onClick={() => void run('roomcodesync', r.hid)} data-testid={`roomcode-sync-${r.hid}`}>
                    重新下发
                  </Button>
                )}
                {r.code && (
                  <Button type="link" size="small" danger onClick={() => confirmDelete(() => run('roomcodedel', r.hid))}>
                    删除
                  </Button>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <TablePage<RoomCodeItem, Filters>
        testId="roomcode-page"
        title="房号编码"
        list={list}
        form={form}
        columns={columns}
        rowKey="hid"
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('roomcodeexport', toFilters(v))}
        toolbar={
          <Space wrap>
            {canWrite && (
              <Button type="primary" onClick={() => setGenerating(true)} data-testid="roomcode-generate">
                按模板生成
              </Button>
            )}
            {canWrite && (
              <Button onClick={() => setImporting(true)} data-testid="roomcode-import">
                导入
              </Button>
            )}
            {canWrite && (
              <Button onClick={syncAll} data-testid="roomcode-sync-all">
                全部重新下发
              </Button>
            )}
            <Button onClick={list.reload}>刷新</Button>
          </Space>
        }
        filters={
          <>
            <Form.Item name="bid" label="楼栋">
              <SmallSelect widget={{ small: 'building_small_list' }} values={{}} allowClear style={{ width: 130 }} />
            </Form.Item>
            <Form.Item name="tid" label="单元">
              <SmallSelect
                widget={{ small: 'unit_small_list', dependsOn: { bid: 'bid' } }}
                values={{ bid }}
                allowClear
                style={{ width: 110 }}
              />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={30} placeholder="房屋、编码、呼叫号" data-testid="roomcode-filter-keyword" />
            </Form.Item>
            <Form.Item name="coded" label="编码">
              <Select
                allowClear
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '已生成' },
                  { value: 'N', label: '未生成' },
                ]}
              />
            </Form.Item>
            <Form.Item name="sync_state" label="同步状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(ROOM_SYNC_STATE)} data-testid="roomcode-filter-state" />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1050 }, size: 'middle' }}
      />
      <GenerateDialog open={generating} onClose={() => setGenerating(false)} onDone={list.reload} />
      <EditDialog row={editing} onClose={() => setEditing(null)} onDone={list.reload} />
      <ImportDialog<RoomCodeImportResult>
        open={importing}
        onClose={() => setImporting(false)}
        onDone={list.reload}
        title="导入房号编码"
        testId="roomcode-importer"
        methods={{ template: 'roomcodetemplate', upload: 'roomcodeimport', errors: 'roomcodeerrors' }}
        hint="模板预填全小区的房屋和现有编码，修改后上传；文件中没有的房屋保持原编码，任何一行有错误时整个文件都不导入。"
        success={(r) => `导入成功：更新 ${r.imported} 户的编码，已下发到门禁设备`}
      />
    </>
  );
}
