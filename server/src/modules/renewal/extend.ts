import { addMonths } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';

/**
 * Extends a community's subscription by `months` from its end date, or from today when it
 * has already ended, and logs it (regiondelaylog). Call inside a transaction.
 */
export async function extendRegion(
  db: Kysely<DB>,
  change: { rid: number; months: number; kind: 'pay' | 'code' | 'manual'; ref: string; amount: string; operator: string },
): Promise<string> {
  const region = await db.selectFrom('regions').select('end_time').where('id', '=', change.rid).forUpdate().executeTakeFirstOrThrow();
  const from = region.end_time < today() ? today() : region.end_time;
  const newEnd = addMonths(from, change.months);
  await db.updateTable('regions').set({ end_time: newEnd }).where('id', '=', change.rid).execute();
  await db
    .insertInto('region_delay_log')
    .values({
      rid: change.rid,
      kind: change.kind,
      ref: change.ref,
      old_end: region.end_time,
      new_end: newEnd,
      amount: change.amount,
      operator: change.operator,
    })
    .execute();
  return newEnd;
}
