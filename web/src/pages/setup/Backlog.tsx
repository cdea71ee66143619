import { Form, Select, Space, Tag, Button } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { BacklogItem } from '@wuye/contract/system';
import { MSG } from '@wuye/contract/messages';
import { BACKLOG_COUNT_KEY } from '../../api/backlog';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import SafeButton from '../../components/SafeButton';
import TablePage from '../../components/TablePage';
import { downloadCsv } from '../../utils/exportCsv';
import { isExternal } from '../../utils/validate';

type Status = '' | 'E' | 'Y';
interface Filters {
  status: Status;
}

const STATUS_TEXT: Record<'E' | 'Y', string> = { E: '待处理', Y: '已处理' };

/** The to-do list (/setup/backlog): list, filter by status, mark done. */
export default function Backlog() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useList('backlog_list', { status: 'E', sort: 'asc' });

  const markDone = async (row: BacklogItem) => {
    try {
      const answer = await request('backlog_done', { id: row.id });
      noticeSuccess(answer.return_msg || MSG.saved);
      list.reload();
      void queryClient.invalidateQueries({ queryKey: BACKLOG_COUNT_KEY });
    } catch {
      // the client toasted the reason
    }
  };

  const columns: TableColumnsType<BacklogItem> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    { title: '标题', dataIndex: 'title', width: 220 },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    { title: '类型', dataIndex: 'kind', width: 110 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: BacklogItem['status']) => <Tag color={s === 'Y' ? 'success' : 'warning'}>{STATUS_TEXT[s] ?? s}</Tag>,
    },
    { title: '创建时间', dataIndex: 'create_time', width: 170 },
    { title: '处理时间', dataIndex: 'done_time', width: 170, render: (v: string) => v || '-' },
    {
      title: '操作',
      key: 'op',
      fixed: 'right',
      width: 170,
      render: (_, row) => (
        <Space size={4}>
          {row.link && (
            <Button
              size="small"
              type="link"
              onClick={() => (isExternal(row.link) ? window.open(row.link, '_blank', 'noopener') : void navigate(row.link))}
            >
              去处理
            </Button>
          )}
          {row.status === 'E' && (
            <SafeButton size="small" type="primary" ghost onClick={() => void markDone(row)} data-testid={`backlog-done-${row.id}`}>
              标记完成
            </SafeButton>
          )}
        </Space>
      ),
    },
  ];

  return (
    <TablePage<BacklogItem, Filters>
      testId="backlog-page"
      list={list}
      columns={columns}
      rowKey="id"
      initialFilters={{ status: 'E' }}
      onSearch={(v) => list.setFilters({ ...list.filters, status: v.status ?? '' })}
      filters={
        <Form.Item name="status" label="状态">
          <Select<Status>
            style={{ width: 140 }}
            data-testid="backlog-status"
            options={[
              { value: '', label: '全部' },
              { value: 'E', label: '待处理' },
              { value: 'Y', label: '已处理' },
            ]}
          />
        </Form.Item>
      }
      onExport={() =>
        downloadCsv(
          '待办事项',
          [
            { title: 'ID', value: (r: BacklogItem) => r.id },
            { title: '标题', value: (r) => r.title },
            { title: '内容', value: (r) => r.content },
            { title: '类型', value: (r) => r.kind },
            { title: '状态', value: (r) => STATUS_TEXT[r.status] ?? r.status },
            { title: '创建时间', value: (r) => r.create_time },
            { title: '处理时间', value: (r) => r.done_time },
          ],
          list.items,
        )
      }
    />
  );
}
