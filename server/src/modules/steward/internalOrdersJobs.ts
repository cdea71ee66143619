/**
 * The recurring internal orders (docs/product.md#internal-orders): a periodic job creates, for every
 * active template of every community whose next day has come, each occurrence once (the unique
 * (template_id, occurs_on) index; see spawnOccurrences), each template in its own short transaction.
 */
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { spawnOccurrences } from './internalOrders.js';

export const INTERNAL_ORDER_RECUR = 'internal_order_recur';

registerJobKind(INTERNAL_ORDER_RECUR, async (ctx) => {
  const day = today();
  const due = await ctx.db
    .selectFrom('internal_order_templates')
    .select(['rid', 'id'])
    .where('status', '=', 'Y')
    .where('next_on', '<=', day)
    .orderBy('rid')
    .orderBy('id')
    .execute();
  let made = 0;
  for (const t of due) made += await ctx.db.transaction().execute((trx) => spawnOccurrences(trx, t.rid, Number(t.id), day));
  return { templates: due.length, orders: made };
});
registerPeriodicJob(INTERNAL_ORDER_RECUR, 15);
