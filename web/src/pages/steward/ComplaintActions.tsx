import { useState } from 'react';
import { App, Button, Form, Input, Modal, Rate, Select, Space, type ButtonProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { allowedTransitions, type TransitionDef } from '@wuye/contract/kit/workflow';
import { enumOptions } from '@wuye/contract/kit/resource';
import { COMPLAINT_CLOSE_REASON, complaintFlow, type ComplaintRow } from '@wuye/contract/steward/complaints';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, useRoles } from '../../components/resource';
import { requestMethod } from '../../components/resource/wire';
import { useSmallList } from '../../components/resource';

type Key = keyof typeof complaintFlow.def.transitions;

/** The handlers a complaint may be given to (the community's staff with the desk's or a technician's rights). */
export function useComplaintStaff() {
  const staff = useSmallList('complaint_staff_small_list', {});
  return staff.items.map((s) => ({ value: s.id, label: s.roles_ch ? `${s.name}（${s.roles_ch}）` : s.name }));
}

/** The inputs of a transition, as the complaint's handlers need them (a staff picker, stars, a reason). */
function Inputs({ name }: { name: Key }) {
  const staff = useComplaintStaff();
  const t = complaintFlow.def.transitions[name];
  const label = (k: string) => (t.inputLabels as Record<string, string>)[k] ?? k;
  switch (name) {
    case 'accept':
      return (
        <>
          <Form.Item name="handler_id" label={label('handler_id')} rules={[{ required: true, message: '请选择处理人' }]}>
            <Select options={staff} showSearch optionFilterProp="label" data-testid="complaint-accept-handler" placeholder="选择处理人" />
          </Form.Item>
          <Form.Item name="remark" label={label('remark')}>
            <Input maxLength={200} data-testid="complaint-accept-remark" />
          </Form.Item>
        </>
      );
    case 'rate':
      return (
        <>
          <Form.Item name="rating" label={label('rating')} rules={[{ required: true, message: '请选择满意度' }]}>
            <Rate data-testid="complaint-rate-rating" />
          </Form.Item>
          <Form.Item name="rating_text" label={label('rating_text')}>
            <Input.TextArea rows={3} maxLength={200} showCount data-testid="complaint-rate-text" />
          </Form.Item>
        </>
      );
    case 'close':
      return (
        <>
          <Form.Item name="reason" label={label('reason')} rules={[{ required: true, message: '请选择关闭原因' }]}>
            <Select options={enumOptions(COMPLAINT_CLOSE_REASON)} data-testid="complaint-close-reason" />
          </Form.Item>
          <Form.Item name="note" label={label('note')}>
            <Input maxLength={200} data-testid="complaint-close-note" />
          </Form.Item>
        </>
      );
    default: {
      const field = name === 'finish' ? 'note' : 'content';
      return (
        <Form.Item
          name={field}
          label={label(field)}
          rules={[{ required: true, whitespace: true, message: `请填写${label(field).replace(/（.*）/, '')}` }]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount data-testid={`complaint-${name}-${field}`} />
        </Form.Item>
      );
    }
  }
}

/**
 * A complaint's actions (docs/product.md#complaints): the transitions its state allows for the user's
 * roles, and for a handler without the desk's rights only on the complaints handed to them. Test
 * ids complaint-<transition>-<id>, the form's OK complaint-<transition>-ok.
 */
export default function ComplaintActions({
  row,
  onDone,
  size = 'small',
}: {
  row: ComplaintRow;
  onDone?: () => void;
  size?: 'small' | 'middle';
}) {
  const can = useRoles();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [asking, setAsking] = useState<[Key, TransitionDef] | null>(null);
  const [busy, setBusy] = useState(false);
  const desk = can(STEWARD_ROLES.desk);
  const allowed = allowedTransitions(complaintFlow.def, row.status, can).filter(
    ([key]) => desk || (row.mine && key !== 'accept' && key !== 'rate' && key !== 'close'),
  ) as Array<[Key, TransitionDef]>;
  if (allowed.length === 0) return null;

  const run = async (t: TransitionDef, input: Record<string, unknown>) => {
    setBusy(true);
    try {
      const answer = await requestMethod(t.method, { id: row.id, ...input });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setAsking(null);
      void invalidateResource(queryClient, 'complaint');
      onDone?.();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const submit = async () => {
    if (!asking) return;
    let values: Record<string, unknown>;
    try {
      values = (await form.validateFields()) as Record<string, unknown>;
    } catch {
      return;
    }
    const [key, t] = asking;
    if (key === 'close') {
      void modal.confirm({
        title: '关闭投诉',
        content: '关闭后不能再处理，确定关闭？',
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { danger: true, 'data-testid': 'complaint-close-confirm' } as ButtonProps,
        onOk: () => run(t, values),
      });
      return;
    }
    await run(t, values);
  };

  return (
    <>
      <Space size={4} wrap>
        {allowed.map(([key, t]) => (
          <Button
            key={key}
            size={size}
            danger={t.danger}
            type={key === 'accept' || key === 'finish' ? 'primary' : 'default'}
            ghost={key === 'accept' || key === 'finish'}
            onClick={() => {
              form.resetFields();
              setAsking([key, t]);
            }}
            data-testid={`complaint-${key}-${row.id}`}
          >
            {t.label}
          </Button>
        ))}
      </Space>
      <Modal
        title={asking ? `${asking[1].label} · ${row.no}` : ''}
        open={asking !== null}
        onOk={() => void submit()}
        onCancel={() => setAsking(null)}
        confirmLoading={busy}
        destroyOnHidden
        okButtonProps={{ danger: asking?.[1].danger, 'data-testid': asking ? `complaint-${asking[0]}-ok` : undefined } as ButtonProps}
      >
        {asking && (
          <Form form={form} layout="vertical">
            <Inputs name={asking[0]} />
          </Form>
        )}
      </Modal>
    </>
  );
}
