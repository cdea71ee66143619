import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Card, Checkbox, Dropdown, Form, Modal, Popover, Space, Table, Tooltip, Typography } from 'antd';
import type { TableColumnType } from 'antd';
import { ColumnHeightOutlined, DownloadOutlined, PlusOutlined, PrinterOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { keysIn, type ValueEnum } from '@wuye/contract/kit/resource';
import { runExport, type ExportMethod } from '../../api/exportJob';
import { moneyColumn } from '../Money';
import { useActionFixed } from '../TablePage/useActionFixed';
import { useUser } from '../../stores/user';
import './resource.css';
import EnumTag from './EnumTag';
import FilterBar from './FilterBar';
import { ResourceFormItems, type Widgets } from './fields';
import { useCanWrite } from './roles';
import { usePagination } from './pagination';
import { useTableSettings } from './tableSettings';
import { branchIds, nestRows } from './tree';
import type { AnyResource } from './types';
import { useResourceDelete } from './useResourceDelete';
import { useResourceForm, type ResourceForm, type ResourceFormOptions } from './useResourceForm';
import { useResourceList, type ResourceList, type ResourceListOptions } from './useResourceList';

type RowBase = { id: number } & object;
type Column<Row> = TableColumnType<Row> & { key: string };

export interface ResourcePageProps<Row extends RowBase> {
  resource: AnyResource<Row>;
  /** the card's title (default: the resource's label + 管理) */
  title?: ReactNode;
  /** list options: permanent filters, keeping the filters in the address */
  listOptions?: ResourceListOptions;
  /** form options: starting values, payload and row conversions */
  formOptions?: ResourceFormOptions;
  /** custom form inputs by field name */
  widgets?: Widgets;
  /** custom filter inputs by field name */
  filterWidgets?: Widgets;
  /** overrides of the generated columns by key (render, width, title…) */
  columns?: Partial<Record<string, Partial<TableColumnType<Row>>>>;
  /** columns added after the generated ones */
  extraColumns?: Array<Column<Row>>;
  /** row actions after 编辑 and 删除 */
  rowActions?: (row: Row, list: ResourceList<Row>) => ReactNode;
  /** buttons beside 新增 (write buttons: shown to the write roles only) */
  toolbar?: ReactNode;
  /** batch actions beside 批量删除 for the selected rows */
  batchActions?: (rows: Row[], clear: () => void) => ReactNode;
  /** the ID column (default shown) */
  idColumn?: boolean;
  /**
   * the rows are a tree by this field (parent_id): shown nested, every branch open, the whole list
   * on one page (give listOptions.pageSize); a row whose parent is not in the list shows at the top
   */
  tree?: string;
  /** the page's own form (useResourceForm), when it opens the form itself (a route, 新增下级) */
  form?: ResourceForm<Row>;
  /** figures of the whole filtered list above the table (the sums a list answers beside its rows) */
  summary?: (list: ResourceList<Row>) => ReactNode;
  /** rows 编辑 and 删除 are offered on (default all): a voided record is kept as it is */
  rowWritable?: (row: Row) => boolean;
  /** rows 删除 is offered on (default: rowWritable's): a record the server keeps once it has moved on */
  rowDeletable?: (row: Row) => boolean;
}

const tagOf = (e: ValueEnum) => (v: string) => <EnumTag enum={e} value={v} />;

/** The columns a description makes: ID, the fields shown in the table, then the read-only columns. */
function useColumns<Row extends RowBase>(resource: AnyResource<Row>, props: ResourcePageProps<Row>): Array<Column<Row>> {
  const { def } = resource;
  return useMemo(() => {
    const cols: Array<Column<Row>> = [];
    if (props.idColumn !== false) cols.push({ key: 'id', title: 'ID', dataIndex: 'id', width: 80 });
    for (const key of keysIn(def, 'table')) {
      const f = def.fields[key]!;
      const col: Column<Row> = {
        key,
        title: f.label,
        dataIndex: key,
        width: f.width,
        fixed: f.fixed ? 'left' : undefined,
        ellipsis: f.widget === 'textarea',
        render: f.enum ? tagOf(f.enum) : undefined,
      };
      // money reads as on every page: 金额（元）, right-aligned, grouped
      cols.push(f.widget === 'money' ? { ...col, ...moneyColumn<Row>(f.label, key, { width: f.width, fixed: col.fixed }), key } : col);
    }
    for (const c of def.columns ?? []) {
      if (c.in && !c.in.includes('table')) continue;
      cols.push({
        key: c.key,
        title: c.label,
        dataIndex: c.key,
        width: c.width,
        fixed: c.fixed ? 'left' : undefined,
        render: c.enum ? tagOf(c.enum) : undefined,
      });
    }
    const merged = cols.map((c) => ({ ...c, ...props.columns?.[c.key] }) as Column<Row>);
    // key columns stay visible at the left of a wide table: the fixed ones first, with the ID before them
    const fixed = merged.filter((c) => c.fixed === 'left');
    if (fixed.length === 0) return [...merged, ...(props.extraColumns ?? [])];
    const id = merged.filter((c) => c.key === 'id').map((c) => ({ ...c, fixed: 'left' as const }));
    const rest = merged.filter((c) => c.key !== 'id' && c.fixed !== 'left');
    return [...id, ...fixed, ...rest, ...(props.extraColumns ?? [])];
  }, [def, props.columns, props.extraColumns, props.idColumn]);
}

/**
 * The page of a resource from its description: filter bar, table with enum tags, add and edit
 * (modal, or the form's own routes), the delete confirmation (docs/product.md#delete-confirmation), export as a job, 10 a page,
 * row selection with batch actions, column settings kept per user, density, refresh and print.
 * Write buttons show only to the resource's write roles. Everything is built from hooks a custom
 * page can use alone (useResourceList, useResourceForm, useResourceDelete, useSmallList).
 */
export default function ResourcePage<Row extends RowBase>(props: ResourcePageProps<Row>) {
  const { resource } = props;
  const { def } = resource;
  const { t } = useTranslation();
  const list = useResourceList(resource, props.listOptions);
  const canWrite = useCanWrite(def.roles.write);
  const actionFixed = useActionFixed();
  const [selected, setSelected] = useState<Row[]>([]);
  const clear = useCallback(() => setSelected([]), []);
  const onDeleted = useCallback((ids: number[]) => setSelected((s) => s.filter((r) => !ids.includes(r.id))), []);
  const remove = useResourceDelete(resource, onDeleted);
  const filterDefaults = useCallback(() => {
    // a new row starts in what the list is narrowed to (the building chosen in the filter)
    const formKeys = keysIn(def, 'form');
    // (an id read back from the address is its digits)
    const ids = Object.entries(list.filters).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v] as const);
    return Object.fromEntries(ids.filter(([k, v]) => formKeys.includes(k) && typeof v === 'number'));
  }, [def, list.filters]);
  const ownForm = useResourceForm(resource, { defaults: filterDefaults, ...props.formOptions });
  const form = props.form ?? ownForm;
  // a tree: rows nested under their parents, every branch open until the user folds one
  const rows = useMemo(() => (props.tree ? nestRows(list.items, props.tree) : list.items), [list.items, props.tree]);
  const [folded, setFolded] = useState<number[]>([]);
  const expandable = useMemo(
    () =>
      props.tree
        ? {
            expandedRowKeys: branchIds(rows).filter((id) => !folded.includes(id)),
            onExpand: (open: boolean, row: Row) => setFolded((f) => (open ? f.filter((id) => id !== row.id) : [...f, row.id])),
          }
        : undefined,
    [props.tree, rows, folded],
  );
  const [settings, setSettings] = useTableSettings(def.name);
  const [exporting, setExporting] = useState(false);
  const paging = usePagination(list);

  const generated = useColumns(resource, props);
  // an export is a community's job (its download centre): the group side has none
  const side = useUser((u) => u.side);
  const canExport = !!def.methods.export && side !== 'group';
  const canEdit = canWrite && !!def.methods.edit;
  const canDelete = canWrite && !!def.methods.del;
  const opColumn: Column<Row> | null =
    canEdit || canDelete || props.rowActions
      ? {
          key: 'op',
          title: t('common.operation'),
          fixed: actionFixed,
          className: 'resource-op-column',
          width: 150,
          render: (_: unknown, row: Row) => (
            <Space size={4}>
              {canEdit && (props.rowWritable?.(row) ?? true) && (
                <Button size="small" onClick={() => form.open(row)} data-testid={`${def.name}-edit-${row.id}`}>
                  编辑
                </Button>
              )}
              {canDelete && ((props.rowDeletable ?? props.rowWritable)?.(row) ?? true) && (
                <Button size="small" danger onClick={() => remove(row.id)} data-testid={`${def.name}-del-${row.id}`}>
                  删除
                </Button>
              )}
              {props.rowActions?.(row, list)}
            </Space>
          ),
        }
      : null;
  // printing: the data columns alone (no selection, no row actions), nothing sticky, the page's rows
  const [printing, setPrinting] = useState(false);
  // on a phone nothing sticks: fixed columns would cover most of the screen
  const phone = actionFixed === undefined;
  const visible = generated
    .filter((c) => !settings.hidden.includes(c.key))
    .map((c) => ((phone || printing) && c.fixed ? { ...c, fixed: undefined } : c));
  const columns = opColumn && !printing ? [...visible, opColumn] : visible;

  const doExport = async () => {
    if (!def.methods.export) return;
    setExporting(true);
    try {
      await runExport(def.methods.export as ExportMethod, list.payload as never);
    } finally {
      setExporting(false);
    }
  };
  // the table drawn for paper first, then the browser's print; afterwards the screen's table again
  useEffect(() => {
    if (!printing) return;
    document.body.classList.add('printing-list');
    const done = () => {
      document.body.classList.remove('printing-list');
      setPrinting(false);
    };
    window.addEventListener('afterprint', done, { once: true });
    window.print();
    return () => {
      window.removeEventListener('afterprint', done);
      document.body.classList.remove('printing-list');
    };
  }, [printing]);

  const batch = canDelete || !!props.batchActions;
  const columnSettings = (
    <div className="resource-column-settings" data-testid={`${def.name}-columns`}>
      {generated.map((c) => (
        <div key={c.key}>
          <Checkbox
            checked={!settings.hidden.includes(c.key)}
            onChange={(e) =>
              setSettings({ hidden: e.target.checked ? settings.hidden.filter((k) => k !== c.key) : [...settings.hidden, c.key] })
            }
          >
            {c.title as ReactNode}
          </Checkbox>
        </div>
      ))}
      <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setSettings({ hidden: [] })}>
        重置
      </Button>
    </div>
  );

  return (
    <Card
      className="resource-page"
      variant="borderless"
      title={props.title ?? `${def.label}管理`}
      data-testid={`${def.name}-page`}
      extra={
        canWrite && (
          <Space wrap>
            {props.toolbar}
            {def.methods.add && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => form.open()} data-testid={`${def.name}-add`}>
                新增{def.label}
              </Button>
            )}
          </Space>
        )
      }
    >
      <FilterBar resource={resource} filters={list.filters} onSearch={list.setFilters} widgets={props.filterWidgets} />
      {props.summary?.(list)}
      <div className="resource-toolbar">
        <Space wrap className="resource-batch">
          {batch && selected.length > 0 && (
            <>
              <Typography.Text data-testid={`${def.name}-selected`}>已选 {selected.length} 项</Typography.Text>
              {canDelete && (
                <Button size="small" danger onClick={() => remove(selected.map((r) => r.id))} data-testid={`${def.name}-batch-del`}>
                  批量删除
                </Button>
              )}
              {props.batchActions?.(selected, clear)}
              <Button size="small" type="link" onClick={clear}>
                取消选择
              </Button>
            </>
          )}
        </Space>
        <Space size={4} className="resource-tools">
          {canExport && (
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid={`${def.name}-export`}>
              {t('common.export')}
            </Button>
          )}
          <Tooltip title="刷新">
            <Button type="text" icon={<ReloadOutlined />} onClick={list.reload} aria-label="刷新" data-testid={`${def.name}-refresh`} />
          </Tooltip>
          <Dropdown
            trigger={['click']}
            menu={{
              selectable: true,
              selectedKeys: [String(settings.size)],
              items: [
                { key: 'large', label: '宽松' },
                { key: 'medium', label: '中等' },
                { key: 'small', label: '紧凑' },
              ],
              onClick: ({ key }) => setSettings({ size: key as 'large' | 'medium' | 'small' }),
            }}
          >
            <Tooltip title="密度">
              <Button type="text" icon={<ColumnHeightOutlined />} aria-label="密度" data-testid={`${def.name}-density`} />
            </Tooltip>
          </Dropdown>
          <Popover trigger="click" placement="bottomRight" title="列设置" content={columnSettings}>
            <Tooltip title="列设置">
              <Button type="text" icon={<SettingOutlined />} aria-label="列设置" data-testid={`${def.name}-column-settings`} />
            </Tooltip>
          </Popover>
          <Tooltip title="打印">
            <Button
              type="text"
              icon={<PrinterOutlined />}
              onClick={() => setPrinting(true)}
              aria-label="打印"
              data-testid={`${def.name}-print`}
            />
          </Tooltip>
        </Space>
      </div>
      <div className="resource-print-area">
        <h2 className="resource-print-title">{props.title ?? `${def.label}管理`}</h2>
        <Table<Row>
          rowKey="id"
          size={settings.size}
          scroll={{ x: 'max-content' }}
          loading={list.loading}
          dataSource={rows}
          columns={columns}
          expandable={expandable}
          data-testid={`${def.name}-table`}
          rowSelection={
            batch && !printing
              ? {
                  selectedRowKeys: selected.map((r) => r.id),
                  onChange: (_keys, rows) => setSelected(rows),
                  preserveSelectedRowKeys: true,
                  fixed: !phone && generated.some((c) => c.fixed === 'left'),
                }
              : undefined
          }
          pagination={printing || (props.tree && list.total <= list.limit) ? false : paging}
        />
      </div>
      {typeof def.form !== 'object' && (
        <Modal {...form.modalProps} modalRender={(node) => <div data-testid={`${def.name}-form`}>{node}</div>}>
          <Form {...form.formProps}>
            <ResourceFormItems
              resource={resource}
              form={form.form}
              widgets={props.widgets}
              editing={form.editing !== 'new'}
              row={form.editing && form.editing !== 'new' ? (form.editing as Record<string, unknown>) : undefined}
            />
          </Form>
        </Modal>
      )}
    </Card>
  );
}
