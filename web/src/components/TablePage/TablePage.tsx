import { useState, type ReactNode } from 'react';
import { Badge, Button, Card, Drawer, Form, Grid, Space, Table } from 'antd';
import type { FormInstance, TableColumnsType, TableProps } from 'antd';
import { DownloadOutlined, FilterOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@wuye/contract/codes';

/** What TablePage needs of a list (useList gives all of it). */
export interface TablePageList<T> {
  items: T[];
  total: number;
  loading: boolean;
  page: number;
  limit: number;
  setPage: (page: number, limit?: number) => void;
  reload?: () => void;
}

export interface TablePageProps<T, F extends object> {
  list: TablePageList<T>;
  columns: TableColumnsType<T>;
  rowKey: TableProps<T>['rowKey'];
  /** filter fields (Form.Item elements); search gives their values to onSearch */
  filters?: ReactNode;
  form?: FormInstance<F>;
  initialFilters?: Partial<F>;
  onSearch?: (values: F) => void;
  /** buttons on the right of the toolbar (add, batch actions) */
  toolbar?: ReactNode;
  /** shows the export button; gets the current filter values */
  onExport?: (values: F) => void | Promise<void>;
  title?: ReactNode;
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'rowKey' | 'loading' | 'pagination'>;
  testId?: string;
  /** the pager's total text, when the list's total is not exact (共 10000+ 条) */
  totalText?: (total: number) => ReactNode;
}

/** How many filters hold something other than what the page opened with (the 筛选 button's badge). */
export function changedFilterCount(values: object, initial: object = {}): number {
  const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
  const init = initial as Record<string, unknown>;
  return Object.entries(values).filter(([k, v]) => !empty(v) && JSON.stringify(v) !== JSON.stringify(init[k])).length;
}

/**
 * The building block of list screens: filter form, toolbar with export, antd Table and a
 * pagination of 10 a page (docs/product.md#paging). Pair it with useList(). On a phone the
 * filters wait behind a 筛选 button in a bottom drawer, as the resource lists' do
 * (docs/architecture.md#table-page); the form stays mounted there, so its values are always at hand.
 */
export default function TablePage<T extends object, F extends object = Record<string, unknown>>(props: TablePageProps<T, F>) {
  const { t } = useTranslation();
  const [ownForm] = Form.useForm<F>();
  const form = props.form ?? ownForm;
  const [exporting, setExporting] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const [active, setActive] = useState(() => changedFilterCount(props.initialFilters ?? {}, props.initialFilters));
  const phone = Grid.useBreakpoint().md === false;
  const { list } = props;

  const search = () => {
    const values = form.getFieldsValue(true) as F;
    setActive(changedFilterCount(values, props.initialFilters));
    setDrawer(false);
    props.onSearch?.(values);
  };
  const reset = () => {
    form.resetFields();
    search();
  };
  const doExport = async () => {
    if (!props.onExport) return;
    setExporting(true);
    try {
      await props.onExport(form.getFieldsValue(true) as F);
    } finally {
      setExporting(false);
    }
  };

  const filterForm = props.filters && (
    <Form<F>
      form={form}
      layout={phone ? 'vertical' : 'inline'}
      initialValues={props.initialFilters}
      onFinish={search}
      style={phone ? undefined : { flex: 1, rowGap: 8 }}
      data-testid="table-page-filters"
    >
      {props.filters}
      <Form.Item style={phone ? { marginBottom: 0 } : undefined}>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="table-page-search">
            {t('common.search')}
          </Button>
          <Button onClick={reset} icon={<ReloadOutlined />}>
            {t('common.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );

  return (
    <Card className="table-page" title={props.title} data-testid={props.testId}>
      {(props.filters || props.toolbar || props.onExport) && (
        <div className="table-page-toolbar" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
          {props.filters && !phone && filterForm}
          {props.filters && phone && (
            <>
              <Badge count={active} size="small">
                <Button icon={<FilterOutlined />} onClick={() => setDrawer(true)} data-testid="table-page-filter-open">
                  筛选
                </Button>
              </Badge>
              <Drawer title="筛选" placement="bottom" size="auto" open={drawer} onClose={() => setDrawer(false)} forceRender>
                {filterForm}
              </Drawer>
            </>
          )}
          <Space wrap style={{ marginLeft: 'auto' }}>
            {props.toolbar}
            {props.onExport && (
              <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="table-page-export">
                {t('common.export')}
              </Button>
            )}
          </Space>
        </div>
      )}
      <Table<T>
        size="medium"
        scroll={{ x: 'max-content' }}
        {...props.tableProps}
        columns={props.columns}
        dataSource={list.items}
        rowKey={props.rowKey}
        loading={list.loading}
        pagination={{
          current: list.page,
          pageSize: list.limit,
          total: list.total,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 30, 50],
          showTotal: (total) => props.totalText?.(total) ?? t('common.total', { total }),
          onChange: (page, size) => {
            list.setPage(size !== list.limit ? 1 : page, size);
            window.scrollTo({ top: 0, behavior: 'smooth' });
          },
        }}
      />
    </Card>
  );
}

export const TABLE_PAGE_SIZE = LIMITS.pageSize;
