/**
 * 账单生成 (docs/product.md#notifications): once a batch of bills is done, the fee staff hear of its
 * count and sum, and each room's owner, when the group texts owners of it, what their room owes of
 * the batch and by when. A job of its own, queued with the batch's 'done', so a batch of thousands
 * of rooms is not slowed by its messages; run again after a crash it tells nobody twice (each
 * message names its batch and room in `ref_id`).
 */
import { FEE_ROLES } from '@wuye/contract';
import { sql } from 'kysely';
import { registerJobKind } from '../../jobs/queue.js';
import { notify, notifyReaches } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';

export const BILL_NOTIFY = 'bill_notify';
/** rooms told per transaction */
const CHUNK = 200;
const LINK = '/fees/feebillworkadd';

registerJobKind(BILL_NOTIFY, async (ctx) => {
  const rid = Number(ctx.payload.rid);
  const batchId = Number(ctx.payload.batch_id);
  const batch = await ctx.db
    .selectFrom('fee_batches')
    .select(['period', 'item_ids', 'status', 'bill_count', 'total_fee'])
    .where('rid', '=', rid)
    .where('id', '=', batchId)
    .executeTakeFirst();
  if (!batch || batch.status !== 'done') return { told: 0 };
  const titles = await ctx.db
    .selectFrom('fee_items')
    .select('title')
    .where('rid', '=', rid)
    .where('id', 'in', batch.item_ids.length ? batch.item_ids : [0])
    .orderBy('id')
    .execute();
  const facts = { period: batch.period, items: titles.map((t) => t.title).join('、'), count: batch.bill_count, total: batch.total_fee };
  const told = (refs: string[]) =>
    ctx.db
      .selectFrom('notifications')
      .select('ref_id')
      .distinct()
      .where('rid', '=', rid)
      .where('event', '=', 'bill_generated')
      .where('ref_id', 'in', refs)
      .execute()
      .then((rows) => new Set(rows.map((r) => r.ref_id)));

  const batchRef = String(batchId);
  if (!(await told([batchRef])).has(batchRef))
    await ctx.batch((trx) =>
      notify(
        trx,
        rid,
        'bill_generated',
        { staffCodes: FEE_ROLES.bills },
        { ...notifyText.bill_generated(facts), link: LINK, refId: batchRef },
      ),
    );
  if (!(await notifyReaches(ctx.db, rid, 'bill_generated', 'owner'))) return { told: 0 };

  let owners = 0;
  for (let after = 0; ;) {
    const { rows } = await sql<{ hid: number; address: string; amount: string; due: string; realname: string; mobile: string }>`
      SELECT b.hid, r.address, sum(b.fee)::numeric(14,2)::text AS amount, min(b.due_date)::text AS due, o.realname, o.mobile
      FROM fee_bills b
      JOIN rooms r ON r.rid = b.rid AND r.id = b.hid
      JOIN LATERAL (SELECT m.realname, m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
        WHERE rm.rid = b.rid AND rm.hid = b.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1) o ON true
      WHERE b.rid = ${rid} AND b.batch_id = ${batchId} AND b.hid > ${after}
      GROUP BY b.hid, r.address, o.realname, o.mobile
      ORDER BY b.hid LIMIT ${CHUNK}`.execute(ctx.db);
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.hid);
    const done = await told(rows.map((r) => `${batchId}-${r.hid}`));
    owners += await ctx.batch(async (trx) => {
      let n = 0;
      for (const r of rows) {
        const ref = `${batchId}-${r.hid}`;
        if (done.has(ref)) continue;
        await notify(
          trx,
          rid,
          'bill_generated',
          { owner: { name: r.realname, mobile: r.mobile } },
          {
            ...notifyText.bill_generated({ ...facts, room: { address: r.address, amount: r.amount, due: r.due } }),
            link: LINK,
            refId: ref,
          },
        );
        n++;
      }
      return n;
    });
  }
  return { told: owners };
});
