/**
 * 营收报表 (/feecounts/salesreports) and 订单报表 (/feecounts/orderlistreport), docs/product.md#sales-reports:
 * the money received in a range of business days by business line, and every order that took it.
 * A line is money that came in: a fee receipt's paid part (not the balance it used), a top-up of the
 * owners' balance, a parking desk's monthly renewal or a parking coupon sold to a store, a member
 * card's recharge. Money spent from a balance (charging, the counter, a receipt's 余额抵扣) came in
 * once already, when the balance was topped up; sign-up fees, leases and parking bills are fee bills
 * and come in on fee receipts.
 */
import { z } from 'zod';
import { paging, text } from '../common.js';
import { daysBetween } from '../dates.js';
import type { ExportQueued } from '../jobs.js';
import { enumOrAll, enumSchema, valueEnum, wireDay } from '../kit/resource.js';
import type { CommunityModule } from '../leader/modules.js';
import { PAY_TYPE } from '../fees.js';

/** Who reads them: the financecount group's, as 财务报表 (admin always passes). */
export const SALES_REPORT_ROLES = ['financecount', 'feecount'] as const;

/** The longest range either report answers: a year, a leap one included. */
export const SALES_MAX_DAYS = 366;

/** The business lines, in their order on the page. */
export const SALES_LINE = valueEnum({
  fee: { text: '物业收费' },
  topup: { text: '预存充值' },
  parking: { text: '停车收费' },
  card: { text: '会员卡充值' },
});
export type SalesLine = keyof typeof SALES_LINE;
export const SALES_LINES = Object.keys(SALES_LINE) as SalesLine[];

export interface SalesLineDef {
  /** the community module whose money it is: closed, the line is not shown */
  module: CommunityModule;
  /** the page where its money is listed; `range: true` when it reads start_date and end_date from its address */
  link: { path: string; range?: boolean };
  /** how it is counted (docs/product.md#sales-reports) */
  formula: string;
}

export const SALES_LINE_DEFS: Record<SalesLine, SalesLineDef> = {
  fee: {
    module: 'fees',
    link: { path: '/feecounts/paymentstatis', range: true },
    formula:
      '收银台与线上缴费的收据实收（不含余额抵扣，含在收据上缴纳的临停费、车位、活动、租赁等账单），与财务报表的收银收款相同；退款为审批通过时间在区间内的原路退款',
  },
  topup: {
    module: 'fees',
    link: { path: '/feecounts/financereport' },
    formula: '收银台预存到业主余额的金额，与财务报表的预存充值相同',
  },
  parking: {
    module: 'parking',
    link: { path: '/carpark/parkingincome' },
    formula: '停车场岗亭收取的月租续费与商户购买停车券的金额（在收银台缴纳的停车账单与临停费计入物业收费）',
  },
  card: {
    module: 'cards',
    link: { path: '/feecounts/cardlog' },
    formula: '会员卡充值的实付金额（赠送金额不计）；退款为审批通过时间在区间内的充值退款，与会员卡流水相同',
  },
};

export const SALES_GRAIN = valueEnum({ day: { text: '日' }, month: { text: '月' } });
export type SalesGrain = keyof typeof SALES_GRAIN;

/** 已支付 | 部分退款 | 已退款 | 已作废 */
export const ORDER_STATUS = valueEnum({
  Y: { text: '已支付', tone: 'success' },
  P: { text: '部分退款', tone: 'warning' },
  R: { text: '已退款', tone: 'default' },
  V: { text: '已作废', tone: 'error' },
});
export type OrderStatus = keyof typeof ORDER_STATUS;

/** Whether an order's payment method counts in received (支付方式, paytypelist), as a filter and a column. */
export const COUNTED = valueEnum({ Y: { text: '计入实收', tone: 'success' }, N: { text: '不计入实收', tone: 'default' } });
/** What 计入实收 counts (docs/product.md#sales-reports). */
export const COUNTED_FORMULA =
  '净收入中以计入实收的支付方式收取的部分（收款减退款）；哪些支付方式计入实收由集团在「支付方式」中设置，如预存款抵扣、积分抵扣不计入';

/** A range of business days: both empty is this month up to today; at most a year. */
const range = {
  start_date: z.union([z.literal(''), wireDay]).optional(),
  end_date: z.union([z.literal(''), wireDay]).optional(),
};
function checkRange(v: { start_date?: string | undefined; end_date?: string | undefined }, c: z.RefinementCtx) {
  if (!v.start_date !== !v.end_date) {
    c.addIssue({ code: 'custom', path: [v.start_date ? 'end_date' : 'start_date'], message: '请选择日期区间' });
  } else if (v.start_date && v.end_date) {
    if (v.start_date > v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
    else if (daysBetween(v.start_date, v.end_date) + 1 > SALES_MAX_DAYS) {
      c.addIssue({ code: 'custom', path: ['end_date'], message: `日期区间不能超过 ${SALES_MAX_DAYS} 天` });
    }
  }
}

const salesInput = z.object({ ...range, grain: enumSchema(SALES_GRAIN, '统计粒度').default('day') }).superRefine(checkRange);

const orderFilters = {
  ...range,
  line: enumOrAll(SALES_LINE, '业务').optional(),
  pay_type: enumOrAll(PAY_TYPE, '支付方式').optional(),
  status: enumOrAll(ORDER_STATUS, '状态').optional(),
  /** 计入实收: Y the orders paid by a method the group counts in received, N the others */
  counted: enumOrAll(COUNTED, '计入实收').optional(),
  /** an order or receipt number, a room, a plate, a payer */
  keyword: text(40).optional(),
};

export const salesReportSchemas = {
  /** 营收报表: each line's count, received, refunded, net, and the net of each day or month */
  salesreports: salesInput,
  salesreportsexport: salesInput,
  /** 订单报表: every paid order of the lines, newest first, with the filtered set's summary */
  orderlistreport: z.object({ ...paging, ...orderFilters }).superRefine(checkRange),
  orderlistreportexport: z.object(orderFilters).superRefine(checkRange),
} as const;

export interface SalesFigures {
  count: number;
  received: string;
  refunded: string;
  net: string;
  /** 计入实收: the net of the orders paid by a method the group counts in received (支付方式, paytypelist) */
  counted_net: string;
}

export interface SalesLineRow extends SalesFigures {
  line: SalesLine;
  label: string;
}

/** One day (YYYY-MM-DD) or month (YYYY-MM): each shown line's net, and their total. */
export interface SalesGrainRow {
  key: string;
  nets: Partial<Record<SalesLine, string>>;
  total: string;
}

export interface SalesReport {
  start_date: string;
  end_date: string;
  grain: SalesGrain;
  /** the lines of the community's open modules, in SALES_LINES order */
  lines: SalesLineRow[];
  total: SalesFigures;
  rows: SalesGrainRow[];
}

export interface OrderRow {
  /** <line>-<id>: unique across the lines */
  key: string;
  order_no: string;
  line: SalesLine;
  line_ch: string;
  /** a room's address, a plate or a member */
  target: string;
  payer: string;
  pay_type: string;
  pay_type_ch: string;
  /** whether its payment method counts in received (COUNTED) */
  counted: 'Y' | 'N';
  amount: string;
  refunded: string;
  status: OrderStatus;
  status_ch: string;
  /** the operator's name, or 线上 */
  cashier: string;
  create_time: string;
}

export interface OrderListReport {
  items: OrderRow[];
  total: number;
  start_date: string;
  end_date: string;
  /** the filtered set: orders, their amounts (voided ones not counted), refunded, and the net counted in received */
  summary: { count: number; amount: string; refunded: string; counted_net: string };
}

export interface SalesReportOutputs {
  salesreports: SalesReport;
  salesreportsexport: ExportQueued;
  orderlistreport: OrderListReport;
  orderlistreportexport: ExportQueued;
}
