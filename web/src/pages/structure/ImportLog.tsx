import { Badge, Button, Table } from 'antd';
import type { ImportLogItem } from '@wuye/contract';
import { call } from '../../api/client';
import { useList } from '../../api/useList';
import ImportDeleteButton from '../../components/ImportDeleteButton';
import { PageCard, saveFile, useCanWrite } from './shared';
import { usePagination } from '../../components/resource';

const BADGE: Record<ImportLogItem['status'], 'default' | 'processing' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** importlog: the community's room imports. */
export default function ImportLog() {
  const list = useList('importloglist', { sort: 'desc' });
  const canWrite = useCanWrite();
  const paging = usePagination(list);
  return (
    <PageCard title="导入记录" extra={<Button onClick={list.reload}>刷新</Button>}>
      <Table<ImportLogItem>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={paging}
        data-testid="importlog-table"
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: '文件', dataIndex: 'filename', ellipsis: true },
          {
            title: '状态',
            dataIndex: 'status_ch',
            width: 120,
            render: (t: string, row) => <Badge status={row.error_count ? 'error' : BADGE[row.status]} text={t} />,
          },
          { title: '行数', dataIndex: 'total', width: 80 },
          { title: '新建楼栋', dataIndex: 'created_buildings', width: 90 },
          { title: '新建单元', dataIndex: 'created_units', width: 90 },
          { title: '新建房屋', dataIndex: 'created_rooms', width: 90 },
          { title: '跳过已有', dataIndex: 'skipped_rooms', width: 90 },
          { title: '错误行', dataIndex: 'error_count', width: 80 },
          { title: '操作人', dataIndex: 'create_user', width: 100 },
          { title: '导入时间', dataIndex: 'create_time', width: 170 },
          {
            title: '操作',
            key: 'op',
            width: 170,
            render: (_: unknown, row: ImportLogItem) => (
              <>
                {row.error_count > 0 ? (
                  <Button
                    size="small"
                    onClick={() =>
                      void call('roomimporterrors', { job_id: row.id })
                        .then(saveFile)
                        .catch(() => undefined)
                    }
                  >
                    错误报告
                  </Button>
                ) : row.error ? (
                  <span title={row.error}>失败原因</span>
                ) : null}
                {canWrite && <ImportDeleteButton id={row.id} status={row.status} onDeleted={list.reload} />}
              </>
            ),
          },
        ]}
      />
    </PageCard>
  );
}
