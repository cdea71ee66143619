import { sql, type Kysely } from 'kysely';
import type { DB, JobWritesTable } from '../db/schema.js';

/** The tables a job's batches may insert into and a failed job deletes from (job_writes.tbl). */
export type UndoTable = JobWritesTable['tbl'];

/** Notes the ids a batch inserted into a table, in the batch's own transaction. */
export type RecordWrites = (table: UndoTable, ids: readonly number[]) => Promise<void>;

/** One batch of a long job's write: its own short transaction, and what it inserted noted for an undo. */
export type RunBatch = <T>(work: (trx: Kysely<DB>, record: RecordWrites) => Promise<T>) => Promise<T>;

/**
 * A long job writes in batches, each its own short transaction, so the embedded database's one
 * connection serves other calls between them (docs/architecture.md, "Long jobs"). What a batch
 * inserted is noted in job_writes in that same transaction: it commits exactly with the rows.
 */
export function batchesOf(db: Kysely<DB>, rid: number, jobId: number): RunBatch {
  return async (work) => {
    const result = await db.transaction().execute((trx) =>
      work(trx, async (table, ids) => {
        if (ids.length)
          await trx
            .insertInto('job_writes')
            .values({ job_id: jobId, rid, tbl: table, ids: [...ids] })
            .execute();
      }),
    );
    // the embedded database answers within one turn of the event loop: without a turn here the next
    // batch would start before a waiting request had even been read from its socket
    await new Promise((resolve) => setImmediate(resolve));
    return result;
  };
}

/**
 * Deletes what a job's batches inserted, newest batch first and each in its own transaction, so
 * the undo too lets other calls in. A row that others came to depend on meanwhile (a payment on an
 * imported bill) stops it with the database's error: the rest stays noted for the operator.
 * Answers how many rows were deleted.
 */
export async function undoJobWrites(db: Kysely<DB>, jobId: number): Promise<number> {
  let undone = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const w = await trx
        .selectFrom('job_writes')
        .select(['seq', 'rid', 'tbl', 'ids'])
        .where('job_id', '=', jobId)
        .orderBy('seq', 'desc')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
      if (!w) return undefined;
      const res = await sql`DELETE FROM ${sql.table(w.tbl)} WHERE rid = ${w.rid} AND id = ANY(${w.ids}::bigint[])`.execute(trx);
      await trx.deleteFrom('job_writes').where('job_id', '=', jobId).where('seq', '=', w.seq).execute();
      return Number(res.numAffectedRows ?? 0n);
    });
    if (n === undefined) return undone;
    undone += n;
  }
}
