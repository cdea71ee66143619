import { useCallback, useState } from 'react';
import { Form, type ButtonProps, type FormInstance, type FormProps, type ModalProps } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@wuye/contract/messages';
import { dependsOnFields, keysIn, type ResourceDef } from '@wuye/contract/kit/resource';
import type { AnyResource } from './types';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource } from './keys';
import { requestMethod } from './wire';

type Values = Record<string, unknown>;

/** The values a new row starts with: what each form field's zod answers for no value (its default). */
export function formDefaults(def: ResourceDef): Values {
  const values: Values = {};
  for (const key of keysIn(def, 'form')) {
    const parsed = def.fields[key]!.zod?.safeParse(undefined);
    if (parsed?.success && parsed.data !== undefined) values[key] = parsed.data;
  }
  return values;
}

const blankToUndefined = (values: Values) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' || v === null ? undefined : v]));

export interface ResourceFormOptions {
  /** values a new row starts with besides the fields' defaults (e.g. the building chosen in the filter) */
  defaults?: () => Values;
  /** turns the form's values into the payload (custom widgets whose value is not the wire's) */
  toPayload?: (values: Values) => Values;
  /** turns a row into the form's values for editing (default: the row's form fields) */
  fromRow?: (row: Values) => Values;
  onSaved?: (id: number | undefined) => void;
  /** the hook serves the form on a page of its own (a description with form routes): open() fills it there */
  inPage?: boolean;
}

export interface ResourceForm<Row> {
  form: FormInstance;
  /** the row being edited, 'new' while adding, null when closed */
  editing: Row | 'new' | null;
  /** opens the form to add (no row) or edit; a resource whose form has routes of its own goes there */
  open: (row?: Row) => void;
  close: () => void;
  /** validates, saves (add or edit), shows the answer's message and refreshes the resource */
  submit: () => Promise<void>;
  saving: boolean;
  title: string;
  /** spread onto antd <Modal> */
  modalProps: ModalProps;
  /** spread onto antd <Form> */
  formProps: FormProps;
}

/**
 * Add and edit of a resource (refine's useModalForm): open/close, the starting values, the
 * rules from the fields' zod (ResourceFormItems), save with the success notice (docs/product.md#success-notice) (the
 * answer's return_msg) and the resource's lists and dropdowns refreshed. In a modal by default;
 * a description whose form has routes of its own opens them, and the page there uses this hook
 * with `open(row)` once loaded.
 */
export function useResourceForm<Row extends { id: number }>(
  resource: AnyResource<Row>,
  options: ResourceFormOptions = {},
): ResourceForm<Row> {
  const { def } = resource;
  const [form] = Form.useForm();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [initial, setInitial] = useState<Values>({});
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { defaults, fromRow, toPayload, onSaved, inPage } = options;

  const open = useCallback(
    (row?: Row) => {
      if (typeof def.form === 'object' && !inPage) {
        const edit = def.form.edit.includes(':id') ? def.form.edit.replace(':id', String(row?.id)) : `${def.form.edit}?id=${row?.id}`;
        void navigate(row ? edit : def.form.add);
        return;
      }
      const keys = keysIn(def, 'form');
      // fromRow answers the form's values itself; by default the row's form fields, null shown as empty
      const values = row
        ? fromRow
          ? fromRow(row as Values)
          : Object.fromEntries(Object.entries(row as Values).flatMap(([k, v]) => (keys.includes(k) ? [[k, v ?? undefined]] : [])))
        : { ...formDefaults(def), ...defaults?.() };
      setInitial(values);
      // in a modal the form mounts on opening and starts from initialValues, but the form's store
      // keeps what the last opening left (its starting values win over the new ones on mounting):
      // every field is set here, so nothing of the last row or the last add stays; on a page the
      // form is there already
      form.setFieldsValue(Object.fromEntries(keys.map((k) => [k, values[k]])));
      setEditing(row ?? 'new');
    },
    [def, defaults, form, fromRow, inPage, navigate],
  );
  const close = useCallback(() => setEditing(null), []);

  const submit = useCallback(async () => {
    let values: Values;
    try {
      values = (await form.validateFields()) as Values;
    } catch {
      return; // the form shows what is wrong
    }
    const method = editing === 'new' ? def.methods.add : def.methods.edit;
    if (!method || editing === null) return;
    const raw = blankToUndefined(toPayload ? toPayload(values) : values);
    const parsed = resource.formSchema.safeParse(raw);
    // the rules across fields (contract `rules`) show at their field, as the server would say
    if (!parsed.success) {
      const errors = parsed.error.issues
        .filter((i) => i.code === 'custom' && typeof i.path[0] === 'string' && keysIn(def, 'form').includes(i.path[0]))
        .map((i) => ({ name: i.path[0] as string, errors: [i.message] }));
      if (errors.length > 0) return form.setFields(errors);
    }
    const data = parsed.success ? (parsed.data as Values) : raw;
    // a field given once (a code) is not sent again on edit
    if (editing !== 'new') for (const [k, f] of Object.entries(def.fields)) if (f.once) delete data[k];
    const payload = { ...data, ...(editing === 'new' ? {} : { id: editing.id }) };
    setSaving(true);
    try {
      const answer = await requestMethod(method, payload);
      noticeSuccess(answer.return_msg ?? MSG.saved);
      setEditing(null);
      void invalidateResource(queryClient, def.name);
      const added = (answer.data as { id?: number } | null)?.id;
      onSaved?.(editing === 'new' ? added : editing.id);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  }, [def, editing, form, onSaved, queryClient, resource.formSchema, toPayload]);

  // a choice another field depends on (the room of a member) clears that field
  const onValuesChange = useCallback(
    (changed: Values) => {
      for (const key of keysIn(def, 'form'))
        if (dependsOnFields(def.fields[key]!).some((d) => d in changed)) form.setFieldValue(key, undefined);
    },
    [def, form],
  );

  const title = `${editing === 'new' ? '新增' : '编辑'}${def.label}`;
  return {
    form,
    editing,
    open,
    close,
    submit,
    saving,
    title,
    modalProps: {
      title,
      open: editing !== null,
      onOk: () => void submit(),
      onCancel: close,
      confirmLoading: saving,
      destroyOnHidden: true,
      okButtonProps: { 'data-testid': `${def.name}-save` } as ButtonProps,
    },
    formProps: { form, layout: 'vertical', initialValues: initial, preserve: false, onValuesChange },
  };
}
