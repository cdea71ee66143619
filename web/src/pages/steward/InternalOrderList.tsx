import { useState } from 'react';
import { Button, Form, Input, Select, Space, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  INTERNAL_ORDER_KIND,
  INTERNAL_ORDER_STATUS,
  TEMPLATE_STATUS,
  type InternalOrderDetail,
  type InternalOrderRow,
  type InternalOrderStatus,
  type InternalOrderTemplateRow,
} from '@wuye/contract/steward/internalOrders';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { StatusBar, type StatusBarKey } from '../../components/StatusBar';
import { EnumTag, invalidateResource, useRoles } from '../../components/resource';
import { OrderActions, OrderDetail, OrderFormModal, OrderOverdue, useOrderStaff } from './InternalOrderParts';

interface Filters {
  title?: string;
  kind?: '' | 'E' | 'P' | 'C' | 'T' | 'O';
  handler_id?: number;
  mine?: '' | 'handle' | 'created' | 'cc';
  overdue?: '' | 'Y' | 'N';
}

type Bar = StatusBarKey<InternalOrderStatus>;

/** 周期工单: the recurring templates, how many orders each made, stop. */
function Templates() {
  const list = useList('internalordertemplatelist', { sort: 'desc' });
  const queryClient = useQueryClient();
  const can = useRoles();
  const columns: TableColumnsType<InternalOrderTemplateRow> = [
    { title: '标题', dataIndex: 'title', width: 180 },
    { title: '类型', dataIndex: 'kind', width: 90, render: (k: string) => <EnumTag enum={INTERNAL_ORDER_KIND} value={k} /> },
    { title: '周期', dataIndex: 'recurrence_ch', width: 70 },
    { title: '处理人', dataIndex: 'handler_names', width: 140 },
    { title: '时限', dataIndex: 'due_hours', width: 80, render: (h: number) => `${h} 小时` },
    { title: '开始日期', dataIndex: 'start_date', width: 110 },
    { title: '下次生成', dataIndex: 'next_on', width: 110 },
    { title: '已生成', dataIndex: 'occurrences', width: 80 },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: string) => <EnumTag enum={TEMPLATE_STATUS} value={s} /> },
    { title: '发起人', dataIndex: 'creator', width: 90 },
    {
      title: '操作',
      key: 'op',
      width: 90,
      render: (_, r) =>
        r.status === 'Y' && (
          <Button
            size="small"
            danger
            data-testid={`internalorder-template-stop-${r.id}`}
            onClick={async () => {
              try {
                await call('internalordertemplatestop', { id: r.id });
                noticeSuccess('已停止，不再生成新工单');
                void invalidateResource(queryClient, 'internalorder');
                list.reload();
              } catch {
                /* shown by the client */
              }
            }}
            disabled={!can(['steward', 'repairs'])}
          >
            停止
          </Button>
        ),
    },
  ];
  return (
    <TablePage<InternalOrderTemplateRow>
      testId="internalorder-templates"
      list={list}
      columns={columns}
      rowKey="id"
      tableProps={{ scroll: { x: 1100 } }}
    />
  );
}

/**
 * 内部工单 (/steward/internalorder; docs/product.md#internal-orders): a status bar with the counts per
 * state and 超时, filters (my orders among them), raise, export, each row's allowed actions, the
 * detail with its checklist and timeline (?id= opens one, as the to-do list links it), and the
 * recurring templates.
 */
export default function InternalOrderList() {
  const list = useList('internalorderlist', { sort: 'desc' });
  const [form] = Form.useForm<Filters>();
  const [bar, setBar] = useState<Bar>('');
  const [params, setParams] = useSearchParams();
  const viewing = Number(params.get('id')) || null;
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<InternalOrderDetail | null>(null);
  const actionFixed = useActionFixed();
  const queryClient = useQueryClient();
  const staff = useOrderStaff();
  const counts = list.answer?.counts;

  const open = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('id', String(id));
    else next.delete('id');
    setParams(next, { replace: true });
  };
  const query = (b: Bar, v: Filters) => ({
    title: v.title ?? '',
    kind: v.kind ?? '',
    handler_id: v.handler_id,
    mine: v.mine ?? '',
    status: (b === '' || b === 'overdue' ? '' : b) as '' | InternalOrderStatus,
    overdue: b === 'overdue' ? ('Y' as const) : (v.overdue ?? ''),
  });
  const apply = (b: Bar, v: Filters = form.getFieldsValue(true) as Filters) => list.setFilters({ sort: 'desc', ...query(b, v) });
  const edit = async (row: InternalOrderRow) => {
    try {
      setEditing(await call('internalorderinfo', { id: row.id }));
      setFormOpen(true);
    } catch {
      /* shown by the client */
    }
  };

  const columns: TableColumnsType<InternalOrderRow> = [
    {
      title: '编号',
      dataIndex: 'no',
      width: 100,
      render: (no: string, r) => (
        <a onClick={() => open(r.id)} data-testid={`internalorder-view-${r.id}`}>
          {no}
        </a>
      ),
    },
    { title: '标题', dataIndex: 'title', width: 180, ellipsis: true },
    { title: '类型', dataIndex: 'kind', width: 90, render: (k: string) => <EnumTag enum={INTERNAL_ORDER_KIND} value={k} /> },
    {
      title: '状态',
      dataIndex: 'status',
      width: 130,
      render: (s: string, r) => (
        <Space size={2}>
          <EnumTag enum={INTERNAL_ORDER_STATUS} value={s} />
          <OrderOverdue row={r} />
        </Space>
      ),
    },
    { title: '位置', dataIndex: 'location', width: 140, ellipsis: true },
    { title: '处理人', dataIndex: 'handler_names', width: 130 },
    {
      title: '检查项',
      key: 'items',
      width: 80,
      render: (_, r) =>
        r.item_total ? (
          <Typography.Text type={r.item_done === r.item_total ? 'success' : undefined}>{`${r.item_done}/${r.item_total}`}</Typography.Text>
        ) : (
          '—'
        ),
    },
    { title: '截止时间', dataIndex: 'due_time', width: 170 },
    { title: '周期', dataIndex: 'recurrence_ch', width: 70 },
    { title: '评分', dataIndex: 'score', width: 70, render: (v: number | null) => (v === null ? '' : `${v} 分`) },
    { title: '发起人', dataIndex: 'creator', width: 90 },
    { title: '发起时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 280,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={4} wrap>
          <Button size="small" type="link" onClick={() => open(r.id)} data-testid={`internalorder-detail-${r.id}`}>
            详情
          </Button>
          <OrderActions row={r} onDone={list.reload} onEdit={() => void edit(r)} />
        </Space>
      ),
    },
  ];

  const orders = (
    <>
      <StatusBar
        states={['P', 'D', 'C', 'Y', 'X'] as const}
        labels={INTERNAL_ORDER_STATUS}
        waiting={['P', 'C'] as const}
        counts={counts}
        value={bar}
        onChange={(b) => {
          setBar(b);
          apply(b);
        }}
        testId="internalorder"
      />
      <TablePage<InternalOrderRow, Filters>
        testId="internalorder-page"
        list={list}
        form={form}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1700 } }}
        onSearch={(v) => apply(bar, v)}
        onExport={(v) => runExport('internalorderexport', { sort: 'desc', ...query(bar, v) })}
        toolbar={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
            data-testid="internalorder-add"
          >
            发起工单
          </Button>
        }
        filters={
          <>
            <Form.Item name="title" label="标题">
              <Input allowClear style={{ width: 140 }} data-testid="internalorder-filter-title" />
            </Form.Item>
            <Form.Item name="kind" label="类型">
              <Select
                allowClear
                options={enumOptions(INTERNAL_ORDER_KIND)}
                style={{ width: 110 }}
                data-testid="internalorder-filter-kind"
              />
            </Form.Item>
            <Form.Item name="handler_id" label="处理人">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                options={staff}
                style={{ width: 120 }}
                data-testid="internalorder-filter-handler"
              />
            </Form.Item>
            <Form.Item name="mine" label="我的">
              <Select
                allowClear
                style={{ width: 120 }}
                options={[
                  { value: 'handle', label: '我处理的' },
                  { value: 'created', label: '我发起的' },
                  { value: 'cc', label: '抄送我的' },
                ]}
                data-testid="internalorder-filter-mine"
              />
            </Form.Item>
            <Form.Item name="overdue" label="超时">
              <Select
                allowClear
                style={{ width: 90 }}
                options={[
                  { value: 'Y', label: '超时' },
                  { value: 'N', label: '未超时' },
                ]}
                data-testid="internalorder-filter-overdue"
              />
            </Form.Item>
          </>
        }
      />
    </>
  );

  return (
    <>
      <Tabs
        defaultActiveKey="orders"
        destroyOnHidden
        items={[
          { key: 'orders', label: '工单', children: orders },
          { key: 'templates', label: '周期工单', children: <Templates /> },
        ]}
      />
      <OrderFormModal
        open={formOpen}
        editing={editing}
        onClose={() => setFormOpen(false)}
        onSaved={(id) => {
          setFormOpen(false);
          void invalidateResource(queryClient, 'internalorder');
          list.reload();
          if (id) open(id);
        }}
      />
      <OrderDetail
        id={viewing}
        onClose={() => open(null)}
        onChanged={list.reload}
        onEdit={(row) => {
          setEditing(row);
          setFormOpen(true);
        }}
      />
    </>
  );
}
