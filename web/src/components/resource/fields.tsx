import type { ComponentType, ReactNode } from 'react';
import { DatePicker, Form, Input, InputNumber, Radio, Select, type FormInstance } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions, isMembersWidget, isSmallWidget, keysIn, type FieldDef, type SmallWidget } from '@wuye/contract/kit/resource';
import type { AnyResource } from './types';
import MoneyInput from '../MoneyInput';
import { MembersSelect, RoomField, rowRoomPath } from './roomWidgets';
import { useSmallList, type SmallMethod } from './useSmallList';
import { zodRule } from './zodRule';

/** A custom input a page gives by field name: an antd-style controlled input. */
export type FieldWidget = ComponentType<{ value?: never; onChange?: (v: never) => void; 'data-testid'?: string }>;
export type Widgets = Record<string, FieldWidget>;

/** The widget a field shows as: the description's, else a select for a coded value, else text. */
export function widgetOf(f: FieldDef) {
  return f.widget ?? (f.enum ? 'select' : 'text');
}
const isChoice = (f: FieldDef) => {
  const w = widgetOf(f);
  return w === 'select' || w === 'radio' || w === 'date' || w === 'dateRange' || w === 'room' || typeof w === 'object';
};

/** A dropdown of a small list; waits while a parameter it depends on is missing. */
export function SmallSelect({
  widget,
  values,
  value,
  onChange,
  placeholder,
  testId,
  allowClear,
  style,
  ...rest
}: {
  widget: SmallWidget;
  /** the values the parameters are taken from (the form's or the filter's) */
  values: Record<string, unknown>;
  /** one choice, or a list of them (multiple) */
  value?: number | string | Array<number | string>;
  onChange?: (v: number | string | Array<number | string> | undefined) => void;
  placeholder?: string;
  testId?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  /** what Form.Item gives its child besides value and onChange (id) */
  [prop: string]: unknown;
}) {
  const deps = Object.entries(widget.dependsOn ?? {});
  const missing = deps.some(([, field]) => values[field] === undefined || values[field] === '' || values[field] === null);
  const params = missing ? null : Object.fromEntries(deps.map(([param, field]) => [param, values[field]]));
  const { options, loading } = useSmallList(widget.small as SmallMethod, params as never);
  return (
    <Select
      {...rest}
      mode={widget.multiple ? 'multiple' : undefined}
      maxTagCount={widget.multiple ? 'responsive' : undefined}
      options={options}
      value={value}
      onChange={onChange}
      loading={loading}
      disabled={missing}
      placeholder={placeholder}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      style={style}
      data-testid={testId}
    />
  );
}

const toDay = (v: unknown) => (typeof v === 'string' && v ? dayjs(v) : undefined);
const fromDay = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : '');

/**
 * One form input of a field. `rest` carries what Form.Item gives its child (value, onChange, id)
 * on to the input; `seed` is the path of the edited row's room (a room field).
 */
function FormInput({
  field,
  testId,
  form,
  seed,
  ...rest
}: {
  field: FieldDef;
  testId: string;
  form: FormInstance;
  seed?: number[];
  [prop: string]: unknown;
}) {
  const w = widgetOf(field);
  const values = Form.useWatch([], form) as Record<string, unknown> | undefined;
  if (isSmallWidget(w))
    return (
      <SmallSelect widget={w} values={values ?? {}} testId={testId} placeholder={field.placeholder ?? `请选择${field.label}`} {...rest} />
    );
  if (isMembersWidget(w)) return <MembersSelect hid={values?.[w.membersOf] as number | undefined} testId={testId} {...rest} />;
  if (w === 'room') return <RoomField seed={seed} testId={testId} placeholder={field.placeholder} {...rest} />;
  switch (w) {
    case 'textarea':
      return <Input.TextArea rows={2} placeholder={field.placeholder} data-testid={testId} {...rest} />;
    case 'int':
      return <InputNumber precision={0} placeholder={field.placeholder} style={{ width: '100%' }} data-testid={testId} {...rest} />;
    case 'decimal':
      return <InputNumber placeholder={field.placeholder} style={{ width: '100%' }} data-testid={testId} {...rest} />;
    case 'money':
      return <MoneyInput placeholder={field.placeholder} data-testid={testId} {...rest} />;
    case 'password':
      return <Input.Password placeholder={field.placeholder} data-testid={testId} {...rest} />;
    case 'select':
      return (
        <Select
          options={field.enum ? enumOptions(field.enum) : []}
          placeholder={field.placeholder ?? `请选择${field.label}`}
          data-testid={testId}
          {...rest}
        />
      );
    case 'radio':
      return <Radio.Group options={field.enum ? enumOptions(field.enum) : []} data-testid={testId} {...rest} />;
    case 'date':
      return <DatePicker inputReadOnly style={{ width: '100%' }} data-testid={testId} {...rest} />;
    default:
      return <Input placeholder={field.placeholder} data-testid={testId} {...rest} />;
  }
}

/**
 * The form items of a resource's form: each field's label, its input (or the page's custom
 * widget of that name) and antd rules run from the field's zod. Test ids `${name}-${field}`.
 */
export function ResourceFormItems({
  resource,
  form,
  widgets = {},
  editing = false,
  row,
}: {
  resource: AnyResource;
  form: FormInstance;
  widgets?: Widgets;
  /** editing a row: fields given once (a code) show but cannot change */
  editing?: boolean;
  /** the row being edited, as the list answered it (a room field shows its bid and tid) */
  row?: Record<string, unknown>;
}) {
  const { def } = resource;
  const items: ReactNode[] = keysIn(def, 'form').map((key) => {
    const field = def.fields[key]!;
    const testId = `${def.name}-${key}`;
    const Custom = widgets[key];
    const date = widgetOf(field) === 'date';
    const item = (
      <Form.Item
        key={key}
        name={key}
        label={field.label}
        extra={field.help}
        rules={field.zod ? [zodRule(field.zod, field.label, isChoice(field))] : undefined}
        {...(date ? { getValueProps: (v: unknown) => ({ value: toDay(v) }), normalize: fromDay } : {})}
      >
        {Custom ? (
          <Custom data-testid={testId} />
        ) : (
          <FormInput
            field={field}
            testId={testId}
            form={form}
            seed={field.widget === 'room' ? rowRoomPath(row, key) : undefined}
            {...(editing && field.once ? { disabled: true } : {})}
          />
        )}
      </Form.Item>
    );
    const when = field.shownWhen;
    if (!when) return item;
    // shown while the other field holds one of the values; hidden, its value is not checked (the server ignores it)
    return (
      <Form.Item key={key} noStyle shouldUpdate={(a, b) => a[when.field] !== b[when.field]}>
        {({ getFieldValue }) => (when.values.includes(String(getFieldValue(when.field))) ? item : null)}
      </Form.Item>
    );
  });
  return <>{items}</>;
}
