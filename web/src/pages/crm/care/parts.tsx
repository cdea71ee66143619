import { useMemo, useState } from 'react';
import { AutoComplete, DatePicker, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { CARE_ATTENTION, CARE_TAG_SUGGESTIONS, type CareAttention } from '@wuye/contract/crm/care';
import { AFFAIR_STATUS, careAffair, careAffairFlow, type CareAffairItem } from '@wuye/contract/crm/careAffairs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { EnumTag, ResourceFormItems, invalidateResource, type ResourceForm, type Widgets } from '../../../components/resource';
import { TextPromptModal } from '../../../components/TextPromptModal';

type InputProps<T> = { value?: T; onChange?: (v: T) => void; 'data-testid'?: string; disabled?: boolean };

/** 特别关注: the words of CARE_ATTENTION, several at once. */
export function AttentionSelect({ value, onChange, 'data-testid': testId }: InputProps<string[]>) {
  return (
    <Select
      mode="multiple"
      value={value ?? []}
      onChange={onChange}
      options={enumOptions(CARE_ATTENTION)}
      placeholder="如独居老人、行动不便"
      allowClear
      data-testid={testId}
    />
  );
}

/** 标签: free words, a few suggested. */
export function CareTagsInput({ value, onChange, 'data-testid': testId }: InputProps<string[]>) {
  return (
    <Select
      mode="tags"
      value={value ?? []}
      onChange={onChange}
      tokenSeparators={[',', '，', ' ']}
      options={CARE_TAG_SUGGESTIONS.map((t) => ({ value: t, label: t }))}
      placeholder="输入后回车，如重点客户"
      data-testid={testId}
    />
  );
}

/** A rule's 适用客户: a special attention or a tag, typed or picked ('' every customer). */
export function RuleTagInput({ value, onChange, 'data-testid': testId }: InputProps<string>) {
  const options = [...enumOptions(CARE_ATTENTION), ...CARE_TAG_SUGGESTIONS.map((t) => ({ value: t, label: t }))];
  return (
    <AutoComplete
      value={value ?? ''}
      onChange={(v) => onChange?.(v ?? '')}
      options={options}
      placeholder="留空为全部关怀中的客户"
      allowClear
      filterOption={(input, o) => String(o?.value ?? '').includes(input)}
      data-testid={testId}
    />
  );
}

/** Special attention as red and orange tags. */
export function AttentionTags({ value }: { value: readonly string[] }) {
  if (!value.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {value.map((a) => (
        <EnumTag key={a} enum={CARE_ATTENTION} value={a as CareAttention} />
      ))}
    </Space>
  );
}

export function WordTags({ value }: { value: readonly string[] }) {
  return (
    <Space size={[0, 4]} wrap>
      {value.map((t) => (
        <Tag key={t}>{t}</Tag>
      ))}
    </Space>
  );
}

/**
 * A care customer found by name or mobile as one types (a community's records may be tens of
 * thousands: the list's keyword, 20 at a time); the value is the record's id.
 */
export function CustomerPicker({ value, onChange, 'data-testid': testId, disabled }: InputProps<number | undefined>) {
  const [keyword, setKeyword] = useState('');
  const found = useQuery({
    queryKey: ['res', 'carecustomer', 'picker', keyword],
    queryFn: () => call('carelist', { keyword, limit: 20, sort: 'desc', status: 'Y' }),
    staleTime: 30_000,
  });
  // the chosen record's name when it is not among those found (an edit, a link from the record)
  const chosen = useQuery({
    queryKey: ['res', 'carecustomer', 'info', value],
    queryFn: () => call('careinfo', { id: value! }),
    enabled: !!value && !(found.data?.items ?? []).some((c) => c.id === value),
    staleTime: 60_000,
  });
  const options = useMemo(() => {
    const rows = [...(found.data?.items ?? [])];
    if (chosen.data && !rows.some((r) => r.id === chosen.data.id)) rows.unshift(chosen.data);
    return rows.map((c) => ({ value: c.id, label: `${c.realname} ${c.mobile}${c.houses ? ` · ${c.houses}` : ''}` }));
  }, [found.data, chosen.data]);
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={found.isFetching}
      placeholder="输入姓名或手机号查找"
      allowClear
      disabled={disabled}
      notFoundContent={found.isFetching ? '查找中…' : '没有找到关怀客户'}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}

const affairWidgets = { customer_id: CustomerPicker } as unknown as Widgets;

/** The affair form (新增/编辑关怀事务) in a modal, for a page that opens it itself. */
export function AffairFormModal({ form }: { form: ResourceForm<CareAffairItem> }) {
  return (
    <Modal {...form.modalProps} modalRender={(node) => <div data-testid="careaffair-form">{node}</div>}>
      <Form {...form.formProps}>
        <ResourceFormItems resource={careAffair} form={form.form} widgets={affairWidgets} editing={form.editing !== 'new'} />
      </Form>
    </Modal>
  );
}
export { affairWidgets };

/** 完成: the result and when it was done (now unless said; never later than now). */
export function AffairDoneDialog({ affair, onClose }: { affair: CareAffairItem; onClose: (done: boolean) => void }) {
  const [form] = Form.useForm<{ result: string; at: Dayjs }>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const answer = await request('affairdone', { id: affair.id, result: v.result.trim(), done_time: v.at.format('YYYY-MM-DD HH:mm:ss') });
      noticeSuccess(answer.return_msg);
      void invalidateResource(queryClient, careAffair.def.name);
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
      title={`完成事务 · ${affair.kind_ch} · ${affair.realname}`}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okText="完成"
      okButtonProps={{ 'data-testid': 'careaffair-done-ok' } as never}
      destroyOnHidden
    >
      {affair.content && <Typography.Paragraph type="secondary">{affair.content}</Typography.Paragraph>}
      <Form form={form} layout="vertical" initialValues={{ result: '', at: dayjs() }}>
        <Form.Item name="result" label="处理结果" rules={[{ required: true, whitespace: true, message: '请填写处理结果' }]}>
          <Input.TextArea
            rows={3}
            maxLength={500}
            showCount
            placeholder="如：已上门探访，老人身体状况良好"
            data-testid="careaffair-done-result"
          />
        </Form.Item>
        <Form.Item
          name="at"
          label="完成时间"
          rules={[{ required: true, message: '请选择完成时间' }]}
          extra="默认现在；补记时选实际完成的时间"
        >
          <DatePicker
            showTime
            inputReadOnly
            style={{ width: '100%' }}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            data-testid="careaffair-done-at"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 取消: the reason the workflow keeps. */
export function AffairCancelDialog({ affair, onClose }: { affair: CareAffairItem; onClose: (done: boolean) => void }) {
  const queryClient = useQueryClient();
  return (
    <TextPromptModal
      open
      title={`取消事务 · ${affair.kind_ch} · ${affair.realname}`}
      label="取消原因"
      required="请填写取消原因"
      maxLength={200}
      danger
      testIds={{ text: 'careaffair-cancel-reason', ok: 'careaffair-cancel-ok' }}
      send={(reason) => request('affaircancel', { id: affair.id, reason })}
      onDone={() => {
        void invalidateResource(queryClient, careAffair.def.name);
        onClose(true);
      }}
      onCancel={() => onClose(false)}
    >
      <Typography.Paragraph type="secondary">{careAffairFlow.def.transitions.cancel.confirm}</Typography.Paragraph>
    </TextPromptModal>
  );
}

/** An affair's state, with how late it is when open past its day. */
export function AffairState({ affair }: { affair: CareAffairItem }) {
  return (
    <Space size={4} wrap>
      <EnumTag enum={AFFAIR_STATUS} value={affair.status} />
      {affair.overdue && <Tag color="red">逾期 {-affair.days_left} 天</Tag>}
      {affair.status === 'P' && !affair.overdue && affair.days_left === 0 && <Tag color="orange">今天</Tag>}
    </Space>
  );
}
