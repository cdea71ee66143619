import { FEE_ROLES } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { undoJobWrites } from '../../jobs/batches.js';
import { enqueueJob, registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { ARREARS_NOTIFY, BILL_NOTIFY } from './billNotify.js';
import { candidateBuildings, insertBills, type GenerateScope } from './generate.js';
import { BILL_KEPT, foldTotals } from './totals.js';

export const BILL_GENERATE = 'bill_generate';
export const BILL_OVERDUE = 'bill_overdue';

interface GeneratePayload extends GenerateScope {
  rid: number;
  batch_id: number;
}

/**
 * Generates a batch's bills building by building, each building's set-based INSERT ... SELECT its
 * own short transaction (jobs/batches.ts), so other calls are answered between them. A job that
 * starts over after its process died carries on: the buildings done already have their bills and
 * get none twice. A job that fails has its bills deleted again and its batch marked failed.
 */
registerJobKind(
  BILL_GENERATE,
  async (ctx) => {
    const p = ctx.payload as unknown as GeneratePayload;
    let result;
    try {
      const already = await batchSum(ctx.db, p);
      const buildings = await candidateBuildings(ctx.db, p.rid, p);
      const total = already.n + buildings.reduce((s, b) => s + b.n, 0);
      let done = already.n;
      await ctx.progress(done, total);
      for (const b of buildings) {
        done += await ctx.batch(async (trx, record) => {
          const ids = await insertBills(trx, p.rid, p, p.batch_id, b.bid);
          await record('fee_bills', ids);
          return ids.length;
        });
        await ctx.step(done, total);
      }
      result = await ctx.batch(async (trx) => {
        const sum = await batchSum(trx, p);
        await trx
          .updateTable('fee_batches')
          .set({ status: 'done', bill_count: sum.n, total_fee: sum.total })
          .where('rid', '=', p.rid)
          .where('id', '=', p.batch_id)
          .execute();
        // 账单生成 is told by a job of its own, queued with the batch's 'done' (billNotify.ts)
        await enqueueJob(trx, { rid: p.rid, kind: BILL_NOTIFY, payload: { rid: p.rid, batch_id: p.batch_id }, createdBy: null });
        return { count: sum.n, total_fee: sum.total, batch_id: p.batch_id };
      });
    } catch (err) {
      await undoJobWrites(ctx.db, ctx.job.id).catch((undoErr: unknown) =>
        ctx.log.error({ err: undoErr, job: ctx.job.id }, 'bill undo failed'),
      );
      await ctx.db.updateTable('fee_batches').set({ status: 'failed' }).where('rid', '=', p.rid).where('id', '=', p.batch_id).execute();
      throw err;
    }
    // each building's insert added its groups' totals: folded now, the reports read a row a group.
    // The bills are in whatever happens here; a fold that fails is left to the daily one.
    for (const kept of BILL_KEPT) {
      await foldTotals(ctx.db, kept, p.rid).catch((err: unknown) =>
        ctx.log.warn({ err, table: kept.table }, 'bill totals not folded after generation'),
      );
    }
    return result;
  },
  {
    viewers: FEE_ROLES.bills,
    // the runner gave up after workers died mid-job: the batch is failed (the runner deletes its bills)
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

/** The bills a batch has so far and their sum. */
function batchSum(db: Kysely<DB>, p: GeneratePayload) {
  return db
    .selectFrom('fee_bills')
    .where('rid', '=', p.rid)
    .where('batch_id', '=', p.batch_id)
    .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(fee), 0)::numeric(14,2)::text`.as('total')])
    .executeTakeFirstOrThrow();
}

// every community's overdue bills are marked once a day by whichever server process gets there first
registerDailyJob(BILL_OVERDUE, {});

/**
 * Bills looked at per statement when marking overdue ones. Each statement is its own short
 * transaction, so on the embedded database (one connection) other communities' calls are answered
 * between them instead of waiting for one statement over every bill of every community.
 */
export const OVERDUE_BATCH = 2000;

/**
 * Marks pending bills past their due date as overdue (N), community by community and `batch` pending
 * bills at a time in the order of their ids (the fee_bills_status index); rid limits it to one community.
 * Answers how many were marked.
 */
export async function markOverdue(db: Kysely<DB>, rid?: number, batch = OVERDUE_BATCH): Promise<number> {
  const rids = rid !== undefined ? [rid] : (await db.selectFrom('regions').select('id').orderBy('id').execute()).map((r) => r.id);
  let marked = 0;
  for (const r of rids) {
    const before = marked;
    for (let after = 0; ;) {
      const res = await sql<{ last: number | null; n: number }>`
        WITH scanned AS (
          SELECT id, due_date FROM fee_bills WHERE rid = ${r} AND status = 'E' AND id > ${after} ORDER BY id LIMIT ${batch}
        ), marked AS (
          UPDATE fee_bills b SET status = 'N', overdue_at = now() FROM scanned s
          WHERE b.rid = ${r} AND b.id = s.id AND b.status = 'E' AND s.due_date < current_date RETURNING 1
        )
        SELECT (SELECT max(id) FROM scanned) AS last, (SELECT count(*) FROM marked)::int AS n`.execute(db);
      const row = res.rows[0];
      marked += row?.n ?? 0;
      if (row?.last === null || row?.last === undefined) break;
      after = Number(row.last);
    }
    // 欠费提醒 for the community's rooms whose bills went overdue (billNotify.ts)
    if (marked > before) await enqueueJob(db, { rid: r, kind: ARREARS_NOTIFY, payload: { rid: r }, createdBy: null });
  }
  return marked;
}

registerJobKind(
  BILL_OVERDUE,
  async (ctx) => ({ marked: await markOverdue(ctx.db, typeof ctx.payload.rid === 'number' ? ctx.payload.rid : undefined) }),
  { viewers: FEE_ROLES.bills },
);
