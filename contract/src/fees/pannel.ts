/**
 * 报表首页 (/feecounts/pannelindex, docs/product.md#report-home): the figures of a chosen period in
 * four sections (收费, 工单, 出入, 其他), each a link to its report, and tiles to every report of the
 * /feecounts area. One call (`pannelindex`) answers every card; a card of a module closed in the
 * community, or that the caller's roles may not read, answers null and the page hides it.
 */
import { z } from 'zod';
import { daysBetween } from '../dates.js';
import { wireDay } from '../kit/resource.js';
import { FEE_ROLES } from './roles.js';
import { STEWARD_ROLES } from '../steward/roles.js';
import { INVOICE_ROLES } from '../invoice/roles.js';
import { CARD_REPORT_ROLES } from '../cards/reports.js';
import type { CommunityModule } from '../leader/modules.js';

/** The longest period the home answers: a year, a leap one included. */
export const PANNEL_MAX_DAYS = 366;

/**
 * Who may open /feecounts and so its home: the union of the roles of its reports (the fee reports,
 * the desk's, the invoice report, the member-card reports and 成本统计). The web's /feecounts group
 * and the `pannelindex` method share it.
 */
export const FEECOUNTS_ROLES: readonly string[] = [
  ...new Set<string>([
    ...FEE_ROLES.reports,
    ...STEWARD_ROLES.reports,
    ...INVOICE_ROLES.report,
    ...CARD_REPORT_ROLES,
    ...FEE_ROLES.costRead,
  ]),
];

export const pannelSchemas = {
  /** 报表首页: every card's figure for the business days start_date..end_date (both included) */
  pannelindex: z.object({ start_date: wireDay, end_date: wireDay }).superRefine((v, c) => {
    if (v.start_date > v.end_date) {
      c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
    } else if (daysBetween(v.start_date, v.end_date) + 1 > PANNEL_MAX_DAYS) {
      c.addIssue({ code: 'custom', path: ['end_date'], message: `日期区间不能超过 ${PANNEL_MAX_DAYS} 天` });
    }
  }),
} as const;

export const PANNEL_SECTIONS = {
  fees: '收费',
  orders: '工单',
  passage: '出入',
  other: '其他',
} as const;
export type PannelSection = keyof typeof PANNEL_SECTIONS;

export interface PannelCardDef {
  section: PannelSection;
  title: string;
  /** money: a decimal string (元, two decimals); count: a whole number */
  kind: 'money' | 'count';
  /** the community module whose data it counts: closed, the card answers null */
  module: CommunityModule;
  /** the roles that read it (any one; admin holds all): without them, the card answers null */
  roles: readonly string[];
  /** the report it opens; `range: true` when that report takes the period in its address */
  link: { path: string; range?: boolean };
  /** how it is counted (docs/product.md#report-home) */
  formula: string;
}

const REPORTS = FEE_ROLES.reports;
const DESK = STEWARD_ROLES.reports;

/** The cards, in their order on the page. */
export const PANNEL_CARDS = {
  received: {
    section: 'fees',
    title: '实收金额',
    kind: 'money',
    module: 'fees',
    roles: REPORTS,
    link: { path: '/feecounts/paymentstatis', range: true },
    formula: '区间内各营业日收款（收据）的实收金额之和，与收款统计的实收合计相同',
  },
  payments: {
    section: 'fees',
    title: '收款笔数',
    kind: 'count',
    module: 'fees',
    roles: REPORTS,
    link: { path: '/feecounts/paymentstatis', range: true },
    formula: '区间内开出的收据笔数，与收款统计的笔数相同',
  },
  refunded: {
    section: 'fees',
    title: '退款金额',
    kind: 'money',
    module: 'fees',
    roles: REPORTS,
    link: { path: '/fees/refundlist' },
    formula: '审批通过时间在区间内的退款金额之和（已通过的退款申请）',
  },
  receivable: {
    section: 'fees',
    title: '账期应收',
    kind: 'money',
    module: 'fees',
    roles: REPORTS,
    link: { path: '/feecounts/fees_count' },
    formula: '账期落在区间所跨月份内的账单金额之和（与收费统计同一区间的应收合计相同）',
  },
  repairs_new: {
    section: 'orders',
    title: '新增报修',
    kind: 'count',
    module: 'steward',
    roles: DESK,
    link: { path: '/feecounts/repaircount' },
    formula: '登记时间在区间内的报修工单数（与报修统计的“报修数”相同）',
  },
  repairs_done: {
    section: 'orders',
    title: '完成报修',
    kind: 'count',
    module: 'steward',
    roles: DESK,
    link: { path: '/feecounts/repaircount' },
    formula: '完工时间在区间内的报修工单数',
  },
  complaints_new: {
    section: 'orders',
    title: '新增投诉',
    kind: 'count',
    module: 'steward',
    roles: DESK,
    link: { path: '/feecounts/complaintcount' },
    formula: '登记时间在区间内的投诉、建议与咨询数',
  },
  complaints_done: {
    section: 'orders',
    title: '完成投诉',
    kind: 'count',
    module: 'steward',
    roles: DESK,
    link: { path: '/feecounts/complaintcount' },
    formula: '办结时间在区间内的投诉、建议与咨询数',
  },
  cars_in: {
    section: 'passage',
    title: '车辆入场',
    kind: 'count',
    module: 'parking',
    roles: REPORTS,
    link: { path: '/carpark/carInout' },
    formula: '入场时间在区间内的停车记录数',
  },
  cars_out: {
    section: 'passage',
    title: '车辆出场',
    kind: 'count',
    module: 'parking',
    roles: REPORTS,
    link: { path: '/carpark/carInout' },
    formula: '出场时间在区间内的停车记录数',
  },
  temp_income: {
    section: 'passage',
    title: '临停收入',
    kind: 'money',
    module: 'parking',
    roles: REPORTS,
    link: { path: '/carpark/parkingincome' },
    formula: '区间内各营业日临时停车收费（未作废）之和，与停车收入报表的临停收入相同',
  },
  visitors: {
    section: 'passage',
    title: '访客来访',
    kind: 'count',
    module: 'visitors',
    roles: REPORTS,
    link: { path: '/carpark/visitorlist' },
    formula: '来访时间在区间内的访客登记数',
  },
  passes: {
    section: 'passage',
    title: '门禁通行',
    kind: 'count',
    module: 'access',
    roles: REPORTS,
    link: { path: '/carpark/currentlog' },
    formula: '通行时间在区间内、门禁开门的通行记录数（被拒的不计）',
  },
  signups: {
    section: 'other',
    title: '活动报名',
    kind: 'count',
    module: 'activities',
    roles: REPORTS,
    link: { path: '/service/signuplist' },
    formula: '报名时间在区间内、未取消的活动报名数',
  },
  recharged: {
    section: 'other',
    title: '会员卡充值',
    kind: 'money',
    module: 'cards',
    roles: [...REPORTS, ...CARD_REPORT_ROLES],
    link: { path: '/feecounts/cardlog' },
    formula: '充值时间在区间内、未退款的会员卡充值实付金额之和',
  },
} as const satisfies Record<string, PannelCardDef>;
export type PannelCardKey = keyof typeof PANNEL_CARDS;
export const PANNEL_CARD_KEYS = Object.keys(PANNEL_CARDS) as PannelCardKey[];

/** The tiles below the cards: every report of /feecounts by the spec's groups (docs/product.md#route-table). */
export const PANNEL_TILE_GROUPS = [
  {
    key: 'financecount',
    title: '财务报表',
    paths: ['salesreports', 'orderlistreport', 'discountlog', 'cardlog', 'feebillpaydata', 'financereport'],
  },
  {
    key: 'feecount',
    title: '收费报表',
    paths: ['propertypaystatis', 'fees_count', 'fees_count_nopay', 'month_fees', 'month_linting', 'paymentstatis'],
  },
  { key: 'businesscount', title: '业务报表', paths: ['businesscount', 'electronic', 'refundlist', 'card_verification'] },
  {
    key: 'feecountpannel',
    title: '统计面板',
    paths: ['propertypaycount', 'propertynopaycount', 'costcount', 'repaircount', 'complaintcount'],
  },
] as const;

/** 报表首页's answer: each card's figure (money as '0.00' strings, counts as numbers), null when hidden. */
export interface PannelIndexAnswer {
  start_date: string;
  end_date: string;
  /** the months 账期应收 counts: YYYY-MM of start_date and of end_date */
  start_period: string;
  end_period: string;
  figures: Record<PannelCardKey, string | number | null>;
}

export interface PannelOutputs {
  pannelindex: PannelIndexAnswer;
}
