import { useMemo, useState } from 'react';
import { Badge, Button, Card, Dropdown, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CRM_CHIP, CRM_STAGE, DEALT_STAGES, crmCustomer, type CrmChip, type CrmCustomerItem, type CrmView } from '@wuye/contract/crm/sales';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { TextPromptModal } from '../../../components/TextPromptModal';
import { EnumTag, ResourcePage, invalidateResource, resourceKey } from '../../../components/resource';
import { AssignDialog, FollowUpDialog, InviteDialog, useSalesManager, withoutFields, type CustomerRef } from './parts';
import './sales.css';

const LIST = '/crm/crm';
/** The view and the chip are the page's tabs and chips, not filter fields of the bar. */
const listed = withoutFields(crmCustomer, ['view', 'chip']);
/** The stages a consultant may put back into the pool (not a deal). */
const RELEASABLE = ['report', 'valid', 'visit', 'pledge', 'invalid'];

/** 下次联系: red once its day has passed, orange today. */
function NextContact({ value }: { value: string }) {
  if (!value) return <Typography.Text type="secondary">—</Typography.Text>;
  const day = value.slice(0, 10);
  const today = dayjs().format('YYYY-MM-DD');
  const type = day < today ? 'danger' : day === today ? 'warning' : undefined;
  return <Typography.Text type={type}>{value.slice(0, 16)}</Typography.Text>;
}

/** 掉入公海: the day, with the days left when they are few. */
function PoolDue({ row }: { row: CrmCustomerItem }) {
  if (!row.pool_due) return <Typography.Text type="secondary">—</Typography.Text>;
  const left = row.pool_days_left ?? 99;
  return (
    <Tooltip title={left <= 0 ? '今天回收公海' : `${left} 天后回收公海`}>
      <Typography.Text type={left <= 3 ? 'danger' : undefined}>{row.pool_due}</Typography.Text>
    </Tooltip>
  );
}

/**
 * /crm/crm (销售客户; docs/product.md#crm-sales): 我的客户, 团队客户 (a manager's) and 公海 with their
 * counts, the chips 今日待联系, 已逾期 and 即将掉入公海, the filters, and per customer 查看, 写跟进,
 * 预约到访, 领取 (from the pool), 放入公海; a manager assigns the chosen ones.
 */
export default function CustomerList() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const manager = useSalesManager();
  const view = (params.get('view') as CrmView | null) ?? 'mine';
  const chip = (params.get('chip') as CrmChip | null) ?? undefined;
  const permanent = useMemo(() => ({ view, ...(chip ? { chip } : {}) }), [view, chip]);
  const chips = useQuery({ queryKey: [...resourceKey(crmCustomer.def.name), 'chips', view], queryFn: () => call('crmchips', { view }) });
  const [following, setFollowing] = useState<CustomerRef | null>(null);
  const [inviting, setInviting] = useState<CustomerRef | null>(null);
  const [releasing, setReleasing] = useState<number[] | null>(null);
  const [assigning, setAssigning] = useState<number[] | null>(null);
  const changed = () => void invalidateResource(queryClient, crmCustomer.def.name);

  // from the address as it is now, not as the last render saw it: React Router draws a navigation
  // in a transition, so a second click may come before the first one's page is drawn
  const go = (next: { view?: CrmView; chip?: CrmChip | null }) => {
    const p = new URLSearchParams(window.location.search);
    if (next.view) p.set('view', next.view);
    if (next.chip === null || next.view) p.delete('chip');
    if (next.chip) p.set('chip', next.chip);
    p.delete('page');
    setParams(p, { replace: true });
  };
  const claim = async (ids: number[]) => {
    const answer = await request('crmclaim', { ids }).catch(() => null);
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    changed();
  };
  const c = chips.data;
  const views: Array<{ value: CrmView; label: string; n: number | null | undefined }> = [
    { value: 'mine', label: '我的客户', n: c?.mine },
    ...(manager ? [{ value: 'team' as const, label: '团队客户', n: c?.team }] : []),
    { value: 'pool', label: '公海', n: c?.pool },
  ];
  const chipCount: Record<CrmChip, number | undefined> = { today: c?.today, overdue: c?.overdue, falling: c?.falling };
  const ref = (r: CrmCustomerItem): CustomerRef => ({ id: r.id, name: r.name, hid: r.hid });

  return (
    <>
      <Card variant="borderless" className="crm-sales-views" data-testid="crm-views">
        <Space wrap size="middle">
          <Segmented<CrmView>
            value={view}
            onChange={(v) => go({ view: v })}
            options={views.map((v) => ({
              value: v.value,
              label: (
                <span data-testid={`crm-view-${v.value}`}>
                  {v.label} <Typography.Text type="secondary">{v.n ?? ''}</Typography.Text>
                </span>
              ),
            }))}
          />
          {view !== 'pool' && (
            <Space wrap size={6}>
              {(Object.keys(CRM_CHIP) as CrmChip[]).map((k) => (
                <Tag.CheckableTag
                  key={k}
                  checked={chip === k}
                  onChange={() => go({ chip: new URLSearchParams(window.location.search).get('chip') === k ? null : k })}
                  data-testid={`crm-chip-${k}`}
                >
                  {CRM_CHIP[k].text}{' '}
                  <Badge
                    count={chipCount[k] ?? 0}
                    showZero
                    color={k === 'overdue' ? 'red' : k === 'falling' ? 'orange' : 'blue'}
                    size="small"
                  />
                </Tag.CheckableTag>
              ))}
            </Space>
          )}
        </Space>
      </Card>
      <ResourcePage<CrmCustomerItem>
        resource={listed}
        title={view === 'pool' ? '公海客户' : view === 'team' ? '团队客户' : '我的客户'}
        listOptions={{ path: LIST, permanent }}
        // a customer who subscribed or signed is kept with their deal
        rowDeletable={(r) => !DEALT_STAGES.includes(r.stage)}
        columns={{
          name: {
            render: (v: string, r) => (
              <Typography.Link onClick={() => void navigate(`/crm/crm_show?id=${r.id}`)} data-testid={`crm-open-${r.id}`}>
                {v}
              </Typography.Link>
            ),
          },
          stage: { render: (v: string) => <EnumTag enum={CRM_STAGE} value={v} /> },
          want_text: { ellipsis: true },
          consultant_name: { render: (v: string) => v || <Tag>公海</Tag> },
          last_follow_at: {
            render: (v: string, r) =>
              v ? (
                <Tooltip title={r.last_follow_text}>
                  <span>{v.slice(0, 16)}</span>
                </Tooltip>
              ) : (
                <Typography.Text type="secondary">未跟进</Typography.Text>
              ),
          },
          next_contact_at: { render: (v: string) => <NextContact value={v} /> },
          pool_due: { render: (_: string, r) => <PoolDue row={r} /> },
        }}
        rowActions={(r) =>
          r.consultant_id === null ? (
            <Button size="small" type="link" onClick={() => void claim([r.id])} data-testid={`crm-claim-${r.id}`}>
              领取
            </Button>
          ) : (
            (r.mine || manager) && (
              <Space size={0}>
                <Button size="small" type="link" onClick={() => setFollowing(ref(r))} data-testid={`crm-follow-${r.id}`}>
                  写跟进
                </Button>
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'show', label: '查看详情' },
                      ...(r.stage !== 'invalid' ? [{ key: 'invite', label: '预约到访' }] : []),
                      ...(RELEASABLE.includes(r.stage) ? [{ key: 'release', label: '放入公海', danger: true }] : []),
                    ],
                    onClick: ({ key }) => {
                      if (key === 'show') void navigate(`/crm/crm_show?id=${r.id}`);
                      if (key === 'invite') setInviting(ref(r));
                      if (key === 'release') setReleasing([r.id]);
                    },
                  }}
                >
                  <Button size="small" type="link" data-testid={`crm-more-${r.id}`}>
                    更多 <DownOutlined />
                  </Button>
                </Dropdown>
              </Space>
            )
          )
        }
        batchActions={(rows, clear) => (
          <>
            {view === 'pool' && (
              <Button size="small" onClick={() => void claim(rows.map((r) => r.id)).then(clear)} data-testid="crm-batch-claim">
                批量领取
              </Button>
            )}
            {manager && (
              <Button
                size="small"
                onClick={() => {
                  setAssigning(rows.map((r) => r.id));
                  clear();
                }}
                data-testid="crm-batch-assign"
              >
                分配/转移
              </Button>
            )}
          </>
        )}
      />
      {following && <FollowUpDialog customer={following} onClose={() => setFollowing(null)} />}
      {inviting && <InviteDialog customer={inviting} onClose={() => setInviting(null)} />}
      {assigning && <AssignDialog ids={assigning} onClose={() => setAssigning(null)} />}
      <TextPromptModal
        open={releasing !== null}
        title="放入公海"
        label="原因"
        required="请填写放入公海的原因"
        maxLength={200}
        danger
        testIds={{ text: 'crm-release-reason', ok: 'crm-release-ok' }}
        send={(reason) => request('crmrelease', { ids: releasing ?? [], reason })}
        onDone={() => {
          setReleasing(null);
          changed();
        }}
        onCancel={() => setReleasing(null)}
      >
        <Typography.Paragraph type="secondary">放入公海后，其他置业顾问可以领取；时间线会记下原因。</Typography.Paragraph>
      </TextPromptModal>
    </>
  );
}
