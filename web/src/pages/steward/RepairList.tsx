import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, DatePicker, Form, Input, Modal, Select, Space, Tabs, Tag, TreeSelect, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { REPAIR_RATING_FILTER, REPAIR_SOURCE, REPAIR_STATUS, type RepairItem, type RepairStatus } from '@wuye/contract/steward/repairs';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { EnumTag, useRoles } from '../../components/resource';
import RepairActions, { TechSelect } from './RepairActions';
import RepairAdd, { typeTreeData, useRepairTypeTree } from './RepairAdd';
import RepairDetail from './RepairDetail';

interface FilterValues {
  no?: string;
  reporter?: string;
  phone?: string;
  type_id?: number;
  handler_id?: number;
  source?: '' | 'D' | 'T' | 'N';
  created?: [Dayjs, Dayjs];
  finished?: [Dayjs, Dayjs];
  rating?: '' | 'good' | 'bad' | 'none';
  urgent?: '' | 'Y' | 'N';
}

/** The status bar's tabs: all, each state, and 超时 (the open tickets past a deadline). */
const TABS: Array<'all' | RepairStatus | 'overdue'> = ['all', 'W', 'A', 'P', 'S', 'F', 'R', 'V', 'D', 'C', 'overdue'];

const days = (r?: [Dayjs, Dayjs]) => (r ? ([r[0].format('YYYY-MM-DD'), r[1].format('YYYY-MM-DD')] as [string, string]) : undefined);

/**
 * 报修工单 (/steward/repairs; docs/product.md#repairs): the status bar with counts per state and
 * 超时, the filters, each row's steps where its state and the user allow them, batch dispatch,
 * export, registration and the detail with its timeline. With `mine` it is a technician's own
 * tickets: to do (待接单, 处理中, 已暂停) and done.
 */
export function RepairTable({ mine }: { mine?: 'todo' | 'done' }) {
  const can = useRoles();
  const desk = can(STEWARD_ROLES.desk);
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<(typeof TABS)[number]>('all');
  const [values, setValues] = useState<FilterValues>({});
  const list = useList('repairlist', { sort: 'desc', ...(mine ? { mine } : {}) });
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [batch, setBatch] = useState(false);
  const [batchForm] = Form.useForm<{ handler_id: number; note?: string }>();
  const actionFixed = useActionFixed();
  const tree = useRepairTypeTree();
  const counts = list.answer?.counts;

  // a to-do's link (/steward/repairs?id=7) opens the ticket
  useEffect(() => {
    const id = Number(params.get('id'));
    if (id > 0) setViewing(id);
  }, [params]);

  const filtersOf = (v: FilterValues, t: (typeof TABS)[number]) => ({
    sort: 'desc' as const,
    ...(mine ? { mine } : {}),
    no: v.no ?? '',
    reporter: v.reporter ?? '',
    phone: v.phone ?? '',
    type_id: v.type_id,
    handler_id: v.handler_id,
    source: v.source ?? '',
    created: days(v.created),
    finished: days(v.finished),
    rating: v.rating ?? '',
    urgent: v.urgent ?? '',
    status: t === 'all' || t === 'overdue' ? ('' as const) : t,
    overdue: t === 'overdue' ? ('Y' as const) : ('' as const),
  });
  const search = (v: FilterValues) => {
    setValues(v);
    list.setFilters(filtersOf(v, tab));
  };
  const switchTab = (t: string) => {
    const next = t as (typeof TABS)[number];
    setTab(next);
    setSelected([]);
    list.setFilters(filtersOf(values, next));
  };
  const closeDetail = () => {
    setViewing(null);
    if (params.get('id')) setParams({}, { replace: true });
  };
  const dispatchBatch = async () => {
    let v: { handler_id: number; note?: string };
    try {
      v = await batchForm.validateFields();
    } catch {
      return;
    }
    try {
      const answer = await request('repairbatchdispatch', { ids: selected, handler_id: v.handler_id, note: v.note ?? '' });
      noticeSuccess(answer.return_msg ?? '已派单');
      setBatch(false);
      setSelected([]);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };

  const columns: TableColumnsType<RepairItem> = [
    {
      title: '工单号',
      dataIndex: 'no',
      width: 150,
      fixed: 'left',
      render: (no: string, r) => (
        <Typography.Link onClick={() => setViewing(r.id)} data-testid={`repair-open-${r.id}`}>
          {no}
        </Typography.Link>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 150,
      render: (s: RepairStatus, r) => (
        <Space size={2} wrap>
          <EnumTag enum={REPAIR_STATUS} value={s} />
          {r.overdue && (
            <Tag color="error" data-testid={`repair-overdue-${r.id}`}>
              超时
            </Tag>
          )}
          {r.urge_count > 0 && <Tag color="orange">催×{r.urge_count}</Tag>}
        </Space>
      ),
    },
    {
      title: '报修类型',
      dataIndex: 'type_title',
      width: 150,
      render: (v: string, r) => (
        <Space size={2}>
          {v}
          {r.urgent && <Tag color="red">急</Tag>}
        </Space>
      ),
    },
    { title: '位置', dataIndex: 'location', width: 180, ellipsis: true },
    { title: '报修人', dataIndex: 'reporter', width: 90 },
    { title: '电话', dataIndex: 'phone', width: 120 },
    { title: '内容', dataIndex: 'content', width: 200, ellipsis: true },
    { title: '来源', dataIndex: 'source_ch', width: 90 },
    { title: '处理人', dataIndex: 'handler_name', width: 90 },
    { title: '完成时限', dataIndex: 'finish_by', width: 160 },
    { title: '评分', dataIndex: 'rate_overall', width: 70, render: (v: number) => (v ? `${v}分` : '') },
    { title: '登记时间', dataIndex: 'create_time', width: 160 },
    {
      title: '操作',
      key: 'op',
      width: 240,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={4} wrap>
          <Button size="small" type="link" onClick={() => setViewing(r.id)} data-testid={`repair-view-${r.id}`}>
            详情
          </Button>
          <RepairActions row={r} onDone={list.reload} />
        </Space>
      ),
    },
  ];

  const tabItems = useMemo(
    () =>
      TABS.map((t) => {
        const label = t === 'all' ? '全部' : t === 'overdue' ? '超时' : REPAIR_STATUS[t].text;
        const n = counts?.[t] ?? 0;
        return {
          key: t,
          label: (
            <span data-testid={`repair-tab-${t}`}>
              {label} <Badge count={n} showZero overflowCount={9999} color={t === 'overdue' ? 'red' : n ? 'blue' : '#d9d9d9'} />
            </span>
          ),
        };
      }),
    [counts],
  );

  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={switchTab}
        items={tabItems}
        size="small"
        style={{ marginBottom: 4 }}
        data-testid="repair-status-bar"
      />
      <TablePage<RepairItem, FilterValues>
        testId={mine ? `myrepairs-${mine}` : 'repairs-page'}
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={search}
        onExport={mine ? undefined : () => runExport('repairexport', (({ sort: _s, ...f }) => f)(filtersOf(values, tab)))}
        tableProps={
          desk && !mine
            ? {
                rowSelection: {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(Number)),
                  getCheckboxProps: (r) => ({ disabled: r.status !== 'W', 'data-testid': `repair-select-${r.id}` }) as never,
                },
              }
            : undefined
        }
        toolbar={
          desk && !mine ? (
            <>
              <Button disabled={selected.length === 0} onClick={() => setBatch(true)} data-testid="repair-batch-dispatch">
                批量派单{selected.length ? `（${selected.length}）` : ''}
              </Button>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="repair-add">
                登记报修
              </Button>
            </>
          ) : undefined
        }
        filters={
          <>
            <Form.Item name="no" label="工单号">
              <Input allowClear style={{ width: 150 }} data-testid="repair-filter-no" />
            </Form.Item>
            <Form.Item name="reporter" label="报修人">
              <Input allowClear style={{ width: 110 }} data-testid="repair-filter-reporter" />
            </Form.Item>
            <Form.Item name="phone" label="电话">
              <Input allowClear style={{ width: 130 }} data-testid="repair-filter-phone" />
            </Form.Item>
            <Form.Item name="type_id" label="类型">
              <TreeSelect
                allowClear
                treeData={typeTreeData(tree.data?.items ?? []).map((t) => ({ ...t, selectable: true }))}
                style={{ width: 150 }}
              />
            </Form.Item>
            {!mine && (
              <Form.Item name="handler_id" label="处理人">
                <TechSelect testId="repair-filter-handler" />
              </Form.Item>
            )}
            <Form.Item name="source" label="来源">
              <Select allowClear style={{ width: 110 }} options={enumOptions(REPAIR_SOURCE)} />
            </Form.Item>
            <Form.Item name="created" label="登记日期">
              <DatePicker.RangePicker style={{ width: 240 }} />
            </Form.Item>
            <Form.Item name="finished" label="完工日期">
              <DatePicker.RangePicker style={{ width: 240 }} />
            </Form.Item>
            <Form.Item name="rating" label="评价">
              <Select allowClear style={{ width: 120 }} options={enumOptions(REPAIR_RATING_FILTER)} />
            </Form.Item>
            <Form.Item name="urgent" label="紧急">
              <Select
                allowClear
                style={{ width: 90 }}
                options={[
                  { value: 'Y', label: '紧急' },
                  { value: 'N', label: '普通' },
                ]}
              />
            </Form.Item>
          </>
        }
      />
      <RepairAdd
        open={adding}
        onClose={() => setAdding(false)}
        onDone={(id) => {
          setAdding(false);
          list.reload();
          setViewing(id);
        }}
      />
      <RepairDetail id={viewing} onClose={closeDetail} onChanged={list.reload} />
      <Modal
        title={`批量派单（${selected.length} 张）`}
        open={batch}
        onOk={() => void dispatchBatch()}
        onCancel={() => setBatch(false)}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'repair-batch-ok' } as never}
      >
        <Form form={batchForm} layout="vertical" preserve={false}>
          <Form.Item name="handler_id" label="维修师傅" rules={[{ required: true, message: '请选择维修师傅' }]}>
            <TechSelect testId="repair-batch-handler" />
          </Form.Item>
          <Form.Item name="note" label="派单说明">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** /steward/repairs */
export default function RepairList() {
  return <RepairTable />;
}
