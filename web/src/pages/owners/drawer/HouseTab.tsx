import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Space, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { SortAscendingOutlined, SortDescendingOutlined } from '@ant-design/icons';
import { resource, type FieldDef } from '@wuye/contract/kit/resource';
import { useList, type ListFilters, type ListItem, type ListMethod } from '../../../api/useList';
import { FilterBar, type Filters } from '../../../components/resource';
import { houseFields, type HouseRef } from '../shared';

/** A tab's filter, described as a resource field is (text, an enum, a small list, a date range); `in` is implied. */
export type TabFilter = Omit<FieldDef, 'in'>;

interface Props<M extends ListMethod> {
  method: M;
  house: HouseRef;
  columns: TableColumnsType<ListItem<M>>;
  /** the tab's filters by parameter name, drawn by the kit's FilterBar (test ids `${testId}-filter-${name}`) */
  filters?: Record<string, TabFilter>;
  /** the filters as the method takes them, where one is not one parameter (a date range's two days) */
  toPayload?: (filters: Filters) => Record<string, unknown>;
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
  filters,
  toPayload,
  fixed,
  testId,
  reloadKey,
  extra,
  rowKey,
}: Props<M>) {
  const [values, setValues] = useState<Filters>({});
  const [sort, setSort] = useState<'asc' | 'desc'>('asc');
  // the tab's filters as a description the kit's FilterBar draws (text on Enter, choices at once)
  const described = useMemo(
    () =>
      resource()({
        name: testId,
        label: '',
        methods: { list: method },
        roles: { read: 'any', write: 'any' },
        fields: Object.fromEntries(Object.entries(filters ?? {}).map(([k, f]) => [k, { ...f, in: ['filter'] as const }])),
      }),
    [filters, method, testId],
  );
  const payload = (v: Filters, s: 'asc' | 'desc') =>
    ({ ...fixed, ...(toPayload ? toPayload(v) : v), ...houseFields(house), sort: s }) as unknown as ListFilters<M>;
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

  return (
    <div data-testid={testId}>
      <FilterBar resource={described} filters={values} onSearch={setValues} />
      <Space wrap style={{ marginBottom: 12 }}>
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
