import { sql } from 'kysely';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { candidateBuildings, insertBills, type GenerateScope } from './generate.js';
import { ROLES } from './roles.js';
import { BILL_TOTALS, foldTotals } from './totals.js';

export const BILL_GENERATE = 'bill_generate';
export const BILL_OVERDUE = 'bill_overdue';

interface GeneratePayload extends GenerateScope {
  rid: number;
  batch_id: number;
}

/**
 * Generates a batch's bills in one transaction, building by building (set-based INSERT ...
 * SELECT each), so a failure leaves no half batch. Progress goes through the runner's own
 * connection; on PGlite (one connection) those updates land once the transaction ends.
 */
registerJobKind(
  BILL_GENERATE,
  async (ctx) => {
    const p = ctx.payload as unknown as GeneratePayload;
    let result;
    try {
      result = await ctx.db.transaction().execute(async (trx) => {
        const buildings = await candidateBuildings(trx, p.rid, p);
        const total = buildings.reduce((s, b) => s + b.n, 0);
        await ctx.step(0, total);
        let done = 0;
        for (const b of buildings) {
          done += await insertBills(trx, p.rid, p, p.batch_id, b.bid);
          await ctx.step(done, total);
        }
        const sum = await trx
          .selectFrom('fee_bills')
          .where('rid', '=', p.rid)
          .where('batch_id', '=', p.batch_id)
          .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(fee), 0)::numeric(14,2)::text`.as('total')])
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('fee_batches')
          .set({ status: 'done', bill_count: sum.n, total_fee: sum.total })
          .where('rid', '=', p.rid)
          .where('id', '=', p.batch_id)
          .execute();
        return { count: sum.n, total_fee: sum.total, batch_id: p.batch_id };
      });
    } catch (err) {
      await ctx.db.updateTable('fee_batches').set({ status: 'failed' }).where('rid', '=', p.rid).where('id', '=', p.batch_id).execute();
      throw err;
    }
    // each building's insert added its groups' totals: folded now, the reports read a row a group.
    // The bills are in whatever happens here; a fold that fails is left to the daily one.
    await foldTotals(ctx.db, BILL_TOTALS, p.rid).catch((err: unknown) => ctx.log.warn({ err }, 'bill totals not folded after generation'));
    return result;
  },
  {
    viewers: ROLES.bills,
    // the runner gave up after workers died mid-job: the batch has no bills (its transaction died too)
    async abandoned(db, job) {
      const p = job.payload as unknown as GeneratePayload;
      await db
        .updateTable('fee_batches')
        .set({ status: 'failed' })
        .where('rid', '=', p.rid)
        .where('id', '=', p.batch_id)
        .where('status', '=', 'running')
        .execute();
    },
  },
);

// every community's overdue bills are marked once a day by whichever server process gets there first
registerDailyJob(BILL_OVERDUE, {});

/** Marks pending bills past their due date as overdue (N); rid limits it to one community. */
registerJobKind(BILL_OVERDUE, async (ctx) => {
  const rid = typeof ctx.payload.rid === 'number' ? ctx.payload.rid : undefined;
  let q = ctx.db
    .updateTable('fee_bills')
    .set({ status: 'N' })
    .where('status', '=', 'E')
    .where('due_date', '<', sql<string>`current_date`);
  if (rid !== undefined) q = q.where('rid', '=', rid);
  const res = await q.executeTakeFirst();
  return { marked: Number(res.numUpdatedRows) };
});
