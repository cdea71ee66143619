import { useMemo, useState } from 'react';
import { Button, Descriptions, Drawer, Dropdown, Space, Switch, Typography } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AFFAIR_STATUS, careAffair, careAffairFlow, type AffairStatus, type CareAffairItem } from '@wuye/contract/crm/careAffairs';
import type { WorkflowLogItem } from '@wuye/contract/kit/workflow';
import { call } from '../../../api/client';
import { StatusBar, type StatusBarKey } from '../../../components/StatusBar';
import {
  ResourcePage,
  WorkflowTimeline,
  invalidateResource,
  useCanWrite,
  useResourceDelete,
  useResourceForm,
  useResourceList,
  type Filters,
  type Widgets,
} from '../../../components/resource';
import { useUser } from '../../../stores/user';
import { AffairCancelDialog, AffairDoneDialog, AffairState, CustomerPicker, affairWidgets } from './parts';

const LIST_OPTIONS = { path: '/crm/affair' };
const STATES = ['P', 'Y', 'C'] as const satisfies readonly AffairStatus[];

/**
 * The page's description of the list: edit and delete come from the row's own buttons, shown only
 * while an affair is 待办 (the server refuses them afterwards anyway).
 */
const listed = { ...careAffair, def: { ...careAffair.def, methods: { ...careAffair.def.methods, edit: undefined, del: undefined } } };

/** An affair in full: who, what, how it went, and its history. */
function AffairDrawer({ id, onClose, actions }: { id: number; onClose: () => void; actions: (a: CareAffairItem) => React.ReactNode }) {
  const row = useQuery({ queryKey: ['res', careAffair.def.name, 'info', id], queryFn: () => call('affairinfo', { id }), retry: false });
  const log = useQuery({ queryKey: ['res', careAffair.def.name, 'log', id], queryFn: () => call('affairlog', { id }), retry: false });
  const a = row.data;
  // an affair a rule or a group affair made starts its history where it was made (the log has its later steps)
  const history = useMemo((): WorkflowLogItem[] | undefined => {
    if (!a || !log.data) return undefined;
    if (log.data.items.some((l) => l.transition === 'create')) return log.data.items;
    const made: WorkflowLogItem = {
      id: 0,
      transition: 'create',
      transition_ch: a.source_ch,
      from_state: '',
      from_state_ch: '',
      to_state: 'P',
      to_state_ch: AFFAIR_STATUS.P.text,
      input: a.rule_name ? { rule: `${a.rule_name}（${a.occurrence}）` } : a.batch_title ? { batch: a.batch_title } : {},
      operator: a.creator,
      create_time: a.create_time,
    };
    return [made, ...log.data.items];
  }, [a, log.data]);
  return (
    <Drawer
      open
      size="large"
      title={a ? `${a.kind_ch} · ${a.realname}` : '关怀事务'}
      onClose={onClose}
      destroyOnHidden
      extra={a && actions(a)}
    >
      {row.isError && <Typography.Text type="danger">关怀事务不存在</Typography.Text>}
      {a && (
        <>
          <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 16 }} data-testid="careaffair-detail">
            <Descriptions.Item label="客户">
              <Space size={8}>
                <Link to={`/crm/customshow?id=${a.customer_id}`}>{a.realname}</Link>
                {a.mobile}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="房屋">{a.houses || '—'}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <AffairState affair={a} />
            </Descriptions.Item>
            <Descriptions.Item label="计划日期">{a.due_date}</Descriptions.Item>
            <Descriptions.Item label="负责人">{a.assignee_name}</Descriptions.Item>
            <Descriptions.Item label="来源">
              {a.source_ch}
              {a.rule_name && `：${a.rule_name}（${a.occurrence}）`}
              {a.batch_title && `：${a.batch_title}`}
            </Descriptions.Item>
            <Descriptions.Item label="事务内容" span={{ xs: 1, md: 2 }}>
              {a.content || '—'}
            </Descriptions.Item>
            {a.status === 'Y' && (
              <Descriptions.Item label="处理结果" span={{ xs: 1, md: 2 }}>
                {a.result}（{a.done_by_name}，{a.done_time}）
              </Descriptions.Item>
            )}
            {a.status === 'C' && (
              <Descriptions.Item label="取消原因" span={{ xs: 1, md: 2 }}>
                {a.cancel_reason}（{a.cancel_time}）
              </Descriptions.Item>
            )}
            <Descriptions.Item label="创建">
              {a.creator} · {a.create_time}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>处理记录</Typography.Title>
          {history && <WorkflowTimeline flow={careAffairFlow} items={history} />}
        </>
      )}
    </Drawer>
  );
}

/**
 * /crm/affair (关怀事务; docs/product.md#crm-care): every affair with the status bar (全部, 待办,
 * 已完成, 已取消, 超时), the filters (customer, kind, assignee, due days, overdue, group affair,
 * rule), 只看我的, add, 完成 with the result and its time, 取消 with a reason, edit and delete while
 * 待办, the detail with its history (?id= opens it: the to-do list's link), export.
 */
export default function AffairList() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const me = useUser((s) => s.sysUser?.sysid);
  const canWrite = useCanWrite(careAffair.def.roles.write);
  const list = useResourceList<CareAffairItem>(careAffair, LIST_OPTIONS);
  const form = useResourceForm<CareAffairItem>(careAffair);
  const remove = useResourceDelete(careAffair);
  const [acting, setActing] = useState<{ a: CareAffairItem; what: 'done' | 'cancel' } | null>(null);
  const viewing = Number(params.get('id')) || 0;
  const view = (id: number | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set('id', String(id));
        else next.delete('id');
        return next;
      },
      { replace: true },
    );

  // the status bar counts under every other filter
  const { status, late, ...rest } = list.filters;
  const countFilters = useMemo(() => Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'id')), [rest]);
  const counts = useQuery({
    queryKey: ['res', careAffair.def.name, 'counts', countFilters],
    queryFn: () => call('affaircounts', countFilters as never),
  });
  const bar: StatusBarKey<AffairStatus> = late === 'Y' ? 'overdue' : ((status as AffairStatus | undefined) ?? '');
  const setBar = (key: StatusBarKey<AffairStatus>) => {
    const next: Filters = { ...rest };
    if (key === 'overdue') next.late = 'Y';
    else if (key) next.status = key;
    list.setFilters(next);
  };
  const mine = !!me && Number(list.filters.assignee_id) === me;
  const setMine = (on: boolean) => {
    const next: Filters = { ...list.filters };
    if (on && me) next.assignee_id = me;
    else delete next.assignee_id;
    list.setFilters(next);
  };
  const changed = () => {
    void invalidateResource(queryClient, careAffair.def.name);
    list.reload();
  };
  const actions = (a: CareAffairItem) =>
    canWrite &&
    a.status === 'P' && (
      <Space size={0}>
        <Button size="small" type="link" onClick={() => setActing({ a, what: 'done' })} data-testid={`careaffair-done-${a.id}`}>
          完成
        </Button>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'edit', label: <span data-testid={`careaffair-edit-${a.id}`}>编辑</span> },
              { key: 'cancel', label: <span data-testid={`careaffair-cancel-${a.id}`}>取消事务</span>, danger: true },
              { key: 'del', label: <span data-testid={`careaffair-del-${a.id}`}>删除</span>, danger: true },
            ],
            onClick: ({ key }) => {
              if (key === 'edit') form.open(a);
              else if (key === 'cancel') setActing({ a, what: 'cancel' });
              else remove(a.id);
            },
          }}
        >
          <Button size="small" type="link" data-testid={`careaffair-more-${a.id}`}>
            更多 <DownOutlined />
          </Button>
        </Dropdown>
      </Space>
    );

  return (
    <>
      <StatusBar<AffairStatus>
        states={STATES}
        labels={AFFAIR_STATUS}
        waiting={['P']}
        counts={counts.data}
        value={bar}
        onChange={setBar}
        testId="careaffair"
      />
      <ResourcePage<CareAffairItem>
        resource={listed}
        listOptions={LIST_OPTIONS}
        title="关怀事务"
        form={form}
        widgets={affairWidgets}
        filterWidgets={{ customer_id: CustomerPicker } as unknown as Widgets}
        toolbar={
          <Space>
            <Switch checked={mine} onChange={setMine} data-testid="careaffair-mine" />
            <span>只看我的</span>
          </Space>
        }
        columns={{
          realname: {
            render: (v: string, r) => (
              <Link to={`/crm/customshow?id=${r.customer_id}`} data-testid={`careaffair-customer-${r.id}`}>
                {v}
              </Link>
            ),
          },
          status: { render: (_: string, r) => <AffairState affair={r} /> },
          content: { ellipsis: true },
          houses: { ellipsis: true },
          result: { ellipsis: true },
        }}
        rowActions={(row) => (
          <Space size={0}>
            {actions(row)}
            <Button size="small" type="link" onClick={() => view(row.id)} data-testid={`careaffair-view-${row.id}`}>
              详情
            </Button>
          </Space>
        )}
      />
      {viewing > 0 && <AffairDrawer id={viewing} onClose={() => view(null)} actions={actions} />}
      {acting?.what === 'done' && (
        <AffairDoneDialog
          affair={acting.a}
          onClose={(done) => {
            setActing(null);
            if (done) changed();
          }}
        />
      )}
      {acting?.what === 'cancel' && (
        <AffairCancelDialog
          affair={acting.a}
          onClose={(done) => {
            setActing(null);
            if (done) changed();
          }}
        />
      )}
    </>
  );
}
