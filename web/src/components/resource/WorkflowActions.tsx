import { useState } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Space, type ButtonProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { MSG } from '@wuye/contract/messages';
import { allowedTransitions, type TransitionDef, type WorkflowDef } from '@wuye/contract/kit/workflow';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource } from './keys';
import { useRoles } from './roles';
import { requestMethod } from './wire';
import { zodRule } from './zodRule';

type Row = { id: number } & Record<string, unknown>;

/** The kind of input a zod asks for, under optional/default wrappers. */
function baseOf(schema: z.ZodType): { type: string; max?: number } {
  let s = schema as unknown as {
    _zod: { def: { type: string; innerType?: unknown; checks?: Array<{ _zod: { def: { check: string; maximum?: number } } }> } };
  };
  while (s._zod.def.innerType) s = s._zod.def.innerType as typeof s;
  const max = s._zod.def.checks?.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
  return { type: s._zod.def.type, max };
}

/** `rest` carries what Form.Item gives its child (value, onChange, id) on to the input. */
function InputOf({ schema, testId, ...rest }: { schema: z.ZodType; testId: string; [prop: string]: unknown }) {
  const base = baseOf(schema);
  if (base.type === 'number') return <InputNumber style={{ width: '100%' }} data-testid={testId} {...rest} />;
  if ((base.max ?? 0) > 60) return <Input.TextArea rows={3} maxLength={base.max} showCount data-testid={testId} {...rest} />;
  return <Input maxLength={base.max} data-testid={testId} {...rest} />;
}

/**
 * The transitions a user may take from a row's state (the workflow's `from` and `roles`), one
 * button each: a transition with inputs asks for them in a small form, one with `confirm` asks
 * first; then its method is called with `{ id, ...fixed, ...input }`, the answer's message shown
 * and the resource's lists refreshed. Test ids `${flow}-${transition}-${id}`.
 */
export default function WorkflowActions({
  flow,
  row,
  resource,
  onDone,
  size = 'small',
}: {
  flow: { def: WorkflowDef };
  row: Row;
  /** the resource whose lists the transition changes (default: the workflow's name) */
  resource?: string;
  onDone?: () => void;
  size?: ButtonProps['size'];
}) {
  const { def } = flow;
  const can = useRoles();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [asking, setAsking] = useState<[string, TransitionDef] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const state = String(row[def.stateField ?? 'status'] ?? '');
  const allowed = allowedTransitions(def, state, can);

  const run = async (key: string, t: TransitionDef, input: Record<string, unknown> = {}) => {
    setBusy(key);
    try {
      const answer = await requestMethod(t.method, { id: row.id, ...t.fixed, ...input });
      noticeSuccess(answer.return_msg ?? MSG.saved);
      setAsking(null);
      void invalidateResource(queryClient, resource ?? def.name);
      onDone?.();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(null);
    }
  };
  const start = (key: string, t: TransitionDef) => {
    if (t.input && Object.keys(t.input).length > 0) {
      form.resetFields();
      setAsking([key, t]);
    } else if (t.confirm) {
      void modal.confirm({
        title: '提示',
        content: t.confirm,
        okText: '确定',
        cancelText: MSG.cancel,
        okButtonProps: { danger: t.danger, 'data-testid': `${def.name}-${key}-confirm` } as ButtonProps,
        onOk: () => run(key, t),
      });
    } else void run(key, t);
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
    const parsed: Record<string, unknown> = {};
    for (const [k, schema] of Object.entries(t.input ?? {})) {
      const r = schema.safeParse(values[k] === '' || values[k] === null ? undefined : values[k]);
      parsed[k] = r.success ? r.data : values[k];
    }
    await run(key, t, parsed);
  };

  if (allowed.length === 0) return null;
  return (
    <>
      <Space size={4} wrap>
        {allowed.map(([key, t]) => (
          <Button
            key={key}
            size={size}
            danger={t.danger}
            loading={busy === key}
            onClick={() => start(key, t)}
            data-testid={`${def.name}-${key}-${row.id}`}
          >
            {t.label}
          </Button>
        ))}
      </Space>
      <Modal
        title={asking ? `${asking[1].label}` : ''}
        open={asking !== null}
        onOk={() => void submit()}
        onCancel={() => setAsking(null)}
        confirmLoading={busy !== null}
        destroyOnHidden
        okButtonProps={{ danger: asking?.[1].danger, 'data-testid': asking ? `${def.name}-${asking[0]}-ok` : undefined } as ButtonProps}
      >
        {asking && (
          <Form form={form} layout="vertical">
            {asking[1].confirm && <p>{asking[1].confirm}</p>}
            {Object.entries(asking[1].input ?? {}).map(([k, schema]) => {
              const label = asking[1].inputLabels?.[k] ?? k;
              return (
                <Form.Item key={k} name={k} label={label} rules={[zodRule(schema, label)]}>
                  <InputOf schema={schema} testId={`${def.name}-${asking[0]}-${k}`} />
                </Form.Item>
              );
            })}
          </Form>
        )}
      </Modal>
    </>
  );
}
