import { useState, type ReactNode } from 'react';
import { Button, Card, Form, Space, Table } from 'antd';
import type { FormInstance, TableColumnsType, TableProps } from 'antd';
import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
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
}

/**
 * The building block of list screens: filter form, toolbar with export, antd Table and a
 * pagination of 10 a page (docs/product.md#paging). Pair it with useList().
 */
export default function TablePage<T extends object, F extends object = Record<string, unknown>>(props: TablePageProps<T, F>) {
  const { t } = useTranslation();
  const [ownForm] = Form.useForm<F>();
  const form = props.form ?? ownForm;
  const [exporting, setExporting] = useState(false);
  const { list } = props;

  const search = () => props.onSearch?.(form.getFieldsValue(true) as F);
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

  return (
    <Card className="table-page" title={props.title} data-testid={props.testId}>
      {(props.filters || props.toolbar || props.onExport) && (
        <div className="table-page-toolbar" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
          {props.filters && (
            <Form<F>
              form={form}
              layout="inline"
              initialValues={props.initialFilters}
              onFinish={search}
              style={{ flex: 1, rowGap: 8 }}
              data-testid="table-page-filters"
            >
              {props.filters}
              <Form.Item>
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
          )}
          <Space style={{ marginLeft: 'auto' }}>
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
          showTotal: (total) => t('common.total', { total }),
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
