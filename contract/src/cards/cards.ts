/**
 * Members' cards (会员列表 /carpark/carduslist, 开卡 creatcardus, editcardus; docs/product.md#member-cards)
 * as a resource (docs/resources.md), with their actions: activate, freeze and unfreeze, report lost
 * with a replacement card, close at zero, adjust points with a reason, and the card's ledgers.
 * A member holds at most one live card; the card shows the member's balance and points, which only
 * ledger rows change (server/src/modules/cards/ledger.ts).
 */
import { z } from 'zod';
import { id, idempotencyKey, int, optionalId, paging, text } from '../common.js';
import { createTimeColumn, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { MOBILE_RE } from '../owners.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { CARD_ROLES } from './roles.js';

export const MEMBER_CARD_STATUS = valueEnum({
  I: { text: '未激活', tone: 'default' },
  Y: { text: '正常', tone: 'success' },
  F: { text: '冻结', tone: 'warning' },
  L: { text: '挂失', tone: 'error' },
  C: { text: '注销', tone: 'default' },
});
export type MemberCardStatus = keyof typeof MEMBER_CARD_STATUS;

export const MEMBER_LEVEL = valueEnum({
  普通会员: { text: '普通会员' },
  银卡会员: { text: '银卡会员', tone: 'processing' },
  金卡会员: { text: '金卡会员', tone: 'warning' },
  钻石会员: { text: '钻石会员', tone: 'success' },
});
export type MemberLevel = keyof typeof MEMBER_LEVEL;

/** A card number: letters, digits and dashes, 4 to 32 of them. */
export const cardNo = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{4,32}$/, '卡号应为 4 到 32 位字母、数字或 -');

export interface MemberCardItem {
  id: number;
  card_no: string;
  template_id: number;
  template_name: string;
  template_color: string;
  member_id: number;
  realname: string;
  mobile: string;
  level: MemberLevel;
  level_ch: string;
  tags: string[];
  hids: number[];
  /** the houses' addresses, 、-joined */
  houses: string;
  status: MemberCardStatus;
  status_ch: string;
  /** the member's balance and points (the card shows the member's) */
  balance: string;
  bonus: number;
  /** whether a ledger row names the card: its number is fixed then */
  transacted: boolean;
  replaced_by_no: string;
  valid_until: string | null;
  remark: string;
  create_time: string;
}

const tags = z
  .array(text(10).min(1))
  .max(10, '标签最多 10 个')
  .default([])
  .transform((v) => [...new Set(v)]);

export const memberCard = resource<MemberCardItem>()({
  name: 'membercard',
  label: '会员卡',
  methods: {
    list: 'carduslist',
    add: 'creatcardus',
    edit: 'editcardus',
    del: 'cardusdel',
    info: 'cardusinfo',
    export: 'cardusexport',
  },
  roles: { read: CARD_ROLES.staff, write: CARD_ROLES.issue },
  echoId: true,
  fields: {
    card_no: {
      label: '卡号',
      zod: cardNo,
      filterZod: text(32).optional(),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 130,
      help: '有交易后卡号不能修改',
    },
    template_id: {
      label: '会员卡',
      zod: id,
      widget: { small: 'cardtemplate_small_list' },
      in: ['form', 'filter'],
      once: true,
    },
    hid: {
      label: '房屋',
      zod: optionalId,
      widget: 'room',
      in: ['form'],
      once: true,
      help: '业主开卡：先选房屋再选会员；非住户请留空并填写下面的姓名和手机号',
    },
    member_id: { label: '会员', zod: optionalId, widget: { membersOf: 'hid' }, in: ['form'], once: true },
    realname: { label: '姓名', zod: text(30).default(''), in: ['form'], once: true, help: '非住户开卡时填写' },
    mobile: {
      label: '手机号',
      zod: z.union([z.literal(''), z.string().trim().regex(MOBILE_RE, '手机号码格式不正确，应为11位手机号')]).default(''),
      in: ['form'],
      once: true,
    },
    level: {
      label: '会员等级',
      zod: enumSchema(MEMBER_LEVEL, '会员等级').default('普通会员'),
      enum: MEMBER_LEVEL,
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    tags: { label: '标签', zod: tags, widget: 'custom', in: ['form', 'export'] },
    status: {
      label: '状态',
      zod: z.enum(['I', 'Y'], { error: '开卡状态只能是未激活或正常' }).default('Y'),
      filterZod: enumSchema(MEMBER_CARD_STATUS, '状态').optional(),
      enum: MEMBER_CARD_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
      once: true,
      help: '未激活：会员激活后才能使用',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
    keyword: { label: '会员姓名/手机号', zod: text(30), in: ['filter'] },
    create_time: { label: '开卡时间', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'template_name', label: '会员卡', width: 130 },
    { key: 'realname', label: '会员', width: 90 },
    { key: 'mobile', label: '手机号', width: 120 },
    { key: 'houses', label: '房屋', width: 160 },
    { key: 'balance', label: '余额', widget: 'money', width: 100 },
    { key: 'bonus', label: '积分', width: 80 },
    { key: 'valid_until', label: '有效期至', widget: 'date', width: 110 },
    createTimeColumn('开卡时间'),
  ],
  rules: [
    {
      message: '请选择会员，或填写非住户的姓名和手机号',
      path: 'member_id',
      // an edit keeps the card's member
      check: (v) => v.id !== undefined || !!v.member_id || (!!v.realname && !!v.mobile),
    },
  ],
});

/** A ledger row of a card as the card's ledgers show it (balance and points in one list). */
export interface CardLedgerRow {
  id: number;
  /** balance | bonus */
  kind: 'balance' | 'bonus';
  orderid: string;
  merchant: string;
  /** 充值, 充值赠送, 期初余额, 物业费, 积分兑换… */
  what: string;
  /** 增加 / 减少 */
  direction: string;
  /** money (balance rows) or points (bonus rows), signed */
  amount: string;
  after: string;
  paytype_ch: string;
  operator: string;
  remark: string;
  create_time: string;
}

export const CARD_LEDGER_KIND = valueEnum({ balance: { text: '余额' }, bonus: { text: '积分' } });

const why = (label: string) => ({ reason: text(200).min(1, `请填写${label}`) });

/** A card's life: activate, freeze and unfreeze, report lost (a replacement takes over), close at zero. */
export const memberCardFlow = workflow({
  name: 'membercard',
  label: '会员卡',
  states: MEMBER_CARD_STATUS,
  transitions: {
    activate: { method: 'cardusactivate', label: '激活', from: ['I'], to: 'Y', roles: CARD_ROLES.issue },
    freeze: {
      method: 'cardusfreeze',
      label: '冻结',
      from: ['Y'],
      to: 'F',
      roles: CARD_ROLES.issue,
      input: why('冻结原因'),
      inputLabels: { reason: '冻结原因' },
      confirm: '冻结后该卡不能消费余额和积分，可随时解冻。',
      danger: true,
    },
    unfreeze: { method: 'cardusunfreeze', label: '解冻', from: ['F'], to: 'Y', roles: CARD_ROLES.issue },
    lost: {
      method: 'carduslost',
      label: '挂失补卡',
      from: ['I', 'Y', 'F'],
      to: 'L',
      roles: CARD_ROLES.issue,
      input: { new_card_no: cardNo, reason: text(200).default('') },
      inputLabels: { new_card_no: '新卡号', reason: '备注' },
      confirm: '挂失后原卡停用，余额和积分由新卡继承。',
      danger: true,
    },
    close: {
      method: 'carduseclose',
      label: '注销',
      from: ['I', 'Y', 'F'],
      to: 'C',
      roles: CARD_ROLES.issue,
      input: why('注销原因'),
      inputLabels: { reason: '注销原因' },
      confirm: '注销后不可恢复；余额须为 0。',
      danger: true,
    },
  },
  steps: { create: '开卡', replace: '补卡（挂失换新）' },
  logMethod: 'carduslog',
});

export const cardSchemas = {
  ...memberCard.schemas,
  ...memberCardFlow.schemas,
  /** adds or takes points with a reason */
  cardbonusadjust: z.object({
    id,
    points: int(-1_000_000, 1_000_000).refine((v) => v !== 0, '调整积分不能为 0'),
    reason: text(200).min(1, '请填写调整原因'),
    idempotency_key: idempotencyKey.optional(),
  }),
  cardledgerlist: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    id,
    kind: enumSchema(CARD_LEDGER_KIND, '流水类型').default('balance'),
  }),
} as const;

export type CardOutputs = ResourceOutputs<typeof memberCard.def, MemberCardItem> & {
  cardusactivate: MemberCardItem;
  cardusfreeze: MemberCardItem;
  cardusunfreeze: MemberCardItem;
  carduslost: MemberCardItem;
  carduseclose: MemberCardItem;
  carduslog: { items: WorkflowLogItem[] };
  cardbonusadjust: { id: number; bonus: number };
  cardledgerlist: { items: CardLedgerRow[]; total: number };
};
