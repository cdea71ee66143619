import { useEffect, useRef, useState } from 'react';
import { DatePicker, Form, Input, Modal, Select } from 'antd';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { SALES_ROLES, crmCustomer, intention, invite, salesCall } from '@wuye/contract/crm/sales';
import { request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import {
  ResourceFormItems,
  SmallSelect,
  invalidateResource,
  useResourceForm,
  useRoles,
  type AnyResource,
  type Widgets,
} from '../../../components/resource';

/** A description without some of its fields: a form whose customer is given by the page, a list whose view is a tab. */
export function withoutFields<R extends AnyResource>(resource: R, keys: readonly string[]): R {
  const fields = Object.fromEntries(Object.entries(resource.def.fields).filter(([k]) => !keys.includes(k)));
  return { ...resource, def: { ...resource.def, fields } };
}

/** True for a sales manager (contractaudit) or an administrator. */
export function useSalesManager(): boolean {
  return useRoles()(SALES_ROLES.managers);
}

type InputProps<T> = { value?: T; onChange?: (v: T) => void; 'data-testid'?: string };

/** A time to the minute (YYYY-MM-DD HH:mm), picked, not typed. */
export function MinuteInput({ value, onChange, 'data-testid': testId }: InputProps<string>) {
  return (
    <DatePicker
      showTime={{ format: 'HH:mm', minuteStep: 5 }}
      format="YYYY-MM-DD HH:mm"
      inputReadOnly
      style={{ width: '100%' }}
      value={value ? dayjs(value) : null}
      onChange={(d) => onChange?.(d ? d.format('YYYY-MM-DD HH:mm') : '')}
      data-testid={testId}
    />
  );
}

/** Free words with a few suggested. */
export function TagsInput({ value, onChange, 'data-testid': testId }: InputProps<string[]>) {
  return (
    <Select
      mode="tags"
      value={value ?? []}
      onChange={onChange}
      tokenSeparators={[',', '，', ' ']}
      options={['学区', '首套', '改善', '投资', '刚需', '急购', '全款'].map((t) => ({ value: t, label: t }))}
      placeholder="输入后回车"
      data-testid={testId}
    />
  );
}

/** Up to three other phones. */
export function PhonesInput({ value, onChange, 'data-testid': testId }: InputProps<string[]>) {
  return (
    <Select
      mode="tags"
      value={value ?? []}
      onChange={(v: string[]) => onChange?.(v.slice(0, 3))}
      tokenSeparators={[',', '，', ' ']}
      open={false}
      placeholder="手机号或带区号的座机，回车添加，最多 3 个"
      data-testid={testId}
    />
  );
}

export const customerWidgets = { phones: PhonesInput, tags: TagsInput } as unknown as Widgets;
export const minuteWidgets = { next_contact_at: MinuteInput, invite_at: MinuteInput } as unknown as Widgets;

/** The customer a form is about, when the page gives it (the customer's page, a row's action). */
export interface CustomerRef {
  id: number;
  name: string;
  hid?: number | null;
}

/**
 * A form of a resource about one customer (a follow-up, an invitation, a deposit) in a modal: the
 * customer is the page's, the rest as the description says.
 */
function CustomerFormDialog({
  resource,
  customer,
  title,
  defaults,
  onClose,
  widgets,
}: {
  resource: AnyResource<{ id: number }>;
  customer: CustomerRef;
  title: string;
  defaults?: Record<string, unknown>;
  onClose: (saved: boolean) => void;
  widgets?: Widgets;
}) {
  const shown = withoutFields(resource, ['customer_id']);
  const queryClient = useQueryClient();
  const form = useResourceForm(shown, {
    defaults: () => defaults ?? {},
    toPayload: (v) => ({ ...v, customer_id: customer.id }),
    onSaved: () => {
      void invalidateResource(queryClient, crmCustomer.def.name);
      onClose(true);
    },
  });
  // opens once, as the dialog mounts
  const opened = useRef(false);
  const { open } = form;
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    open();
  }, [open]);
  return (
    <Modal
      {...form.modalProps}
      title={`${title} · ${customer.name}`}
      onCancel={() => onClose(false)}
      modalRender={(node) => <div data-testid={`${resource.def.name}-form`}>{node}</div>}
    >
      <Form {...form.formProps}>
        <ResourceFormItems resource={shown} form={form.form} widgets={widgets} />
      </Form>
    </Modal>
  );
}

export const FollowUpDialog = (p: { customer: CustomerRef; onClose: (saved: boolean) => void }) => (
  <CustomerFormDialog resource={salesCall} title="写跟进" widgets={minuteWidgets} {...p} />
);
export const InviteDialog = (p: { customer: CustomerRef; onClose: (saved: boolean) => void }) => (
  <CustomerFormDialog resource={invite} title="预约到访" widgets={minuteWidgets} {...p} />
);
export const IntentionDialog = (p: { customer: CustomerRef; onClose: (saved: boolean) => void }) => (
  <CustomerFormDialog resource={intention} title="登记认筹" {...p} />
);

/** 分配/转移: the chosen customers to a consultant, with a reason the timelines keep (a manager's). */
export function AssignDialog({ ids, onClose }: { ids: number[]; onClose: (done: boolean) => void }) {
  const [form] = Form.useForm<{ consultant_id?: number; reason: string }>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const answer = await request('crmassign', { ids, consultant_id: v.consultant_id!, reason: v.reason ?? '' });
      noticeSuccess(answer.return_msg);
      void invalidateResource(queryClient, crmCustomer.def.name);
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`分配/转移 ${ids.length} 位客户`}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'crm-assign-ok' } as never}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="consultant_id" label="置业顾问" rules={[{ required: true, message: '请选择置业顾问' }]}>
          <SmallSelect
            widget={{ small: 'crmconsultant_small_list' }}
            values={{}}
            placeholder="请选择置业顾问"
            testId="crm-assign-consultant"
          />
        </Form.Item>
        <Form.Item name="reason" label="原因" extra="记入客户的时间线">
          <Input.TextArea rows={2} maxLength={200} data-testid="crm-assign-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
