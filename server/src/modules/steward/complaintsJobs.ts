/**
 * The complaints' clock (docs/product.md#complaints): a periodic job marks each missed deadline once
 * (首次响应超时 while 待受理, 办结超时 while 待受理 or 处理中), logs it on the complaint's timeline and
 * puts the complaint back on the desk's to-do list; and it rates, 5 stars, the complaints waiting
 * for their rating for 48 hours (系统默认好评). Runs over every community; it finds what is due by
 * the clock, so a run missed is made up by the next.
 */
import { COMPLAINT_AUTO_RATE_HOURS, COMPLAINT_KIND, enumText } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { complaintBacklog, complaintNo } from './complaints.js';
import { recordServiceRating } from './scores.js';

export const COMPLAINT_CLOCK = 'complaint_clock';

async function log(db: Kysely<DB>, rid: number, id: number, transition: string, from: string, to: string) {
  await db
    .insertInto('workflow_logs')
    .values({
      rid,
      flow: 'complaint',
      row_id: id,
      transition,
      from_state: from,
      to_state: to,
      input: '{}',
      operator: '系统',
      created_by: null,
    })
    .execute();
}

/** Marks the breaches and rates the silent ones; answers how many of each. */
export async function runComplaintClock(db: Kysely<DB>): Promise<{ respond: number; close: number; rated: number }> {
  return db.transaction().execute(async (trx) => {
    const respond = await trx
      .updateTable('complaints')
      .set({ respond_overdue_at: sql<Date>`now()` })
      .where('status', '=', 'W')
      .where('respond_overdue_at', 'is', null)
      .where('respond_deadline', '<', sql<Date>`now()`)
      .returning(['rid', 'id', 'status', 'kind', 'content', 'close_deadline'])
      .execute();
    const close = await trx
      .updateTable('complaints')
      .set({ close_overdue_at: sql<Date>`now()` })
      .where('status', 'in', ['W', 'D'])
      .where('close_overdue_at', 'is', null)
      .where('close_deadline', '<', sql<Date>`now()`)
      .returning(['rid', 'id', 'status', 'kind', 'content', 'close_deadline'])
      .execute();
    for (const [rows, step, words] of [
      [respond, 'respond_overdue', '首次响应超时'],
      [close, 'close_overdue', '办结超时'],
    ] as const) {
      for (const c of rows) {
        const id = Number(c.id);
        await log(trx, c.rid, id, step, c.status, c.status);
        await complaintBacklog.raise(trx, c.rid, {
          sourceId: id,
          title: `${enumText(COMPLAINT_KIND, c.kind)}${words}：${complaintNo(id)}`,
          content: c.content.slice(0, 100),
          deadline: c.close_deadline,
        });
      }
    }
    const rated = await trx
      .updateTable('complaints')
      .set({ status: 'Y', rating: 5, rating_text: '', rated_at: sql<Date>`now()`, rated_auto: true })
      .where('status', '=', 'E')
      .where('finished_at', '<', sql<Date>`now() - make_interval(hours => ${COMPLAINT_AUTO_RATE_HOURS})`)
      .returning(['rid', 'id', 'handler_id', 'rated_at'])
      .execute();
    for (const c of rated) {
      await log(trx, c.rid, Number(c.id), 'autorate', 'E', 'Y');
      // the default rating counts in the handler's service score too (docs/product.md#complaints)
      if (c.handler_id !== null)
        await recordServiceRating(trx, {
          rid: c.rid,
          staffId: Number(c.handler_id),
          source: 'complaint',
          sourceId: Number(c.id),
          score: 5,
          ratedAt: c.rated_at ?? new Date(),
        });
    }
    return { respond: respond.length, close: close.length, rated: rated.length };
  });
}

registerJobKind(COMPLAINT_CLOCK, (ctx) => runComplaintClock(ctx.db));
registerPeriodicJob(COMPLAINT_CLOCK, 5);
