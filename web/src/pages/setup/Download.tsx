import { useEffect } from 'react';
import { Button, Progress, Space, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { EXPORT_KEEP_DAYS, jobInProgress, type ExportItem } from '@wuye/contract/jobs';
import { LIMITS } from '@wuye/contract/codes';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { JOB_STATUS_COLOR } from '../../api/useJob';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { saveFile } from '../../utils/files';

const inProgress = (e: ExportItem) => jobInProgress(e.status);

/** 12345 bytes as 12.1 KB */
export function fileSize(bytes: number): string {
  if (bytes <= 0) return '-';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The download centre (/setup/download): the account's exports, their progress, download again, delete. */
export default function Download() {
  const list = useList('exportlist', { sort: 'desc' });
  const confirmDelete = useConfirmDelete();
  const actionFixed = useActionFixed();
  const running = list.items.some(inProgress);
  const { reload } = list;

  // while an export is being written, its row follows it (every second, docs/product.md#constants)
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(reload, LIMITS.payPollMs);
    return () => clearInterval(timer);
  }, [running, reload]);

  const download = (row: ExportItem) =>
    void call('exportfile', { id: row.id })
      .then(saveFile)
      .catch(() => undefined);
  const remove = (row: ExportItem) =>
    confirmDelete(async () => {
      const answer = await request('exportdel', { id: row.id });
      noticeSuccess(answer.return_msg);
      reload();
    });

  const columns: TableColumnsType<ExportItem> = [
    { title: '文件名', dataIndex: 'filename', width: 200 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 180,
      render: (_: unknown, row) =>
        inProgress(row) ? (
          <Progress percent={row.percent} size="small" status="active" style={{ width: 160 }} />
        ) : row.status === 'failed' ? (
          <Tooltip title={row.error}>
            <Tag color="error">{row.status_ch}</Tag>
          </Tooltip>
        ) : (
          <Tag color={row.downloadable === 'Y' ? JOB_STATUS_COLOR[row.status] : 'default'}>{row.status_ch}</Tag>
        ),
    },
    {
      title: '行数',
      dataIndex: 'rows',
      width: 90,
      align: 'right',
      render: (n: number, row) => (row.downloadable === 'Y' ? n.toLocaleString('zh-CN') : '-'),
    },
    { title: '大小', dataIndex: 'size', width: 90, align: 'right', render: (n: number) => fileSize(n) },
    { title: '提交时间', dataIndex: 'create_time', width: 170 },
    { title: '完成时间', dataIndex: 'finish_time', width: 170, render: (v: string) => v || '-' },
    { title: '过期时间', dataIndex: 'expire_time', width: 170, render: (v: string) => v || '-' },
    {
      title: '操作',
      key: 'op',
      fixed: actionFixed,
      width: 140,
      render: (_: unknown, row) => (
        <Space size={4}>
          {row.downloadable === 'Y' && (
            <Button
              size="small"
              type="link"
              icon={<DownloadOutlined />}
              onClick={() => download(row)}
              data-testid={`export-download-${row.id}`}
            >
              下载
            </Button>
          )}
          {!inProgress(row) && (
            <Button size="small" type="link" danger onClick={() => remove(row)} data-testid={`export-delete-${row.id}`}>
              删除
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <TablePage<ExportItem>
      testId="download-page"
      title={
        <Space>
          下载中心
          <span style={{ fontWeight: 'normal', fontSize: 12, color: '#999' }}>各页面的导出在这里生成，文件保留 {EXPORT_KEEP_DAYS} 天</span>
        </Space>
      }
      list={list}
      columns={columns}
      rowKey="id"
    />
  );
}
