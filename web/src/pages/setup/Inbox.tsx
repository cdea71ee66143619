import { Badge, Button, Form, Select, Space } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { NOTIFY_EVENT, type InboxItem } from '@wuye/contract/setup/notify';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { INBOX_COUNT_KEY } from '../../api/inbox';
import { useList } from '../../api/useList';
import EnumTag from '../../components/resource/EnumTag';
import SafeButton from '../../components/SafeButton';
import TablePage from '../../components/TablePage';

type Unread = '' | 'Y' | 'N';

/**
 * 站内消息 (/setup/inbox; docs/product.md#notifications): what the group's message settings sent the
 * signed-in staff member in this community, newest first; 查看 opens the record's page and marks the
 * message read; 全部已读 clears the rest.
 */
export default function Inbox() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useList('inboxlist', { unread: '', sort: 'desc' });
  const unread = list.answer?.unread ?? 0;

  // the client shows a refusal; the list and the count are read again either way
  const markRead = async (payload: { ids?: number[]; all?: 'Y' }, quiet = false) => {
    try {
      const answer = await request('inboxread', payload);
      if (!quiet) noticeSuccess(answer.return_msg);
    } catch {
      // shown by the client
    }
    list.reload();
    await queryClient.invalidateQueries({ queryKey: INBOX_COUNT_KEY });
  };

  const open = async (row: InboxItem) => {
    if (!row.read) await markRead({ ids: [row.id] }, true);
    if (row.link) void navigate(row.link);
  };

  const columns: TableColumnsType<InboxItem> = [
    {
      title: '',
      key: 'dot',
      width: 36,
      render: (_, row) => (row.read ? null : <Badge status="processing" data-testid={`inbox-unread-${row.id}`} />),
    },
    { title: '事件', dataIndex: 'event', width: 100, render: (e: string) => <EnumTag enum={NOTIFY_EVENT} value={e} /> },
    {
      title: '标题',
      dataIndex: 'title',
      width: 240,
      render: (t: string, row) => <span style={row.read ? undefined : { fontWeight: 600 }}>{t}</span>,
    },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    { title: '时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      fixed: 'right',
      width: 150,
      render: (_, row) => (
        <Space size={4}>
          {row.link && (
            <Button size="small" type="link" onClick={() => void open(row)} data-testid={`inbox-open-${row.id}`}>
              查看
            </Button>
          )}
          {!row.read && (
            <SafeButton size="small" onClick={() => void markRead({ ids: [row.id] })} data-testid={`inbox-read-${row.id}`}>
              标为已读
            </SafeButton>
          )}
        </Space>
      ),
    },
  ];

  return (
    <TablePage<InboxItem, { unread: Unread }>
      testId="inbox-page"
      title={`站内消息（${unread} 条未读）`}
      list={list}
      columns={columns}
      rowKey="id"
      tableProps={{ scroll: { x: 1000 } }}
      initialFilters={{ unread: '' }}
      onSearch={(v) => list.setFilters({ ...list.filters, unread: v.unread ?? '' })}
      filters={
        <Form.Item name="unread" label="状态">
          <Select<Unread>
            style={{ width: 120 }}
            data-testid="inbox-unread"
            options={[
              { value: '', label: '全部' },
              { value: 'Y', label: '未读' },
              { value: 'N', label: '已读' },
            ]}
          />
        </Form.Item>
      }
      toolbar={
        <SafeButton disabled={unread === 0} onClick={() => void markRead({ all: 'Y' })} data-testid="inbox-read-all">
          全部标为已读
        </SafeButton>
      }
    />
  );
}
