/**
 * 签约回款月报 (/crm/contractmonthly; docs/product.md#crm-contracts): a year's contracts signed and
 * money collected by month. Signed: the contracts approved (生效, 到期, 已续签, 终止) by their
 * signing date, with their amount and kind. Planned: the instalments of those contracts that fall
 * due in the month, and how much of that has been paid since. Collected: the instalments paid in
 * the month (the business calendar's month of the payment), a refunded one not.
 */
import {
  CONTRACT_KIND,
  CONTRACT_READERS,
  fenToYuan,
  mulDivRoundHalfUp,
  toFen,
  type ContractKind,
  type ContractMonthFigures,
  type ContractMonthly,
  type ContractMonthRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf, type SheetColumn } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';

const KINDS = Object.keys(CONTRACT_KIND) as ContractKind[];
/** the statuses of a contract that was signed: approved, whatever came after */
const SIGNED = ['Y', 'E', 'R', 'T'];

interface Acc {
  signed_count: number;
  signed: bigint;
  kinds: Record<ContractKind, number>;
  planned: bigint;
  planned_paid: bigint;
  collected: bigint;
  collected_count: number;
}

const newAcc = (): Acc => ({
  signed_count: 0,
  signed: 0n,
  kinds: { sale: 0, lease: 0, parking: 0, other: 0 },
  planned: 0n,
  planned_paid: 0n,
  collected: 0n,
  collected_count: 0,
});

const num = (v: unknown) => Number(v);

function figures(a: Acc): ContractMonthFigures {
  return {
    signed_count: a.signed_count,
    signed_amount: fenToYuan(a.signed),
    kinds: { ...a.kinds },
    planned_amount: fenToYuan(a.planned),
    planned_paid: fenToYuan(a.planned_paid),
    // one decimal of a percent: paid × 1000 ÷ planned, rounded half up
    collection_rate: a.planned === 0n ? null : (Number(mulDivRoundHalfUp(a.planned_paid, 1000n, a.planned)) / 10).toFixed(1),
    collected_amount: fenToYuan(a.collected),
    collected_count: a.collected_count,
  };
}

export async function contractMonthly(db: Kysely<DB>, rid: number, year: number): Promise<ContractMonthly> {
  const from = `${year}-01-01`;
  const to = `${year + 1}-01-01`;
  const [signed, planned, collected] = await Promise.all([
    sql<{ m: number; kind: string; n: number; amount: string }>`
      SELECT extract(month FROM sign_date)::int AS m, kind, count(*)::int AS n, sum(total_amount)::text AS amount
      FROM contracts
      WHERE rid = ${rid} AND status IN (${sql.join(SIGNED)}) AND sign_date >= ${from}::date AND sign_date < ${to}::date
      GROUP BY 1, 2`.execute(db),
    sql<{ m: number; amount: string; paid: string }>`
      SELECT extract(month FROM i.due_date)::int AS m, sum(i.amount)::text AS amount,
             coalesce(sum(i.amount) FILTER (WHERE i.paid_at IS NOT NULL AND i.refunded = 'N'), 0)::text AS paid
      FROM contract_instalments i
      JOIN contracts c ON c.rid = i.rid AND c.id = i.contract_id
      WHERE i.rid = ${rid} AND c.status IN (${sql.join(SIGNED)}) AND i.due_date >= ${from}::date AND i.due_date < ${to}::date
      GROUP BY 1`.execute(db),
    // the session's time zone is the business calendar's (db/connection.ts), so a day's bounds and months are its
    sql<{ m: number; n: number; amount: string }>`
      SELECT extract(month FROM i.paid_at)::int AS m, count(*)::int AS n, sum(i.amount)::text AS amount
      FROM contract_instalments i
      WHERE i.rid = ${rid} AND i.refunded = 'N' AND i.paid_at >= ${from}::date::timestamptz AND i.paid_at < ${to}::date::timestamptz
      GROUP BY 1`.execute(db),
  ]);
  const months = Array.from({ length: 12 }, newAcc);
  const at = (m: unknown) => months[num(m) - 1]!;
  for (const r of signed.rows) {
    const a = at(r.m);
    a.signed_count += num(r.n);
    a.signed += toFen(r.amount);
    a.kinds[r.kind as ContractKind] += num(r.n);
  }
  for (const r of planned.rows) {
    const a = at(r.m);
    a.planned += toFen(r.amount);
    a.planned_paid += toFen(r.paid);
  }
  for (const r of collected.rows) {
    const a = at(r.m);
    a.collected += toFen(r.amount);
    a.collected_count += num(r.n);
  }
  const all = newAcc();
  for (const a of months) {
    all.signed_count += a.signed_count;
    all.signed += a.signed;
    for (const k of KINDS) all.kinds[k] += a.kinds[k];
    all.planned += a.planned;
    all.planned_paid += a.planned_paid;
    all.collected += a.collected;
    all.collected_count += a.collected_count;
  }
  return {
    year,
    rows: months.map((a, i): ContractMonthRow => ({ month: i + 1, ...figures(a) })),
    totals: figures(all),
  };
}

const yearOf = (input: { year?: number | undefined }) => input.year ?? Number(today().slice(0, 4));

const contractmonthly = defineMethod('contractmonthly', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary:
    '签约回款月报：一年（默认本年）每月签约的合同（已审批通过的，按签订日期：份数、金额、各类别份数）、计划回款（当月到期的收款计划及其已收）、回款率与实际回款（按收款时间，退款的不计）；全年合计',
  handler: async (ctx, input) => contractMonthly(ctx.db, ctx.rid, yearOf(input)),
});

type MonthLine = ContractMonthFigures & { label: string };

const contractmonthlyexport = defineExport('contractmonthlyexport', {
  roles: CONTRACT_READERS,
  summary: '导出签约回款月报（Excel）：每月签约份数与金额、各类别份数、计划回款、回款率、实际回款，及全年合计',
  filename: (input) => `签约回款月报_${yearOf(input)}.xlsx`,
  async sheet({ db, rid }, input) {
    const report = await contractMonthly(db, rid, yearOf(input));
    const lines: MonthLine[] = [
      ...report.rows.map((r) => ({ ...r, label: `${report.year}年${r.month}月` })),
      { ...report.totals, label: '合计' },
    ];
    const columns: SheetColumn<MonthLine>[] = [
      { header: '月份', value: (r) => r.label, width: 12 },
      { header: '签约份数', value: (r) => r.signed_count },
      { header: '签约金额', value: (r) => Number(r.signed_amount), width: 14 },
      ...KINDS.map((k): SheetColumn<MonthLine> => ({ header: CONTRACT_KIND[k].text, value: (r) => r.kinds[k] })),
      { header: '计划回款', value: (r) => Number(r.planned_amount), width: 14 },
      { header: '计划已收', value: (r) => Number(r.planned_paid), width: 14 },
      { header: '回款率(%)', value: (r) => r.collection_rate ?? '' },
      { header: '实际回款', value: (r) => Number(r.collected_amount), width: 14 },
      { header: '回款笔数', value: (r) => r.collected_count },
    ];
    return sheetOf(`签约回款${report.year}`, columns, lines);
  },
});

export const monthlyMethods = [contractmonthly, contractmonthlyexport];
