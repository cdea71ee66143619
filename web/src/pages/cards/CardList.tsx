import { useState, type ReactNode } from 'react';
import { Button, Descriptions, Drawer, Form, InputNumber, Input, Modal, Radio, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CARD_ROLES } from '@wuye/contract/cards/roles';
import { MEMBER_CARD_STATUS, memberCard, memberCardFlow, type CardLedgerRow, type MemberCardItem } from '@wuye/contract/cards/cards';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { Money } from '../../components/Money';
import {
  EnumTag,
  ResourcePage,
  WorkflowActions,
  WorkflowTimeline,
  invalidateResource,
  useCanWrite,
  useFormFromAddress,
  useResourceForm,
  useResourceList,
  type Widgets,
} from '../../components/resource';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';
import RechargeDialog from './RechargeDialog';
import CardImport from './CardImport';

const LIST = '/carpark/carduslist';
const LIST_OPTIONS = { path: LIST };

type InputProps = { value?: string[]; onChange?: (v: string[]) => void; 'data-testid'?: string };

/** 标签: free words, a few suggested. */
function TagsInput({ value, onChange, 'data-testid': testId }: InputProps) {
  return (
    <Select
      mode="tags"
      value={value ?? []}
      onChange={onChange}
      tokenSeparators={[',', '，', ' ']}
      options={['业主', '车主', '老人', '宠物', '租户'].map((t) => ({ value: t, label: t }))}
      placeholder="输入后回车"
      data-testid={testId}
    />
  );
}

/** 状态 when opening: 未激活 or 正常 (the other states come from the card's actions). */
function OpenStatus({
  value,
  onChange,
  'data-testid': testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  'data-testid'?: string;
}) {
  return (
    <Radio.Group
      value={value}
      onChange={(e) => onChange?.(e.target.value as string)}
      options={(['Y', 'I'] as const).map((k) => ({ value: k, label: MEMBER_CARD_STATUS[k].text }))}
      data-testid={testId}
    />
  );
}

const widgets = { tags: TagsInput, status: OpenStatus } as unknown as Widgets;

/** A card's balance and points ledgers and its history, in one drawer, with the card's actions. */
function CardDrawer({ card, actions, onClose }: { card: MemberCardItem; actions: ReactNode; onClose: () => void }) {
  const [kind, setKind] = useState<'balance' | 'bonus' | 'log'>('balance');
  const list = useList('cardledgerlist', { id: card.id, kind: kind === 'log' ? 'balance' : kind });
  const columns: TableColumnsType<CardLedgerRow> = [
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170 },
    { key: 'orderid', title: '单号', dataIndex: 'orderid', width: 170 },
    { key: 'what', title: '类型', dataIndex: 'what', width: 100 },
    {
      key: 'amount',
      title: kind === 'bonus' ? '积分' : '金额',
      dataIndex: 'amount',
      width: 100,
      align: 'right',
      render: (v: string) => (
        <Typography.Text type={v.startsWith('-') ? 'danger' : 'success'}>{v.startsWith('-') ? v : `+${v}`}</Typography.Text>
      ),
    },
    { key: 'after', title: kind === 'bonus' ? '变动后积分' : '变动后余额', dataIndex: 'after', width: 110, align: 'right' },
    { key: 'merchant', title: '商户', dataIndex: 'merchant', width: 110 },
    { key: 'paytype_ch', title: kind === 'bonus' ? '渠道' : '支付方式', dataIndex: 'paytype_ch', width: 100 },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 90 },
    { key: 'remark', title: '备注', dataIndex: 'remark', ellipsis: true },
  ];
  return (
    <Drawer open size="large" title={`${card.card_no} · ${card.realname}`} onClose={onClose} destroyOnHidden extra={actions}>
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }} data-testid="card-drawer-summary">
        <Descriptions.Item label="会员卡">{card.template_name}</Descriptions.Item>
        <Descriptions.Item label="状态">
          <EnumTag enum={MEMBER_CARD_STATUS} value={card.status} />
        </Descriptions.Item>
        <Descriptions.Item label="等级">
          {card.level_ch}
          {card.tags.map((t) => (
            <Tag key={t} style={{ marginInlineStart: 6 }}>
              {t}
            </Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="余额">
          <Money value={card.balance} testId="card-ledger-balance" /> 元
        </Descriptions.Item>
        <Descriptions.Item label="积分">{card.bonus}</Descriptions.Item>
        <Descriptions.Item label="有效期至">{card.valid_until ?? '长期'}</Descriptions.Item>
        <Descriptions.Item label="房屋" span={3}>
          {card.houses || '—'}
        </Descriptions.Item>
        {card.replaced_by_no && <Descriptions.Item label="补卡新卡号">{card.replaced_by_no}</Descriptions.Item>}
      </Descriptions>
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k as typeof kind)}
        items={[
          { key: 'balance', label: '余额流水' },
          { key: 'bonus', label: '积分流水' },
          { key: 'log', label: '操作记录' },
        ]}
      />
      {kind === 'log' ? (
        <WorkflowTimeline flow={memberCardFlow} id={card.id} />
      ) : (
        <Table<CardLedgerRow>
          rowKey="id"
          size="small"
          data-testid="card-ledger-table"
          loading={list.loading}
          columns={columns}
          dataSource={list.items}
          scroll={{ x: 1100 }}
          pagination={{ current: list.page, pageSize: list.limit, total: list.total, onChange: (p, l) => list.setPage(p, l) }}
        />
      )}
    </Drawer>
  );
}

/** 调整积分: points added or taken, with the reason the ledger keeps. */
function AdjustPoints({ card, onClose }: { card: MemberCardItem; onClose: (changed: boolean) => void }) {
  const [points, setPoints] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const { submitting, submit, newAttempt } = useIdempotentSubmit();
  const problem = !points ? '请填写调整积分（正数增加，负数扣减）' : !reason.trim() ? '请填写调整原因' : '';
  const save = async () => {
    if (problem) return;
    const answer = await submit((idempotency_key) => request('cardbonusadjust', { id: card.id, points: points!, reason, idempotency_key }));
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    onClose(true);
  };
  return (
    <Modal
      open
      title={`调整积分 · ${card.card_no}（现有 ${card.bonus}）`}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={submitting}
      okButtonProps={{ disabled: !!problem, 'data-testid': 'card-adjust-save' } as never}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="调整积分" help="正数增加，负数扣减；扣减不能超过现有积分">
          <InputNumber
            precision={0}
            style={{ width: '100%' }}
            value={points}
            onChange={(v) => {
              setPoints(v);
              newAttempt();
            }}
            data-testid="card-adjust-points"
          />
        </Form.Item>
        <Form.Item label="调整原因">
          <Input.TextArea
            maxLength={200}
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              newAttempt();
            }}
            data-testid="card-adjust-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /carpark/carduslist (会员列表; docs/product.md#member-cards): members' cards with their balance and
 * points; 开卡 (also /carpark/creatcardus), edit (/carpark/editcardus?id=), 充值, 调整积分, the card's
 * life (激活, 冻结, 解冻, 挂失补卡, 注销) and its ledgers. Opening and acting on cards takes `cardopen`;
 * a cashier may recharge; a merchant (role `card`) reads.
 */
export default function CardList() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const route = pathname.endsWith('/creatcardus') ? 'add' : pathname.endsWith('/editcardus') ? 'edit' : null;
  const list = useResourceList(memberCard, LIST_OPTIONS);
  const form = useResourceForm(memberCard);
  const queryClient = useQueryClient();
  const canRecharge = useCanWrite(CARD_ROLES.recharge);
  const canIssue = useCanWrite(CARD_ROLES.issue);
  const [recharging, setRecharging] = useState<MemberCardItem | null>(null);
  const [adjusting, setAdjusting] = useState<MemberCardItem | null>(null);
  const [viewingId, setViewingId] = useState<number | null>(null);
  const [importing, setImporting] = useState(false);
  // the drawer follows the list's row, so an action's result shows at once
  const viewing = viewingId === null ? null : (list.items.find((r) => r.id === viewingId) ?? null);
  useFormFromAddress({
    route,
    linkId: Number(params.get('id')) || 0,
    items: list.items,
    ready: !list.loading && list.total > 0,
    form,
    listPath: LIST,
    missing: '会员卡不存在',
  });
  const changed = () => {
    void invalidateResource(queryClient, memberCard.def.name);
    list.reload();
  };
  return (
    <>
      <ResourcePage<MemberCardItem>
        resource={memberCard}
        listOptions={LIST_OPTIONS}
        title="会员列表"
        form={form}
        widgets={widgets}
        toolbar={
          <Button onClick={() => setImporting(true)} data-testid="card-import-open">
            导入
          </Button>
        }
        columns={{
          template_name: {
            render: (v: string, r) => (
              <Tag color={r.template_color} style={{ marginInlineEnd: 0 }}>
                {v}
              </Tag>
            ),
          },
          balance: { align: 'right', render: (v: string, r) => <Money value={v} testId={`card-balance-${r.id}`} /> },
          bonus: { align: 'right' },
          houses: { ellipsis: true },
        }}
        rowActions={(row) => (
          <Space size={0}>
            {canRecharge && row.status === 'Y' && (
              <Button size="small" type="link" onClick={() => setRecharging(row)} data-testid={`card-recharge-${row.id}`}>
                充值
              </Button>
            )}
            <Button size="small" type="link" onClick={() => setViewingId(row.id)} data-testid={`card-ledger-${row.id}`}>
              详情
            </Button>
          </Space>
        )}
      />
      <CardImport open={importing} onClose={() => setImporting(false)} onDone={changed} />
      {recharging && (
        <RechargeDialog
          card={recharging}
          open
          onClose={(done) => {
            setRecharging(null);
            if (done) changed();
          }}
        />
      )}
      {adjusting && (
        <AdjustPoints
          card={adjusting}
          onClose={(done) => {
            setAdjusting(null);
            if (done) changed();
          }}
        />
      )}
      {viewing && (
        <CardDrawer
          card={viewing}
          onClose={() => setViewingId(null)}
          actions={
            <Space size={4} wrap>
              {canRecharge && viewing.status === 'Y' && (
                <Button size="small" type="primary" onClick={() => setRecharging(viewing)} data-testid="card-drawer-recharge">
                  充值
                </Button>
              )}
              {canIssue && (viewing.status === 'Y' || viewing.status === 'I') && (
                <Button size="small" onClick={() => setAdjusting(viewing)} data-testid={`card-adjust-${viewing.id}`}>
                  调整积分
                </Button>
              )}
              <WorkflowActions flow={memberCardFlow} row={viewing as never} resource={memberCard.def.name} onDone={changed} />
            </Space>
          }
        />
      )}
    </>
  );
}
