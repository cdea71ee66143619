import { useEffect, useState, type ReactNode } from 'react';
import { Button, DatePicker, Input, Select, Space, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { SortAscendingOutlined, SortDescendingOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useList, type ListFilters, type ListItem, type ListMethod } from '../../../api/useList';
import { houseFields, type HouseRef } from '../shared';

/** One filter control of a tab: text runs on Enter (docs/product.md#owner-drawer-tabs), selects and dates on change. */
export type TabFilter =
  | { kind: 'text'; name: string; placeholder: string; width?: number }
  | {
      kind: 'select';
      name: string;
      placeholder: string;
      options: { value: string | number; label: string }[];
      width?: number;
      multiple?: boolean;
    }
  | { kind: 'dateRange'; names: [string, string] };

interface Props<M extends ListMethod> {
  method: M;
  house: HouseRef;
  columns: TableColumnsType<ListItem<M>>;
  filters?: TabFilter[];
  /** fixed fields sent with every load (e.g. io_type) */
  fixed?: Record<string, unknown>;
  testId: string;
  /** rows whose id is not unique (a sign-up per person of one activity) need their own key */
  rowKey?: (row: ListItem<M>) => string;
  /** bumps to reload (after a delete) */
  reloadKey?: number;
  extra?: ReactNode;
}

/** A plain column shows — for an empty value instead of a blank cell. */
function dashWhenEmpty<T>(col: TableColumnsType<T>[number]): TableColumnsType<T>[number] {
  if (col.render || !('dataIndex' in col)) return col;
  return { ...col, render: (v: unknown) => (v === '' || v === null || v === undefined ? '—' : (v as ReactNode)) };
}

/**
 * A drawer tab's list: the selected room's ids, filters, 10 a page, asc/desc by id.
 * Any filter change or a room switch goes back to page 1.
 */
export default function HouseTab<M extends ListMethod>({
  method,
  house,
  columns,
  filters = [],
  fixed,
  testId,
  reloadKey,
  extra,
  rowKey,
}: Props<M>) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [sort, setSort] = useState<'asc' | 'desc'>('asc');
  const payload = (v: Record<string, unknown>, s: 'asc' | 'desc') =>
    ({ ...fixed, ...v, ...houseFields(house), sort: s }) as unknown as ListFilters<M>;
  const list = useList(method, payload(values, sort));
  const { setFilters, reload } = list;

  useEffect(() => {
    setFilters(payload(values, sort));
    // the room and the applied filters decide the query; payload is rebuilt from them
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [house.rid, house.bid, house.tid, house.hid, values, sort, setFilters]);
  useEffect(() => {
    if (reloadKey) reload();
  }, [reloadKey, reload]);

  const apply = (patch: Record<string, unknown>) => setValues((v) => ({ ...v, ...patch }));

  return (
    <div data-testid={testId}>
      <Space wrap style={{ marginBottom: 12 }}>
        {filters.map((f) => {
          if (f.kind === 'text') {
            return (
              <Input
                key={f.name}
                allowClear
                placeholder={f.placeholder}
                style={{ width: f.width ?? 180 }}
                value={draft[f.name] ?? ''}
                onChange={(e) => {
                  setDraft((d) => ({ ...d, [f.name]: e.target.value }));
                  if (!e.target.value) apply({ [f.name]: undefined });
                }}
                onPressEnter={() => apply({ [f.name]: draft[f.name]?.trim() || undefined })}
                data-testid={`${testId}-${f.name}`}
              />
            );
          }
          if (f.kind === 'select') {
            return (
              <Select
                key={f.name}
                allowClear
                placeholder={f.placeholder}
                style={{ width: f.width ?? 180 }}
                options={f.options}
                mode={f.multiple ? 'multiple' : undefined}
                maxTagCount="responsive"
                onChange={(v: unknown) => apply({ [f.name]: Array.isArray(v) ? (v.length ? v : undefined) : (v ?? undefined) })}
                data-testid={`${testId}-${f.name}`}
              />
            );
          }
          return (
            <DatePicker.RangePicker
              key={f.names.join('-')}
              format="YYYY-MM-DD"
              inputReadOnly
              allowClear
              data-testid={`${testId}-dates`}
              onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
                apply({
                  [f.names[0]]: range?.[0]?.format('YYYY-MM-DD'),
                  [f.names[1]]: range?.[1]?.format('YYYY-MM-DD'),
                })
              }
            />
          );
        })}
        {filters.some((f) => f.kind === 'text') && (
          <Button
            type="primary"
            data-testid={`${testId}-search`}
            onClick={() => apply(Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.trim() || undefined])))}
          >
            查询
          </Button>
        )}
        <Button
          icon={sort === 'asc' ? <SortAscendingOutlined /> : <SortDescendingOutlined />}
          data-testid={`${testId}-sort`}
          onClick={() => setSort((s) => (s === 'asc' ? 'desc' : 'asc'))}
        >
          {sort === 'asc' ? '按编号升序' : '按编号降序'}
        </Button>
        {extra}
      </Space>
      <Table<ListItem<M>>
        size="small"
        rowKey={rowKey ?? ((r) => String((r as { id?: number }).id ?? JSON.stringify(r)))}
        columns={columns.map(dashWhenEmpty)}
        dataSource={list.items}
        loading={list.loading}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: list.page,
          pageSize: list.limit,
          total: list.total,
          showSizeChanger: false,
          showTotal: (t) => `共 ${t} 条`,
          onChange: (p) => list.setPage(p),
        }}
      />
    </div>
  );
}
