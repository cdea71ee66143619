/**
 * 报表首页 (pannelindex, docs/product.md#report-home): every card's figure for business days
 * start..end in one call. Each figure is one set-based statement bounded by the range, on a kept
 * total or an index of the range's column where there is one; a card of a module closed in the
 * community (session.modulesOff), or that the caller's roles may not read, is null and not counted.
 */
import { FEECOUNTS_ROLES, PANNEL_CARD_KEYS, PANNEL_CARDS, fenToYuan, hasAnyRole, toFen, type PannelCardKey } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { withinDays } from '../../lib/wire.js';
import { paymentTotals } from './totals.js';

type Figure = string | number | null;
type Range = readonly [string, string];

/** A money sum as the contract's decimal string (two decimals, through fen: never a float). */
const yuan = (v: string | null | undefined): string => fenToYuan(toFen(v ?? '0'));
const sumText = (col: string) => sql<string>`coalesce(sum(${sql.ref(col)}), 0)::numeric(14,2)::text`;
const countInt = sql<number>`count(*)::int`;

/** The statements of the figures; a pair counted by one statement is read once (see `shared`). */
function figureQueries(db: Kysely<DB>, rid: number, range: Range) {
  const [start, end] = range;
  // the kept totals of the payments (fee_payment_totals, by business day): what 收款统计 reads
  const payments = () =>
    paymentTotals(db, rid, start, end)
      .select([sql<string>`coalesce(sum(t.payments), 0)::int`.as('n'), sumText('t.paid_amount').as('amount')])
      .executeTakeFirstOrThrow();
  // 报修统计's kept totals by business day (repair_day_totals)
  const repairs = () =>
    db
      .selectFrom('repair_day_totals')
      .select([sql<number>`coalesce(sum(created), 0)::int`.as('created'), sql<number>`coalesce(sum(finished), 0)::int`.as('finished')])
      .where('rid', '=', rid)
      .where(sql<boolean>`day >= ${start}::date AND day <= ${end}::date`)
      .executeTakeFirstOrThrow();
  const complaints = () =>
    db
      .selectFrom('complaints')
      .select([
        sql<number>`count(*) FILTER (WHERE ${withinDays('created_at', range)})::int`.as('created'),
        sql<number>`count(*) FILTER (WHERE ${withinDays('finished_at', range)})::int`.as('finished'),
      ])
      .where('rid', '=', rid)
      .where(sql<boolean>`(${withinDays('created_at', range)}) OR (${withinDays('finished_at', range)})`)
      .executeTakeFirstOrThrow();
  return { payments, repairs, complaints };
}

async function figures(db: Kysely<DB>, rid: number, range: Range, shown: Set<PannelCardKey>) {
  const [start, end] = range;
  const q = figureQueries(db, rid, range);
  const once = new Map<string, Promise<unknown>>();
  const shared = <T>(key: keyof typeof q, run: () => Promise<T>) => {
    if (!once.has(key)) once.set(key, run());
    return once.get(key) as Promise<T>;
  };
  const readers: Record<PannelCardKey, () => Promise<Figure>> = {
    received: async () => yuan((await shared('payments', q.payments)).amount),
    payments: async () => Number((await shared('payments', q.payments)).n),
    // refunds approved in the range: a community's refunds are few, read through its rows
    refunded: async () =>
      yuan(
        (
          await db
            .selectFrom('fee_refunds')
            .select(sumText('amount').as('s'))
            .where('rid', '=', rid)
            .where('status', '=', 'Y')
            .where(withinDays('approved_at', range))
            .executeTakeFirstOrThrow()
        ).s,
      ),
    // the bills' kept totals (fee_bill_totals) of the months the range spans
    receivable: async () =>
      yuan(
        (
          await db
            .selectFrom('fee_bill_totals')
            .select(sumText('fee').as('s'))
            .where('rid', '=', rid)
            .where('period', '>=', start.slice(0, 7))
            .where('period', '<=', end.slice(0, 7))
            .executeTakeFirstOrThrow()
        ).s,
      ),
    repairs_new: async () => Number((await shared('repairs', q.repairs)).created),
    repairs_done: async () => Number((await shared('repairs', q.repairs)).finished),
    complaints_new: async () => Number((await shared('complaints', q.complaints)).created),
    complaints_done: async () => Number((await shared('complaints', q.complaints)).finished),
    // parking_records_intime / parking_records_outtime
    cars_in: async () =>
      (
        await db
          .selectFrom('parking_records')
          .select(countInt.as('n'))
          .where('rid', '=', rid)
          .where(withinDays('intime', range))
          .executeTakeFirstOrThrow()
      ).n,
    cars_out: async () =>
      (
        await db
          .selectFrom('parking_records')
          .select(countInt.as('n'))
          .where('rid', '=', rid)
          .where(withinDays('outtime', range))
          .executeTakeFirstOrThrow()
      ).n,
    // the temporary stays' kept income by business day, as 停车收入报表 reads it
    temp_income: async () =>
      yuan(
        (
          await db
            .selectFrom('parking_income_temp')
            .select(sumText('amount').as('s'))
            .where('rid', '=', rid)
            .where(sql<boolean>`day >= ${start}::date AND day <= ${end}::date`)
            .executeTakeFirstOrThrow()
        ).s,
      ),
    // visitors_visit_time
    visitors: async () =>
      (
        await db
          .selectFrom('visitors')
          .select(countInt.as('n'))
          .where('rid', '=', rid)
          .where(withinDays('visit_time', range))
          .executeTakeFirstOrThrow()
      ).n,
    // access_passes_time
    passes: async () =>
      (
        await db
          .selectFrom('access_passes')
          .select(countInt.as('n'))
          .where('rid', '=', rid)
          .where(withinDays('rec_time', range))
          .where('result', '=', 'open')
          .executeTakeFirstOrThrow()
      ).n,
    signups: async () =>
      (
        await db
          .selectFrom('activity_signups')
          .select(countInt.as('n'))
          .where('rid', '=', rid)
          .where(withinDays('create_time', range))
          .where('status', '<>', 'C')
          .executeTakeFirstOrThrow()
      ).n,
    // card_recharges_created
    recharged: async () =>
      yuan(
        (
          await db
            .selectFrom('card_recharges')
            .select(sumText('paid_amount').as('s'))
            .where('rid', '=', rid)
            .where(withinDays('created_at', range))
            .where('status', '<>', 'R')
            .executeTakeFirstOrThrow()
        ).s,
      ),
  };
  const values = await Promise.all(PANNEL_CARD_KEYS.map((k) => (shown.has(k) ? readers[k]() : Promise.resolve(null))));
  return Object.fromEntries(PANNEL_CARD_KEYS.map((k, i) => [k, values[i] ?? null])) as Record<PannelCardKey, Figure>;
}

const pannelindex = defineMethod('pannelindex', {
  side: 'community',
  roles: [...FEECOUNTS_ROLES],
  writes: false,
  summary: '报表首页：所选日期区间内收费、工单、出入、其他各卡片的数字（未开通的模块、无权查看的卡片为 null）',
  async handler(ctx, input) {
    const { roles, modulesOff } = ctx.session;
    const shown = new Set(
      PANNEL_CARD_KEYS.filter((k) => !modulesOff.includes(PANNEL_CARDS[k].module) && hasAnyRole(roles, PANNEL_CARDS[k].roles)),
    );
    return {
      start_date: input.start_date,
      end_date: input.end_date,
      start_period: input.start_date.slice(0, 7),
      end_period: input.end_date.slice(0, 7),
      figures: await figures(ctx.db, ctx.rid, [input.start_date, input.end_date], shown),
    };
  },
});

export const pannelMethods = [pannelindex];
