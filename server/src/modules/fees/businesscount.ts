import {
  addDays,
  BUSINESSCOUNT_ROLES,
  fenToYuan,
  ONLINE_PAYEE,
  PAY_TYPE_CH,
  PAY_TYPES,
  toFen,
  type BusinessCountAnswer,
  type BusinessFigures,
  type PayTypeName,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineExport } from '../../jobs/exports.js';
import { defineMethod } from '../../http/registry.js';
import { sheetOf } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { countedPayTypes } from '../leader/paytypes.js';

/**
 * 营业统计 (docs/product.md#businesscount): the counter's business of a range of business days per
 * 收款人 × 支付方式, counted as 交班 counts a shift (shifts.ts) and 收款统计 its receipts (reports.ts):
 * - 收款: the receipts made in the range and not voided, Σ 实收 (paid_amount), by the account that
 *   took them (cashier_id; none, as a scan-to-pay receipt: 线上), on the day they were made;
 * - 作废: the receipts voided in the range (voided_at), Σ 实收, by the account that took them;
 * - 退款: the refunds approved in the range (approved_at), Σ the part returned the way it was paid
 *   (cash_amount; the part back to the owner's balance is no money out), by the account that asked
 *   for it (a request made before the applicant was kept: the receipt's cashier), under the
 *   receipt's pay method;
 * - 净收款 = 收款 − 退款 (a voided receipt is not in 收款).
 * One statement of three grouped reads, each by its time through an index holding what it sums
 * (migration 202612021730): a month of a community's 40,000 receipts is read from the index alone.
 */

type Kind = 'paid' | 'voided' | 'refund';
interface Group {
  kind: Kind;
  day: string;
  cashier_id: string | null;
  cashier_name: string;
  pay_type: PayTypeName;
  /** the group's own way the receipt was taken by (自定义支付方式); null: the system's */
  pay_method_id: number | null;
  n: number;
  amount: string;
}

/** The range asked, both days included; empty: today (one day given alone: that day). */
export function businessRange(input: { start_date?: string | null | undefined; end_date?: string | null | undefined }) {
  const start = input.start_date || input.end_date || today();
  const end = input.end_date || input.start_date || today();
  return { start_date: start, end_date: end };
}

interface Sums {
  receipts: number;
  paid: bigint;
  refunds: number;
  refunded: bigint;
  voided: number;
  voidedFen: bigint;
}
const zero = (): Sums => ({ receipts: 0, paid: 0n, refunds: 0, refunded: 0n, voided: 0, voidedFen: 0n });
function add(s: Sums, g: Group) {
  const fen = toFen(g.amount);
  if (g.kind === 'paid') {
    s.receipts += g.n;
    s.paid += fen;
  } else if (g.kind === 'refund') {
    s.refunds += g.n;
    s.refunded += fen;
  } else {
    s.voided += g.n;
    s.voidedFen += fen;
  }
}
const figures = (s: Sums): BusinessFigures => ({
  receipts: s.receipts,
  receipts_amount: fenToYuan(s.paid),
  refunds: s.refunds,
  refunds_amount: fenToYuan(s.refunded),
  voided: s.voided,
  voided_amount: fenToYuan(s.voidedFen),
  net: fenToYuan(s.paid - s.refunded),
});

export async function businessCount(
  db: Kysely<DB>,
  rid: number,
  input: { start_date?: string | null | undefined; end_date?: string | null | undefined },
): Promise<BusinessCountAnswer> {
  const { start_date, end_date } = businessRange(input);
  // the session runs in the business time zone: these are the range's first and next days' midnights
  const from = sql`${start_date}::date::timestamptz`;
  const to = sql`${addDays(end_date, 1)}::date::timestamptz`;
  const rows = await sql<Group>`
    SELECT 'paid' AS kind, to_char(created_at::date, 'YYYY-MM-DD') AS day, cashier_id::text AS cashier_id, min(cashier_name) AS cashier_name,
      pay_type, pay_method_id, count(*)::int AS n, sum(paid_amount)::numeric(14,2)::text AS amount
    FROM fee_payments
    WHERE rid = ${rid} AND created_at >= ${from} AND created_at < ${to} AND status <> 'V'
    GROUP BY created_at::date, cashier_id, pay_type, pay_method_id
    UNION ALL
    SELECT 'voided', to_char(voided_at::date, 'YYYY-MM-DD'), cashier_id::text, min(cashier_name), pay_type, pay_method_id, count(*)::int,
      sum(paid_amount)::numeric(14,2)::text
    FROM fee_payments
    WHERE rid = ${rid} AND status = 'V' AND voided_at >= ${from} AND voided_at < ${to}
    GROUP BY voided_at::date, cashier_id, pay_type, pay_method_id
    UNION ALL
    SELECT 'refund', to_char(f.approved_at::date, 'YYYY-MM-DD'), coalesce(f.applicant_id, p.cashier_id)::text,
      min(CASE WHEN f.applicant_id IS NULL THEN p.cashier_name ELSE f.applicant END), p.pay_type, p.pay_method_id, count(*)::int,
      sum(f.cash_amount)::numeric(14,2)::text
    FROM fee_refunds f JOIN fee_payments p ON p.rid = f.rid AND p.id = f.payment_id
    WHERE f.rid = ${rid} AND f.status = 'Y' AND f.approved_at >= ${from} AND f.approved_at < ${to}
    GROUP BY f.approved_at::date, coalesce(f.applicant_id, p.cashier_id), p.pay_type, p.pay_method_id`.execute(db);
  // the own ways by their current names, in the group's order (as 财务报表 names them)
  const wayIds = [...new Set(rows.rows.flatMap((g) => (g.pay_method_id === null ? [] : [Number(g.pay_method_id)])))];
  const ways = wayIds.length ? await db.selectFrom('pay_methods').select(['id', 'name', 'sort']).where('id', 'in', wayIds).execute() : [];
  const wayOf = new Map(ways.map((w) => [Number(w.id), w]));

  const counted = await countedPayTypes(db, rid);
  type MethodSums = Sums & { ways: Map<number, Sums> };
  const payees = new Map<string, { id: number | null; name: string; all: Sums; methods: Map<PayTypeName, MethodSums> }>();
  const days = new Map<string, Sums>();
  const all = zero();
  const inReceived = zero();
  for (const g of rows.rows) {
    const key = g.cashier_id ?? '';
    let p = payees.get(key);
    if (!p) {
      p = {
        id: g.cashier_id === null ? null : Number(g.cashier_id),
        name: g.cashier_id === null ? ONLINE_PAYEE : '',
        all: zero(),
        methods: new Map(),
      };
      payees.set(key, p);
    }
    // the name on the cashier's receipts (their refunds' applicant name when they took none)
    if (p.id !== null && (!p.name || g.kind !== 'refund')) p.name = g.cashier_name || p.name;
    let m = p.methods.get(g.pay_type);
    if (!m) p.methods.set(g.pay_type, (m = { ...zero(), ways: new Map() }));
    let d = days.get(g.day);
    if (!d) days.set(g.day, (d = zero()));
    for (const s of [p.all, m, d, all]) add(s, g);
    if (g.pay_method_id !== null) {
      const id = Number(g.pay_method_id);
      let w = m.ways.get(id);
      if (!w) m.ways.set(id, (w = zero()));
      add(w, g);
    }
    if (counted.has(g.pay_type)) add(inReceived, g);
  }
  const order = (t: PayTypeName) => PAY_TYPES.indexOf(t);
  return {
    start_date,
    end_date,
    payees: [...payees.values()]
      .sort(
        (a, b) => (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || a.name.localeCompare(b.name, 'zh-CN') || (a.id ?? 0) - (b.id ?? 0),
      )
      .map((p) => ({
        cashier_id: p.id,
        cashier_name: p.name,
        ...figures(p.all),
        methods: [...p.methods.entries()]
          .sort(([a], [b]) => order(a) - order(b))
          .map(([t, s]) => ({
            pay_type: t,
            pay_type_ch: PAY_TYPE_CH[t],
            counted: counted.has(t) ? ('Y' as const) : ('N' as const),
            ...figures(s),
            ways: [...s.ways.entries()]
              .sort(([a], [b]) => (wayOf.get(a)?.sort ?? 0) - (wayOf.get(b)?.sort ?? 0) || a - b)
              .map(([id, w]) => ({ method_id: id, name: wayOf.get(id)?.name ?? '', ...figures(w) })),
          })),
      })),
    totals: figures(all),
    counted_net: fenToYuan(inReceived.paid - inReceived.refunded),
    days: [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, s]) => ({ day, ...figures(s) })),
  };
}

const businesscount = defineMethod('businesscount', {
  side: 'community',
  roles: BUSINESSCOUNT_ROLES,
  writes: false,
  summary:
    '营业统计：日期区间（默认今天，最长 92 天）内按收款人（收银员、线上）× 支付方式的收款、退款、作废笔数与金额和净收款，收款人小计、合计，以及按日汇总',
  handler: (ctx, input) => businessCount(ctx.db, ctx.rid, input),
});

const FIGURE_COLUMNS: Array<{ header: string; value: (r: BusinessFigures) => string | number }> = [
  { header: '收款笔数', value: (r) => r.receipts },
  { header: '收款金额', value: (r) => r.receipts_amount },
  { header: '退款笔数', value: (r) => r.refunds },
  { header: '退款金额', value: (r) => r.refunds_amount },
  { header: '作废笔数', value: (r) => r.voided },
  { header: '作废金额', value: (r) => r.voided_amount },
  { header: '净收款', value: (r) => r.net },
];

type SheetRow = { a: string; b: string; f: BusinessFigures | null };

const businesscountexport = defineExport('businesscountexport', {
  roles: BUSINESSCOUNT_ROLES,
  summary: '导出营业统计为 Excel：按收款人 × 支付方式的明细、收款人小计、合计，其下按日汇总（筛选同营业统计）',
  filename: (input) => {
    const r = businessRange(input);
    return `营业统计_${r.start_date}_${r.end_date}.xlsx`;
  },
  async sheet(scope, input) {
    const r = await businessCount(scope.db, scope.rid, input);
    const rows: SheetRow[] = [
      ...r.payees.flatMap((p) => [
        ...p.methods.flatMap((m) => [
          { a: p.cashier_name, b: m.counted === 'Y' ? m.pay_type_ch : `${m.pay_type_ch}（不计入实收）`, f: m as BusinessFigures },
          ...m.ways.map((w) => ({ a: p.cashier_name, b: `其中：${w.name}`, f: w as BusinessFigures })),
        ]),
        { a: p.cashier_name, b: '小计', f: p as BusinessFigures },
      ]),
      { a: '合计', b: '', f: r.totals },
      { a: '其中计入实收', b: '', f: { ...r.totals, net: r.counted_net } },
      { a: '', b: '', f: null },
      { a: '按日汇总', b: '', f: null },
      ...r.days.map((d) => ({ a: d.day, b: '全部', f: d as BusinessFigures })),
    ];
    return sheetOf(
      '营业统计',
      [
        { header: '收款人', value: (x: SheetRow) => x.a, width: 14 },
        { header: '支付方式', value: (x: SheetRow) => x.b },
        ...FIGURE_COLUMNS.map((c) => ({ header: c.header, value: (x: SheetRow) => (x.f ? c.value(x.f) : '') })),
      ],
      rows,
    );
  },
});

export const businessCountMethods = [businesscount, businesscountexport];
