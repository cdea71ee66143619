import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Result, Space, Spin, Steps, Tabs, Tag, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CRM_GRADE,
  CRM_STAGE,
  PIPELINE,
  crmCustomer,
  crmPipeline,
  intention,
  intentionFlow,
  invite,
  salesCall,
} from '@wuye/contract/crm/sales';
import type { CrmCustomerItem, InviteItem, IntentionItem, SalesCallItem } from '@wuye/contract/crm/sales';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { TextPromptModal } from '../../../components/TextPromptModal';
import {
  EnumTag,
  ResourcePage,
  WorkflowActions,
  WorkflowTimeline,
  invalidateResource,
  resourceKey,
  useCanWrite,
} from '../../../components/resource';
import { FollowUpDialog, IntentionDialog, InviteDialog, minuteWidgets, useSalesManager, withoutFields, type CustomerRef } from './parts';
import './sales.css';

const CUSTOMER_FIELD = ['customer_id', 'keyword'];
const calls = withoutFields(salesCall, CUSTOMER_FIELD);
const invites = withoutFields(invite, CUSTOMER_FIELD);
const deposits = withoutFields(intention, CUSTOMER_FIELD);
const HELD = ['report', 'valid', 'visit', 'pledge'];

/** The pipeline as steps: where the customer stands, or where it stopped when marked invalid. */
function Pipeline({ c, furthest }: { c: CrmCustomerItem; furthest: number }) {
  const invalid = c.stage === 'invalid';
  const current = invalid ? furthest : PIPELINE.indexOf(c.stage);
  return (
    <div className="crm-sales-steps">
      <Steps
        size="small"
        current={current}
        status={invalid ? 'error' : c.stage === 'sign' ? 'finish' : 'process'}
        items={PIPELINE.map((s, i) => ({
          title: CRM_STAGE[s].text,
          content: invalid && i === current ? `无效：${c.invalid_reason}` : undefined,
        }))}
        data-testid="crm-show-steps"
      />
    </div>
  );
}

/**
 * /crm/crm_show?id= (客户详情; docs/product.md#crm-sales): the customer, the pipeline as steps with its
 * transitions, 写跟进, 预约到访, 登记认筹, 领取 or 放入公海, and the tabs 跟进记录, 邀约到访, 认筹 and
 * 阶段记录 (the timeline of every stage change, visit, deposit, claim and transfer).
 */
export default function CustomerShow() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const manager = useSalesManager();
  const canWrite = useCanWrite(crmCustomer.def.roles.write);
  const [tab, setTab] = useState('calls');
  const [dialog, setDialog] = useState<'follow' | 'invite' | 'deposit' | 'release' | null>(null);
  const q = useQuery({
    queryKey: [...resourceKey(crmCustomer.def.name), 'info', id],
    queryFn: () => call('crminfo', { id }),
    enabled: id > 0,
    retry: false,
  });
  const log = useQuery({
    queryKey: [...resourceKey(crmPipeline.def.name), 'log', id],
    queryFn: () => call('crmlog', { id }),
    enabled: id > 0 && !!q.data,
  });
  if (!id) return <Result status="warning" title="请从客户列表打开客户" />;
  if (q.isError)
    return (
      <Result status="warning" title="无法查看该客户" extra={<Button onClick={() => void navigate('/crm/crm')}>返回客户列表</Button>} />
    );
  const c = q.data;
  if (!c) return <Spin />;
  const changed = () => {
    void invalidateResource(queryClient, crmCustomer.def.name);
    void log.refetch();
  };
  const ref: CustomerRef = { id: c.id, name: c.name, hid: c.hid };
  const works = canWrite && (c.mine || manager) && c.consultant_id !== null;
  const furthest = Math.max(0, ...(log.data?.items ?? []).map((l) => PIPELINE.indexOf(l.to_state as (typeof PIPELINE)[number])));
  const claim = async () => {
    const answer = await request('crmclaim', { ids: [c.id] }).catch(() => null);
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    changed();
  };
  const permanent = { customer_id: c.id };
  const customerOptions = { toPayload: (v: Record<string, unknown>) => ({ ...v, customer_id: c.id }) };

  return (
    <>
      <Card
        variant="borderless"
        data-testid="crm-show"
        title={
          <Space wrap>
            <span data-testid="crm-show-name">{c.name}</span>
            <EnumTag enum={CRM_GRADE} value={c.grade} />
            <EnumTag enum={CRM_STAGE} value={c.stage} />
            {c.consultant_id === null && <Tag color="orange">公海</Tag>}
          </Space>
        }
        extra={
          canWrite && (
            <Space wrap size={4}>
              {c.consultant_id === null ? (
                <Button type="primary" onClick={() => void claim()} data-testid="crm-show-claim">
                  领取
                </Button>
              ) : (
                works && (
                  <>
                    <Button type="primary" onClick={() => setDialog('follow')} data-testid="crm-show-follow">
                      写跟进
                    </Button>
                    {c.stage !== 'invalid' && (
                      <Button onClick={() => setDialog('invite')} data-testid="crm-show-invite">
                        预约到访
                      </Button>
                    )}
                    {['report', 'valid', 'visit'].includes(c.stage) && (
                      <Button onClick={() => setDialog('deposit')} data-testid="crm-show-deposit">
                        登记认筹
                      </Button>
                    )}
                    <Button onClick={() => void navigate(`/crm/editcrm?id=${c.id}`)} data-testid="crm-show-edit">
                      编辑
                    </Button>
                    {(HELD.includes(c.stage) || c.stage === 'invalid') && (
                      <Button onClick={() => setDialog('release')} data-testid="crm-show-release">
                        放入公海
                      </Button>
                    )}
                  </>
                )
              )}
              {(works || manager) && (
                <WorkflowActions flow={crmPipeline} row={c as never} resource={crmCustomer.def.name} onDone={changed} size="middle" />
              )}
            </Space>
          )
        }
      >
        <Pipeline c={c} furthest={furthest} />
        {c.pool_days_left !== null && c.pool_days_left <= 3 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={
              c.pool_days_left <= 0
                ? '该客户今天回收公海，请尽快跟进'
                : `该客户 ${c.pool_days_left} 天后（${c.pool_due}）回收公海，请及时跟进`
            }
            data-testid="crm-show-falling"
          />
        )}
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="crm-show-info">
          <Descriptions.Item label="手机号">{c.mobile}</Descriptions.Item>
          <Descriptions.Item label="其他电话">{c.phones.join('、') || '—'}</Descriptions.Item>
          <Descriptions.Item label="微信">{c.wechat || '—'}</Descriptions.Item>
          <Descriptions.Item label="性别">{c.gender_ch || '—'}</Descriptions.Item>
          <Descriptions.Item label="身份证号">{c.id_card || '—'}</Descriptions.Item>
          <Descriptions.Item label="意向">{c.want_text || '—'}</Descriptions.Item>
          <Descriptions.Item label="购买用途">{c.purpose_ch || '—'}</Descriptions.Item>
          <Descriptions.Item label="意向房源">{c.address || '—'}</Descriptions.Item>
          <Descriptions.Item label="来源">
            {c.source_ch}
            {c.channel_ch ? ` · ${c.channel_ch}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label="置业顾问">{c.consultant_name || '公海'}</Descriptions.Item>
          <Descriptions.Item label="来访次数">{c.visit_count}</Descriptions.Item>
          <Descriptions.Item label="最近跟进">
            {c.last_follow_at ? `${c.last_follow_at.slice(0, 16)} ${c.last_follow_text}` : '未跟进'}
          </Descriptions.Item>
          <Descriptions.Item label="下次联系">{c.next_contact_at.slice(0, 16) || '—'}</Descriptions.Item>
          <Descriptions.Item label="掉入公海">{c.pool_due || '—'}</Descriptions.Item>
          {c.stage === 'invalid' && <Descriptions.Item label="无效原因">{c.invalid_reason}</Descriptions.Item>}
          {c.contract_no && <Descriptions.Item label="合同编号">{c.contract_no}</Descriptions.Item>}
          <Descriptions.Item label="标签">{c.tags.length ? c.tags.map((t) => <Tag key={t}>{t}</Tag>) : '—'}</Descriptions.Item>
          <Descriptions.Item label="录入">
            {c.creator} · {c.create_time}
          </Descriptions.Item>
          {c.remark && <Descriptions.Item label="备注">{c.remark}</Descriptions.Item>}
        </Descriptions>
      </Card>
      <Card variant="borderless" style={{ marginTop: 12 }}>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'calls',
              label: <span data-testid="crm-tab-calls">跟进记录</span>,
              children: (
                <ResourcePage<SalesCallItem>
                  resource={calls}
                  title="跟进记录"
                  idColumn={false}
                  listOptions={{ syncUrl: false, permanent }}
                  formOptions={customerOptions}
                  widgets={minuteWidgets}
                  columns={{ customer_name: { hidden: true }, mobile: { hidden: true } }}
                />
              ),
            },
            {
              key: 'invites',
              label: <span data-testid="crm-tab-invites">邀约到访</span>,
              children: (
                <ResourcePage<InviteItem>
                  resource={invites}
                  title="邀约到访"
                  idColumn={false}
                  listOptions={{ syncUrl: false, permanent }}
                  formOptions={{ ...customerOptions, onSaved: changed }}
                  widgets={minuteWidgets}
                  columns={{ customer_name: { hidden: true }, mobile: { hidden: true } }}
                />
              ),
            },
            {
              key: 'deposits',
              label: <span data-testid="crm-tab-deposits">认筹</span>,
              children: (
                <ResourcePage<IntentionItem>
                  resource={deposits}
                  title="认筹"
                  idColumn={false}
                  listOptions={{ syncUrl: false, permanent }}
                  formOptions={{ ...customerOptions, onSaved: changed }}
                  columns={{ customer_name: { hidden: true }, mobile: { hidden: true } }}
                  rowActions={(r) => (
                    <WorkflowActions flow={intentionFlow} row={r as never} resource={intention.def.name} onDone={changed} />
                  )}
                />
              ),
            },
            {
              key: 'log',
              label: <span data-testid="crm-tab-log">阶段记录</span>,
              children: log.data ? <WorkflowTimeline flow={crmPipeline} items={log.data.items} /> : <Spin />,
            },
          ]}
        />
        <Typography.Text type="secondary">认筹金在收银台按“缴费房屋”收取；退款经财务审核后原路退回。</Typography.Text>
      </Card>
      {dialog === 'follow' && (
        <FollowUpDialog
          customer={ref}
          onClose={(saved) => {
            setDialog(null);
            if (saved) {
              changed();
              setTab('calls');
            }
          }}
        />
      )}
      {dialog === 'invite' && (
        <InviteDialog
          customer={ref}
          onClose={(saved) => {
            setDialog(null);
            if (saved) {
              changed();
              setTab('invites');
            }
          }}
        />
      )}
      {dialog === 'deposit' && (
        <IntentionDialog
          customer={ref}
          onClose={(saved) => {
            setDialog(null);
            if (saved) setTab('deposits');
          }}
        />
      )}
      <TextPromptModal
        open={dialog === 'release'}
        title="放入公海"
        label="原因"
        required="请填写放入公海的原因"
        maxLength={200}
        danger
        testIds={{ text: 'crm-release-reason', ok: 'crm-release-ok' }}
        send={(reason) => request('crmrelease', { ids: [c.id], reason })}
        onDone={() => {
          setDialog(null);
          changed();
        }}
        onCancel={() => setDialog(null)}
      />
    </>
  );
}
