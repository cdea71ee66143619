import { Badge, Form, Select, Space, Tag, Button } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useInboxCount } from '../../api/inbox';
import type { TableColumnsType } from 'antd';
import { BACKLOG_KIND, type BacklogItem } from '@wuye/contract/system';
import { enumOptions } from '@wuye/contract/kit/resource';
import { useList } from '../../api/useList';
import EnumTag from '../../components/resource/EnumTag';
import SafeButton from '../../components/SafeButton';
import TablePage from '../../components/TablePage';
import { runExport } from '../../api/exportJob';
import { BACKLOG_STATUS_TEXT as STATUS_TEXT, useBacklogGo } from './useBacklogGo';

type Status = '' | 'E' | 'Y';
interface Filters {
  status: Status;
  kind: string;
}

/**
 * The to-do list (/setup/backlog; docs/product.md#to-do-list): what waits for the signed-in user,
 * fed by every area's registration; filter by status and type, 去处理 where the work is done, mark
 * done, export (a job) of the filtered items.
 */
export default function Backlog() {
  const list = useList('backlog_list', { status: 'E', kind: '', sort: 'asc' });
  const { go, markDone, detail } = useBacklogGo(() => list.reload());
  const navigate = useNavigate();
  const unread = useInboxCount(true);

  const columns: TableColumnsType<BacklogItem> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    { title: '标题', dataIndex: 'title', width: 220 },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    { title: '类型', dataIndex: 'kind', width: 90, render: (k: string) => <EnumTag enum={BACKLOG_KIND} value={k} /> },
    { title: '来源单号', dataIndex: 'source_id', width: 100, render: (v: string) => v || '-' },
    { title: '提交人', dataIndex: 'submitter_name', width: 100, render: (v: string) => v || '-' },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: BacklogItem['status']) => <Tag color={s === 'Y' ? 'success' : 'warning'}>{STATUS_TEXT[s] ?? s}</Tag>,
    },
    { title: '创建时间', dataIndex: 'create_time', width: 170 },
    {
      title: '截止时间',
      dataIndex: 'deadline',
      width: 170,
      render: (v: string, row) =>
        v ? (
          <span style={row.overdue ? { color: '#cf1322' } : undefined} data-testid={row.overdue ? `backlog-overdue-${row.id}` : undefined}>
            {v}
            {row.overdue && '（已超时）'}
          </span>
        ) : (
          '-'
        ),
    },
    { title: '处理时间', dataIndex: 'done_time', width: 170, render: (v: string) => v || '-' },
    {
      title: '操作',
      key: 'op',
      fixed: 'right',
      width: 170,
      render: (_, row) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => go(row)} data-testid={`backlog-go-${row.id}`}>
            {row.status === 'E' ? '去处理' : '查看'}
          </Button>
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
    <>
      <TablePage<BacklogItem, Filters>
        testId="backlog-page"
        list={list}
        columns={columns}
        rowKey="id"
        initialFilters={{ status: 'E', kind: '' }}
        onSearch={(v) => list.setFilters({ ...list.filters, status: v.status ?? '', kind: v.kind ?? '' })}
        filters={
          <>
            <Form.Item name="kind" label="类型">
              <Select<string>
                style={{ width: 120 }}
                data-testid="backlog-kind"
                options={[{ value: '', label: '全部' }, ...enumOptions(BACKLOG_KIND)]}
              />
            </Form.Item>
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
          </>
        }
        onExport={(v) => runExport('backlogexport', { status: v.status ?? '', kind: v.kind ?? '' })}
        toolbar={
          // the notifications the group's message settings send beside the to-dos (docs/product.md#notifications)
          <Badge count={unread} size="small" overflowCount={99}>
            <Button icon={<BellOutlined />} onClick={() => void navigate('/setup/inbox')} data-testid="backlog-inbox">
              站内消息
            </Button>
          </Badge>
        }
      />
      {detail}
    </>
  );
}
