import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Col, DatePicker, Drawer, Form, Grid, Input, InputNumber, Row, Select, Space } from 'antd';
import { DownOutlined, FilterOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  dependsOnFields,
  enumOptions,
  isMembersWidget,
  isSmallWidget,
  keysIn,
  matchOf,
  type FieldDef,
  type FilterValue,
} from '@wuye/contract/kit/resource';
import { useSystem } from '../../stores/system';
import { rangePickerPresets } from './dateRanges';
import { SmallSelect, widgetOf, type Widgets } from './fields';
import { MembersSelect, RoomField } from './roomWidgets';
import type { Filters } from './useResourceList';
import type { AnyResource } from './types';

type Values = Record<string, unknown>;

/** Drops empty filters, so the address and the call carry only what narrows the list. */
export function cleanFilters(values: Values): Filters {
  const out: Filters = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') continue;
    // an empty list, or a range missing an end
    if (Array.isArray(v) && (v.length === 0 || v.some((x) => x === undefined || x === null || x === ''))) continue;
    out[k] = typeof v === 'string' ? v.trim() || undefined : (v as FilterValue);
    if (out[k] === undefined) delete out[k];
  }
  return out;
}

const sortedText = (f: Filters) => JSON.stringify(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : 1)));
const sameFilters = (a: Filters, b: Filters) => sortedText(a) === sortedText(b);

const toRange = (v: unknown) => (Array.isArray(v) && v[0] && v[1] ? [dayjs(String(v[0])), dayjs(String(v[1]))] : undefined);
const fromRange = (v: [Dayjs, Dayjs] | null | undefined) => (v ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : undefined);

/** Fields shown in one row while folded, by screen width (the buttons take the last place). */
function useFoldedCount(): number {
  const screens = Grid.useBreakpoint();
  if (screens.xxl) return 3;
  if (screens.xl) return 2;
  return 1;
}

function FilterInput({
  field,
  values,
  testId,
  apply,
  emptied,
  custom: Custom,
  ...rest
}: {
  field: FieldDef;
  values: Values;
  testId: string;
  apply: () => void;
  /** a text filter emptied: applies at once (not while the phone's drawer is open) */
  emptied?: () => void;
  custom?: Widgets[string];
  /** what Form.Item gives its child (value, onChange, id) */
  [prop: string]: unknown;
}) {
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const w = widgetOf(field);
  const placeholder = field.placeholder ?? field.label;
  // a choice is applied once the form has taken it
  const choose = (...args: unknown[]) => {
    (rest.onChange as ((...a: unknown[]) => void) | undefined)?.(...args);
    apply();
  };
  const all = `全部${field.label.replace(/^所属/, '')}`;
  if (Custom) return <Custom data-testid={testId} {...rest} />;
  if (isSmallWidget(w))
    return (
      <SmallSelect
        widget={w}
        values={values}
        testId={testId}
        placeholder={all}
        allowClear
        style={{ width: '100%' }}
        value={rest.value as number | string | Array<number | string> | undefined}
        onChange={choose}
      />
    );
  if (isMembersWidget(w))
    return (
      <MembersSelect
        hid={values[w.membersOf] as number | undefined}
        testId={testId}
        placeholder={all}
        style={{ width: '100%' }}
        value={rest.value as number | undefined}
        onChange={choose}
      />
    );
  if (w === 'room')
    return (
      <RoomField
        testId={testId}
        placeholder={field.placeholder}
        style={{ width: '100%' }}
        value={rest.value as number | undefined}
        onChange={choose}
      />
    );
  if (matchOf(field) === 'range' || w === 'dateRange')
    return (
      <DatePicker.RangePicker
        presets={presets}
        inputReadOnly
        allowClear
        style={{ width: '100%' }}
        data-testid={testId}
        {...rest}
        onChange={choose}
      />
    );
  if (field.enum || w === 'select' || w === 'radio')
    return (
      <Select
        options={field.enum ? enumOptions(field.enum) : []}
        placeholder={`全部${field.label}`}
        allowClear
        style={{ width: '100%' }}
        data-testid={testId}
        {...rest}
        onChange={choose}
      />
    );
  if (w === 'int' || w === 'decimal')
    return <InputNumber placeholder={placeholder} style={{ width: '100%' }} data-testid={testId} {...rest} onPressEnter={apply} />;
  // text applies on Enter; emptied (cleared, or typed away) it applies at once
  const onText = (e: React.ChangeEvent<HTMLInputElement>) => {
    (rest.onChange as ((e: React.ChangeEvent<HTMLInputElement>) => void) | undefined)?.(e);
    if (e.target.value === '' && emptied) setTimeout(emptied);
  };
  return <Input placeholder={placeholder} allowClear data-testid={testId} {...rest} onChange={onText} onPressEnter={apply} />;
}

/**
 * The filter bar of a resource: the fields `in: ['filter']`, text applied on Enter or 搜索,
 * choices at once. It folds to one row (展开/收起); on a phone it waits behind a 筛选 button in
 * a drawer. Test ids `${name}-filter-${field}`, `${name}-search`, `${name}-reset`.
 */
export default function FilterBar({
  resource,
  filters,
  onSearch,
  widgets = {},
}: {
  resource: AnyResource;
  filters: Filters;
  onSearch: (f: Filters) => void;
  widgets?: Widgets;
}) {
  const { def } = resource;
  const keys = keysIn(def, 'filter');
  const [form] = Form.useForm();
  const values = (Form.useWatch([], form) as Values | undefined) ?? {};
  const [expanded, setExpanded] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const screens = Grid.useBreakpoint();
  const folded = useFoldedCount();
  const phone = screens.md === false;

  // the address may change the filters (Back, a link): the form follows; after its own search it
  // shows them already (resetting would remount the inputs and take the focus away)
  const filterText = JSON.stringify(filters);
  useEffect(() => {
    if (sameFilters(cleanFilters(form.getFieldsValue(true) as Values), filters)) return;
    form.resetFields();
    form.setFieldsValue(filters);
    // filterText stands for filters
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterText, form]);

  const search = () => {
    onSearch(cleanFilters(form.getFieldsValue(true) as Values));
    setDrawer(false);
  };
  const reset = () => {
    form.resetFields();
    onSearch({});
    setDrawer(false);
  };
  // a choice applies at once (after the form has taken it); a field depending on the changed one is cleared
  const applyChoice = (changed: string) => () => {
    for (const k of keys) if (dependsOnFields(def.fields[k]!).includes(changed)) form.setFieldValue(k, undefined);
    if (!phone) setTimeout(search);
  };

  if (keys.length === 0) return null;
  const canFold = !phone && keys.length > folded;
  const shown = (i: number) => phone || expanded || !canFold || i < folded;
  const active = Object.keys(filters).length;

  const items = keys.map((key, i) => {
    const field = def.fields[key]!;
    const range = matchOf(field) === 'range';
    return (
      <Col key={key} xs={24} md={12} xl={8} xxl={6} style={shown(i) ? undefined : { display: 'none' }}>
        <Form.Item
          name={key}
          label={field.label}
          style={{ marginBottom: 0 }}
          {...(range ? { getValueProps: (v: unknown) => ({ value: toRange(v) }), normalize: fromRange } : {})}
        >
          <FilterInput
            field={field}
            values={values}
            testId={`${def.name}-filter-${key}`}
            apply={matchOf(field) === 'like' && !field.enum ? search : applyChoice(key)}
            emptied={phone ? undefined : search}
            custom={widgets[key]}
          />
        </Form.Item>
      </Col>
    );
  });
  const buttons = (
    <Space wrap>
      <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid={`${def.name}-search`}>
        搜索
      </Button>
      <Button icon={<ReloadOutlined />} onClick={reset} data-testid={`${def.name}-reset`}>
        重置
      </Button>
      {canFold && (
        <Button type="link" onClick={() => setExpanded(!expanded)} data-testid={`${def.name}-filter-fold`}>
          {expanded ? '收起' : '展开'} {expanded ? <UpOutlined /> : <DownOutlined />}
        </Button>
      )}
    </Space>
  );
  const formBody = (
    <Form form={form} layout={phone ? 'vertical' : 'horizontal'} initialValues={filters} className="resource-filter" onFinish={search}>
      <Row gutter={[16, 12]}>
        {items}
        <Col flex="auto" style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'flex-start' }}>
          {buttons}
        </Col>
      </Row>
    </Form>
  );

  if (phone)
    return (
      <div className="resource-filter-phone">
        <Badge count={active} size="small">
          <Button icon={<FilterOutlined />} onClick={() => setDrawer(true)} data-testid={`${def.name}-filter-open`}>
            筛选
          </Button>
        </Badge>
        <Drawer title="筛选" placement="bottom" size="auto" open={drawer} onClose={() => setDrawer(false)} forceRender>
          {formBody}
        </Drawer>
      </div>
    );
  return formBody;
}
