/**
 * Scheduled publishing (docs/product.md#notices): every minute, the 待发布 notices whose time has
 * come are published, each in its own transaction, as 发布 publishes one (recipients frozen, its
 * SMS started). A run missed while no process ran is made up by the next: it reads the clock.
 */
import { sql } from 'kysely';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { publishNow } from './notices.js';

export const NOTICE_PUBLISH_KIND = 'notice_publish_due';

registerJobKind(NOTICE_PUBLISH_KIND, async (ctx) => {
  const due = await ctx.db
    .selectFrom('notices')
    .select(['rid', 'id'])
    .where('status', '=', 'S')
    .where('send_at', '<=', sql<Date>`now()`)
    .orderBy('send_at')
    .limit(500)
    .execute();
  let published = 0;
  for (const d of due) {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('notices')
        .selectAll()
        .select(sql<boolean>`valid_until IS NOT NULL AND valid_until <= now()`.as('expired'))
        .where('rid', '=', d.rid)
        .where('id', '=', d.id)
        .where('status', '=', 'S')
        .forUpdate()
        .executeTakeFirst();
      if (!row) return;
      const by = row.created_by === null ? null : Number(row.created_by);
      const name =
        by === null ? '系统' : ((await trx.selectFrom('accounts').select('name').where('id', '=', by).executeTakeFirst())?.name ?? '系统');
      await publishNow(trx, d.rid, row, { accountId: by, name });
      published++;
    });
  }
  return { published };
});

registerPeriodicJob(NOTICE_PUBLISH_KIND, 1);
