import { useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Typography } from 'antd';
import { QrcodeOutlined, SafetyCertificateOutlined, SettingOutlined, FieldTimeOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PASS_EARLY_MINUTES,
  PASS_MAX_USES,
  VISITOR_CAR_STATUS,
  VISITOR_ROLES,
  visitor,
  visitorFlow,
  type VisitorPassAnswer,
  type VisitorRow,
  type VisitorSettings,
} from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import QrImage from '../../components/QrImage';
import {
  EnumTag,
  ResourcePage,
  WorkflowActions,
  invalidateResource,
  resourceKey,
  useRequestLog,
  useRoles,
  useSmallList,
} from '../../components/resource';
import { DateTimeInput, OwnerSelect, PhotoInput, ReasonSelect, StatusFilter } from './widgets';

/** The pass code as the visitor's phone shows it: the QR, the code, the window and the uses. */
function PassModal({ row, onClose }: { row: VisitorRow | null; onClose: () => void }) {
  return (
    <Modal open={row !== null} onCancel={onClose} footer={null} title={row ? `通行码 · ${row.realname}` : ''} destroyOnHidden>
      {row && (
        <Space direction="vertical" align="center" style={{ width: '100%' }} data-testid="visitor-pass">
          {row.pass_code ? (
            <>
              <QrImage text={row.pass_code} size={200} testId="visitor-pass-qr" />
              <Typography.Text copyable strong data-testid="visitor-pass-code">
                {row.pass_code}
              </Typography.Text>
            </>
          ) : (
            <Alert type="warning" showIcon message={row.pass_revoked === 'Y' ? '通行码已作废' : `访客${row.status_ch}，通行码不可用`} />
          )}
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label="有效时间">
              {row.visit_time} 前{PASS_EARLY_MINUTES}分钟 至 {row.leave_time}
            </Descriptions.Item>
            <Descriptions.Item label="已使用">
              {row.pass_uses} / {PASS_MAX_USES} 次{row.last_pass_time ? `（最近 ${row.last_pass_time}）` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="访问">
              {row.address} {row.owner_name}
            </Descriptions.Item>
            {row.carlicense && (
              <Descriptions.Item label="车辆">
                {row.carlicense} <EnumTag enum={VISITOR_CAR_STATUS} value={row.car_status} />
                {row.space_title && ` 车位 ${row.space_title}`}
                {row.free_until && `，免费至 ${row.free_until}`}
                {row.car_remark && `（${row.car_remark}）`}
              </Descriptions.Item>
            )}
          </Descriptions>
        </Space>
      )}
    </Modal>
  );
}

/** 访客设置 (visitorsetinfo / visitorsetedit). */
function SettingsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const lots = useSmallList('carpark_small_list', open ? {} : null);
  const reserve = Form.useWatch('reserve_car', form) as boolean | undefined;
  const load = async () => {
    const s: VisitorSettings = await call('visitorsetinfo', {});
    form.setFieldsValue({
      review: s.review === 'Y',
      push_face: s.push_face === 'Y',
      reserve_car: s.reserve_car === 'Y',
      lot_id: s.lot_id ?? undefined,
      free_minutes: s.free_minutes,
      daily_car_limit: s.daily_car_limit,
    });
  };
  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('visitorsetedit', {
        review: v.review ? 'Y' : 'N',
        push_face: v.push_face ? 'Y' : 'N',
        reserve_car: v.reserve_car ? 'Y' : 'N',
        lot_id: v.lot_id ?? '',
        free_minutes: v.free_minutes,
        daily_car_limit: v.daily_car_limit,
      });
      noticeSuccess(answer.return_msg);
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title="访客设置"
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      afterOpenChange={(o) => o && void load().catch(() => undefined)}
      okButtonProps={{ 'data-testid': 'visitorset-save' } as never}
      destroyOnHidden
      forceRender
    >
      <Form form={form} labelCol={{ span: 8 }} wrapperCol={{ span: 14 }}>
        <Form.Item name="review" label="登记需审核" valuePropName="checked" extra="开启后登记的访客待审核，通过后通行码才可用">
          <Switch data-testid="visitorset-review" />
        </Form.Item>
        <Form.Item name="push_face" label="下发人脸" valuePropName="checked" extra="有照片的访客在来访时段内下发到门禁">
          <Switch data-testid="visitorset-face" />
        </Form.Item>
        <Form.Item name="reserve_car" label="访客车辆预留车位" valuePropName="checked" extra="登记车牌的访客预留一个空闲车位并加入白名单">
          <Switch data-testid="visitorset-reserve" />
        </Form.Item>
        <Form.Item name="lot_id" label="预留停车场" rules={reserve ? [{ required: true, message: '请选择停车场' }] : []}>
          <Select allowClear options={lots.options} disabled={!reserve} placeholder="请选择停车场" data-testid="visitorset-lot" />
        </Form.Item>
        <Form.Item
          name="free_minutes"
          label="免费时长（分钟）"
          rules={[{ required: true, type: 'integer', min: 10, max: 1440, message: '10～1440 分钟' }]}
        >
          <InputNumber precision={0} min={10} max={1440} data-testid="visitorset-minutes" />
        </Form.Item>
        <Form.Item
          name="daily_car_limit"
          label="每位业主每日车辆上限"
          extra="0 表示不限"
          rules={[{ required: true, type: 'integer', min: 0, max: 50, message: '0～50' }]}
        >
          <InputNumber precision={0} min={0} max={50} data-testid="visitorset-limit" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 验证通行码: a door device scans a code (the guard types it, or the simulator plays the device). */
function PassCheckModal({ open, onClose, onChecked }: { open: boolean; onClose: () => void; onChecked: () => void }) {
  const [form] = Form.useForm();
  const devices = useSmallList('visitor_device_small_list', open ? {} : null);
  const [result, setResult] = useState<VisitorPassAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const check = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const answer = await call('visitorpasscheck', { device_id: v.device_id, code: v.code, time: v.time ?? '' });
      setResult(answer);
      onChecked();
    } catch {
      setResult(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="验证通行码"
      onCancel={() => {
        setResult(null);
        onClose();
      }}
      onOk={() => void check()}
      okText="扫码验证"
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'visitor-check-submit' } as never}
      destroyOnHidden
    >
      <Form form={form} labelCol={{ span: 6 }} wrapperCol={{ span: 16 }}>
        <Form.Item name="device_id" label="门禁设备" rules={[{ required: true, message: '请选择门禁设备' }]}>
          <Select options={devices.options} loading={devices.loading} placeholder="请选择门禁设备" data-testid="visitor-check-device" />
        </Form.Item>
        <Form.Item name="code" label="通行码" rules={[{ required: true, message: '请输入通行码' }]}>
          <Input maxLength={40} placeholder="扫码或输入通行码" data-testid="visitor-check-code" />
        </Form.Item>
        <Form.Item name="time" label="扫码时间" extra="模拟设备时钟；不填为现在">
          <DateTimeInput allowClear data-testid="visitor-check-time" />
        </Form.Item>
      </Form>
      {result && (
        <Alert
          type={result.open ? 'success' : 'error'}
          showIcon
          data-testid="visitor-check-result"
          message={result.open ? `开门：${result.reason}` : `不开门：${result.reason}`}
          description={result.visitor_id ? `${result.realname}，已使用 ${result.uses} 次` : undefined}
        />
      )}
    </Modal>
  );
}

/** 释放到期车位: the release job's run now, or at a simulated clock. */
function ReleaseModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [time, setTime] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const answer = await request('visitorcarrelease', { time });
      noticeSuccess(answer.return_msg);
      onDone();
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="释放到期的访客车位"
      onCancel={onClose}
      onOk={() => void run()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'visitor-release-submit' } as never}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        系统每分钟自动释放免费时长已到的访客车位并移出白名单。这里可立即运行，或按模拟时钟运行。
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label="模拟时间（不填为现在）">
          <DateTimeInput value={time} onChange={setTime} allowClear data-testid="visitor-release-time" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 访客管理 (/carpark/visitorlist; docs/product.md#visitors): register a visitor for an owner (the room,
 * then a person living there), review (when the settings ask for it), cancel, revoke the pass, show its
 * QR, check a pass as a door device would, the visitor settings, release the cars whose free time is over.
 */
export default function VisitorList() {
  const can = useRoles();
  const queryClient = useQueryClient();
  const [pass, setPass] = useState<VisitorRow | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [checkOpen, setCheckOpen] = useState(false);
  const [releaseOpen, setReleaseOpen] = useState(false);
  const log = useRequestLog<VisitorRow>(visitorFlow, (r) => `访客 #${r.id} · ${r.realname}`);
  const refresh = () => void invalidateResource(queryClient, visitor.def.name);
  // today's figures, refreshed with the list (the same resource key)
  const today = useQuery({
    queryKey: [...resourceKey(visitor.def.name), 'today'],
    queryFn: () => call('visitor_today', {}),
    retry: false,
  }).data;

  const revoke = async (row: VisitorRow) => {
    try {
      const answer = await request('visitorrevoke', { id: row.id });
      noticeSuccess(answer.return_msg);
      refresh();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <>
      <ResourcePage<VisitorRow>
        resource={visitor}
        title={
          <Space size={[16, 0]} wrap>
            访客管理
            {today && (
              <Typography.Text type="secondary" style={{ fontWeight: 'normal' }} data-testid="visitor-today">
                今日预计到访 {today.expected} · 已到访 {today.arrived} · 预留车位 {today.cars}
              </Typography.Text>
            )}
          </Space>
        }
        widgets={
          {
            visit_cause: ReasonSelect,
            visit_time: DateTimeInput,
            leave_time: DateTimeInput,
            photo: PhotoInput,
            member_id: OwnerSelect,
          } as never
        }
        filterWidgets={{ status: StatusFilter } as never}
        columns={{
          realname: { render: (v: string, r) => (r.companions > 0 ? `${v} +${r.companions}` : v) },
          carlicense: { render: (v: string) => v || '—' },
        }}
        // the buttons join the page's own wrapping row of actions, so a phone folds them
        toolbar={
          <>
            <Button icon={<SafetyCertificateOutlined />} onClick={() => setCheckOpen(true)} data-testid="visitor-check">
              验证通行码
            </Button>
            <Button icon={<FieldTimeOutlined />} onClick={() => setReleaseOpen(true)} data-testid="visitor-release">
              释放到期车位
            </Button>
            {can(VISITOR_ROLES.manager) && (
              <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} data-testid="visitor-settings">
                访客设置
              </Button>
            )}
          </>
        }
        rowActions={(row) => (
          <Space size={4} wrap>
            <Button size="small" type="link" icon={<QrcodeOutlined />} onClick={() => setPass(row)} data-testid={`visitor-pass-${row.id}`}>
              通行码
            </Button>
            <WorkflowActions flow={visitorFlow} row={row as unknown as { id: number } & Record<string, unknown>} onDone={refresh} />
            {row.pass_revoked === 'N' && (row.status === 'Y' || row.status === 'D' || row.status === '') && (
              <Popconfirm title="作废后扫码不再开门，预留的车位释放。确定作废？" onConfirm={() => void revoke(row)}>
                <Button size="small" type="link" danger data-testid={`visitor-revoke-${row.id}`}>
                  作废通行码
                </Button>
              </Popconfirm>
            )}
            <Button size="small" type="link" onClick={() => log.open(row)} data-testid={`visitor-log-${row.id}`}>
              记录
            </Button>
          </Space>
        )}
      />
      <PassModal row={pass} onClose={() => setPass(null)} />
      <SettingsModal open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <PassCheckModal open={checkOpen} onClose={() => setCheckOpen(false)} onChecked={refresh} />
      <ReleaseModal open={releaseOpen} onClose={() => setReleaseOpen(false)} onDone={refresh} />
      {log.drawer}
    </>
  );
}
