import { useEffect, useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Form, Image, Input, Modal, Radio, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { GRANT_STATUS, PERSON_KIND, SYNC_STATE, grantFlow, type GrantDetail, type GrantItem, type GrantSyncCell } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { EnumTag, RoomField, SmallSelect, WorkflowActions, WorkflowTimeline } from '../../components/resource';

export const GRANT_KEY = ['res', 'accessgrant'] as const;

/** The grant's status tag: the spec's colours; a revoked grant says so. */
export function GrantStatus({ row }: { row: Pick<GrantItem, 'status' | 'status_ch' | 'revoked'> }) {
  if (row.revoked === 'Y') return <Typography.Text type="secondary">已注销</Typography.Text>;
  return <EnumTag enum={GRANT_STATUS} value={row.status} />;
}

interface GrantFormValues {
  person_kind: string;
  hid?: number;
  member_id?: number;
  person_name?: string;
  mobile?: string;
  region_ids: number[];
  validity: [Dayjs, Dayjs];
  face?: string[];
  card_no?: string;
  qr_code?: string;
}

const RESIDENT = new Set(['owner', 'family', 'tenant']);

/** Add or edit a grant: the person, regions, validity and credentials (a new photo goes back to review). */
export function GrantForm({ editing, onClose }: { editing: GrantItem | 'new'; onClose: (saved: boolean) => void }) {
  const [form] = Form.useForm<GrantFormValues>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const kind = Form.useWatch('person_kind', form) ?? 'owner';
  const hid = Form.useWatch('hid', form);
  const isNew = editing === 'new';
  useEffect(() => {
    if (editing === 'new') {
      form.setFieldsValue({ person_kind: 'owner', region_ids: [], validity: [dayjs(), dayjs().add(1, 'year')] });
    } else {
      form.setFieldsValue({
        person_kind: editing.person_kind,
        person_name: editing.person_name,
        mobile: editing.mobile,
        region_ids: editing.region_ids,
        validity: [dayjs(editing.door_start_time), dayjs(editing.door_end_time)],
        face: editing.face_image ? [editing.face_image] : [],
        card_no: editing.card_no,
        qr_code: editing.qr_code,
      });
    }
  }, [editing, form]);
  const submit = async () => {
    const v = await form.validateFields();
    const common = {
      region_ids: v.region_ids,
      door_start_time: v.validity[0].format('YYYY-MM-DD'),
      door_end_time: v.validity[1].format('YYYY-MM-DD'),
      face_image: v.face?.[0] ?? '',
      card_no: v.card_no ?? '',
      qr_code: v.qr_code ?? '',
      person_name: v.person_name ?? '',
      mobile: v.mobile ?? '',
    };
    setBusy(true);
    try {
      const answer =
        editing === 'new'
          ? await request('accessgrantadd', {
              ...common,
              person_kind: v.person_kind as never,
              hid: RESIDENT.has(v.person_kind) ? v.hid : undefined,
              member_id: RESIDENT.has(v.person_kind) ? v.member_id : undefined,
            })
          : await request('accessgrantedit', { ...common, id: editing.id });
      noticeSuccess(answer.return_msg);
      void queryClient.invalidateQueries({ queryKey: GRANT_KEY });
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const resident = RESIDENT.has(kind);
  return (
    <Drawer
      open
      size="large"
      title={isNew ? '新增门禁授权' : `编辑门禁授权 · ${editing.person_name}`}
      onClose={() => onClose(false)}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={() => onClose(false)}>取消</Button>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="grant-save">
            保存
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" data-testid="grant-form">
        <Form.Item name="person_kind" label="人员类型" rules={[{ required: true }]}>
          <Radio.Group options={enumOptions(PERSON_KIND).filter((o) => !isNew || o.value !== 'visitor')} disabled={!isNew} />
        </Form.Item>
        {isNew && resident && (
          <>
            <Form.Item name="hid" label="房屋" rules={[{ required: true, message: '请选择房屋' }]}>
              <RoomField testId="grant-room" onChange={() => form.setFieldValue('member_id', undefined)} />
            </Form.Item>
            <Form.Item name="member_id" label="人员" rules={[{ required: true, message: '请选择人员' }]}>
              <SmallSelect
                widget={{ small: 'accessmember_small_list', dependsOn: { hid: 'hid' } }}
                values={{ hid }}
                testId="grant-member"
              />
            </Form.Item>
          </>
        )}
        {(!resident || (!isNew && editing.member_id === null)) && (
          <>
            <Form.Item name="person_name" label="姓名" rules={[{ required: true, message: '请填写姓名' }]}>
              <Input maxLength={30} data-testid="grant-name" />
            </Form.Item>
            <Form.Item name="mobile" label="手机号">
              <Input maxLength={20} />
            </Form.Item>
          </>
        )}
        <Form.Item name="region_ids" label="门禁区域" rules={[{ required: true, message: '请至少选择一个门禁区域' }]}>
          <SmallSelect widget={{ small: 'accessregion_small_list', multiple: true }} values={{}} testId="grant-regions" />
        </Form.Item>
        <Form.Item name="validity" label="有效期" rules={[{ required: true, message: '请选择有效期' }]}>
          <DatePicker.RangePicker data-testid="grant-validity" />
        </Form.Item>
        <Form.Item name="face" label="人脸照片" extra="更换照片后须重新审核">
          <PhotosInput max={1} testId="grant-face" />
        </Form.Item>
        <Form.Item name="card_no" label="卡号" rules={[{ pattern: /^[A-Za-z0-9]*$/, message: '卡号只能是字母或数字' }]}>
          <Input maxLength={30} data-testid="grant-card" />
        </Form.Item>
        <Form.Item name="qr_code" label="二维码内容">
          <Input maxLength={64} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** 注销: the reason, then every device deletes the person. */
export function RevokeButton({ row, onDone }: { row: GrantItem; onDone?: () => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const queryClient = useQueryClient();
  const revoke = async () => {
    try {
      const answer = await request('accessgrantrevoke', { id: row.id, reason });
      noticeSuccess(answer.return_msg);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: GRANT_KEY });
      onDone?.();
    } catch {
      /* shown by the client */
    }
  };
  return (
    <>
      <Button size="small" type="link" danger onClick={() => setOpen(true)} data-testid={`grant-revoke-${row.id}`}>
        注销
      </Button>
      <Modal
        open={open}
        title={`注销 ${row.person_name} 的门禁授权`}
        onOk={() => void revoke()}
        onCancel={() => setOpen(false)}
        okButtonProps={{ danger: true }}
      >
        <Input.TextArea
          rows={3}
          maxLength={200}
          placeholder="注销原因"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="grant-revoke-reason"
        />
      </Modal>
    </>
  );
}

/** A grant with its photo, devices (held, pending, failed with the error) and history; `actions` shows the review. */
export function GrantInfo({ id, actions, onClose }: { id: number; actions: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: [...GRANT_KEY, 'info', id], queryFn: () => call('accessgrantinfo', { id }), refetchInterval: 3000 });
  const g: GrantDetail | undefined = info.data;
  return (
    <Drawer open size="large" title="门禁授权详情" onClose={onClose} destroyOnHidden data-testid="grant-info">
      {g && (
        <Space direction="vertical" style={{ width: '100%' }} size="large">
          <Space align="start" size="large">
            {g.face_image ? (
              <Image width={120} src={g.face_image} data-testid="grant-info-photo" />
            ) : (
              <Typography.Text type="secondary">无照片</Typography.Text>
            )}
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label="人员">
                {g.person_name}（{g.person_kind_ch}）
              </Descriptions.Item>
              <Descriptions.Item label="房屋">{g.address || '—'}</Descriptions.Item>
              <Descriptions.Item label="门禁区域">{g.region_titles}</Descriptions.Item>
              <Descriptions.Item label="有效期">
                {g.door_start_time} 至 {g.door_end_time}
              </Descriptions.Item>
              <Descriptions.Item label="卡号">{g.card_no || '—'}</Descriptions.Item>
              <Descriptions.Item label="状态">
                <span data-testid="grant-info-status">
                  <GrantStatus row={g} />
                </span>
              </Descriptions.Item>
              {g.reason && (
                <Descriptions.Item label="原因" span={2}>
                  {g.reason}
                </Descriptions.Item>
              )}
            </Descriptions>
          </Space>
          {actions && g.revoked === 'N' && (
            <WorkflowActions
              flow={grantFlow}
              row={{ ...g }}
              resource="accessgrant"
              size="middle"
              onDone={() => void queryClient.invalidateQueries({ queryKey: GRANT_KEY })}
            />
          )}
          <Table<GrantSyncCell>
            rowKey="device_id"
            size="small"
            pagination={false}
            data-testid="grant-info-devices"
            dataSource={g.devices}
            columns={[
              { key: 'device', title: '设备', dataIndex: 'device_title' },
              {
                key: 'state',
                title: '下发状态',
                dataIndex: 'state',
                width: 100,
                render: (v: string) => <EnumTag enum={SYNC_STATE} value={v} />,
              },
              { key: 'last_error', title: '错误', dataIndex: 'last_error' },
              { key: 'updated_at', title: '时间', dataIndex: 'updated_at', width: 170 },
            ]}
          />
          <WorkflowTimeline flow={grantFlow} items={g.log} />
        </Space>
      )}
    </Drawer>
  );
}

/** The grant-status filter's choices (未下发 is '' on the row, none in the filter). */
export const statusFilterOptions = () => [
  ...enumOptions(GRANT_STATUS).map((o) => ({ value: o.value === '' ? 'none' : o.value, label: o.label })),
];
