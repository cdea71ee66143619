import { App, Button, DatePicker, Descriptions, Form, Grid, Input, Select, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { PushpinFilled } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { NOTICE_STATUS, NOTICE_TYPE, NOTICE_WRITERS, type NoticeItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, useCanWrite } from '../../components/resource';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import './notices.css';

interface Filters {
  title?: string;
  type?: string;
  status?: string;
  dates?: [Dayjs, Dayjs] | null;
}

const toFilters = (v: Filters) => ({
  title: v.title || undefined,
  type: (v.type || undefined) as never,
  status: (v.status || undefined) as never,
  date_from: v.dates?.[0]?.format('YYYY-MM-DD'),
  date_to: v.dates?.[1]?.format('YYYY-MM-DD'),
});

/**
 * 通知公告 (/steward/notices; docs/product.md#notices): pinned first; filters by title, type,
 * state and publication days; each row's reads of the households reached; the actions its state
 * allows: edit, publish (confirming the households counted), withdraw, copy, pin, delete a draft,
 * and the read receipts.
 */
export default function NoticeList() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const list = useList('noticelist', {});
  const canWrite = useCanWrite(NOTICE_WRITERS);
  const confirmDelete = useConfirmDelete();
  const phone = Grid.useBreakpoint().md === false;
  const [form] = Form.useForm<Filters>();

  const publish = async (n: NoticeItem) => {
    const reach = await call('noticepreview', { id: n.id });
    modal.confirm({
      title: n.send_time ? `定时发布“${n.title}”` : `发布“${n.title}”`,
      width: 460,
      content: (
        <div data-testid="notice-publish-reach">
          <Descriptions size="small" column={1} bordered style={{ marginTop: 8 }}>
            <Descriptions.Item label="范围">{n.scope_ch}</Descriptions.Item>
            <Descriptions.Item label="范围内户数">
              <Typography.Text strong data-testid="publish-households">
                {reach.households} 户
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="App/微信可达">{reach.app} 户</Descriptions.Item>
            <Descriptions.Item label="仅短信可达">
              {reach.sms_only} 户{reach.unreached > 0 ? `（未选短信渠道：${reach.unreached} 户收不到推送）` : ''}
            </Descriptions.Item>
            {n.send_time ? <Descriptions.Item label="定时">{n.send_time.slice(0, 16)}</Descriptions.Item> : null}
          </Descriptions>
          {reach.households === 0 && <Typography.Text type="danger">范围内没有住户，不能发布</Typography.Text>}
        </div>
      ),
      okText: n.send_time ? '定时发布' : '确认发布',
      okButtonProps: { disabled: reach.households === 0, 'data-testid': 'notice-publish-ok' } as never,
      onOk: async () => {
        const answer = await request('noticepublish', { id: n.id, confirm_households: reach.households });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });
  };
  const withdraw = (n: NoticeItem) =>
    modal.confirm({
      title: `撤回“${n.title}”？`,
      content: '撤回后住户端不再显示，阅读记录保留；撤回后不能再发布，如需重新发布请复制。',
      okButtonProps: { danger: true, 'data-testid': 'notice-withdraw-ok' } as never,
      onOk: async () => {
        const answer = await request('noticewithdraw', { id: n.id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });
  const copy = async (n: NoticeItem) => {
    const answer = await request('noticecopy', { id: n.id });
    noticeSuccess(answer.return_msg);
    void navigate(`/steward/noticesedit?id=${answer.data.id}`);
  };
  const pin = async (n: NoticeItem) => {
    const answer = await request('noticepin', { id: n.id, pinned: n.pinned === 'Y' ? 'N' : 'Y' });
    noticeSuccess(answer.return_msg);
    list.reload();
  };
  const del = (n: NoticeItem) =>
    confirmDelete(async () => {
      const answer = await request('noticedel', { id: n.id });
      noticeSuccess(answer.return_msg);
      list.reload();
    });

  const columns: TableColumnsType<NoticeItem> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    {
      title: '标题',
      key: 'title',
      width: 220,
      render: (_, n) => (
        <span data-testid={`notice-title-${n.id}`}>
          {n.pinned === 'Y' && <PushpinFilled style={{ color: '#fa541c', marginRight: 4 }} aria-label="置顶" />}
          {n.title}
        </span>
      ),
    },
    { title: '类型', key: 'type', width: 100, render: (_, n) => <EnumTag enum={NOTICE_TYPE} value={n.type} /> },
    {
      title: '状态',
      key: 'status',
      width: 90,
      render: (_, n) => (
        <span data-testid={`notice-status-${n.id}`}>
          <EnumTag enum={NOTICE_STATUS} value={n.status} />
        </span>
      ),
    },
    {
      title: '阅读',
      key: 'reads',
      width: 150,
      render: (_, n) =>
        n.households > 0 ? (
          <Link to={`/steward/readnumlist?id=${n.id}`} data-testid={`notice-reads-${n.id}`}>
            {n.read_households}/{n.households} 户（{((n.read_households * 100) / n.households).toFixed(1)}%）
          </Link>
        ) : (
          '—'
        ),
    },
    { title: '范围', dataIndex: 'scope_ch', width: 160, ellipsis: true },
    {
      title: '发布时间',
      key: 'time',
      width: 170,
      render: (_, n) =>
        n.publish_time ? n.publish_time.slice(0, 16) : n.send_time ? <Tag color="blue">定时 {n.send_time.slice(0, 16)}</Tag> : '—',
    },
    { title: '有效期至', key: 'valid', width: 150, render: (_, n) => (n.valid_until ? n.valid_until.slice(0, 16) : '长期') },
    { title: '渠道', dataIndex: 'channels_ch', width: 140 },
    { title: '发布人', key: 'publisher', width: 90, render: (_, n) => n.publisher || n.creator },
    {
      title: '操作',
      key: 'op',
      width: 260,
      fixed: phone ? undefined : 'right',
      render: (_, n) => {
        const live = n.status === 'P' || n.status === 'X';
        return (
          <Space size={0} wrap>
            {canWrite && n.status !== 'W' && (
              <Button
                type="link"
                size="small"
                onClick={() => void navigate(`/steward/noticesedit?id=${n.id}`)}
                data-testid={`notice-edit-${n.id}`}
              >
                编辑
              </Button>
            )}
            {canWrite && n.status === 'D' && (
              <Button type="link" size="small" onClick={() => void publish(n)} data-testid={`notice-publish-${n.id}`}>
                发布
              </Button>
            )}
            {canWrite && (n.status === 'S' || n.status === 'P') && (
              <Button type="link" size="small" danger onClick={() => withdraw(n)} data-testid={`notice-withdraw-${n.id}`}>
                撤回
              </Button>
            )}
            {canWrite && n.status !== 'W' && (
              <Button type="link" size="small" onClick={() => void pin(n)} data-testid={`notice-pin-${n.id}`}>
                {n.pinned === 'Y' ? '取消置顶' : '置顶'}
              </Button>
            )}
            {canWrite && (
              <Button type="link" size="small" onClick={() => void copy(n)} data-testid={`notice-copy-${n.id}`}>
                复制
              </Button>
            )}
            {(live || n.status === 'W') && (
              <Button
                type="link"
                size="small"
                onClick={() => void navigate(`/steward/readnumlist?id=${n.id}`)}
                data-testid={`notice-readlist-${n.id}`}
              >
                阅读明细
              </Button>
            )}
            {canWrite && n.status === 'D' && (
              <Button type="link" size="small" danger onClick={() => del(n)} data-testid={`notice-del-${n.id}`}>
                删除
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <TablePage<NoticeItem, Filters>
      testId="notice-page"
      form={form}
      list={list}
      columns={columns}
      rowKey="id"
      tableProps={{ scroll: { x: 1640 } }}
      onSearch={(v) => list.setFilters(toFilters(v))}
      toolbar={
        canWrite && (
          <Button type="primary" onClick={() => void navigate('/steward/noticesadd')} data-testid="notice-add">
            发布公告
          </Button>
        )
      }
      filters={
        <>
          <Form.Item name="title" label="标题">
            <Input allowClear style={{ width: 160 }} maxLength={50} data-testid="notice-filter-title" />
          </Form.Item>
          <Form.Item name="type" label="类型">
            <Select allowClear placeholder="全部" style={{ width: 120 }} options={enumOptions(NOTICE_TYPE)} />
          </Form.Item>
          <Form.Item name="status" label="状态">
            <Select
              allowClear
              placeholder="全部"
              style={{ width: 110 }}
              options={enumOptions(NOTICE_STATUS)}
              data-testid="notice-filter-status"
            />
          </Form.Item>
          <Form.Item name="dates" label="发布时间">
            <DatePicker.RangePicker inputReadOnly allowClear style={{ maxWidth: 260 }} />
          </Form.Item>
        </>
      }
    />
  );
}
