/**
 * The fee area's notifications (docs/product.md#notifications), each a job of its own so the bills
 * are not slowed by their messages, and each telling nobody twice when run again.
 *
 * 账单生成: once a batch of bills is done, the fee staff hear of its
 * count and sum, and each room's owner, when the group texts owners of it, what their room owes of
 * the batch and by when. A job of its own, queued with the batch's 'done', so a batch of thousands
 * of rooms is not slowed by its messages; run again after a crash it tells nobody twice (each
 * message names its batch and room in `ref_id`).
 */
import { FEE_ROLES, type NotifyEvent } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerJobKind } from '../../jobs/queue.js';
import { notify, notifyReaches } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';

export const BILL_NOTIFY = 'bill_notify';
export const ARREARS_NOTIFY = 'arrears_notify';
/** rooms told per transaction */
const CHUNK = 200;
const LINK = '/fees/feebillworkadd';

/** Which of `refs` were told of `event` already (a job run again after a crash). */
async function toldAlready(db: Kysely<DB>, rid: number, event: NotifyEvent, refs: string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db
    .selectFrom('notifications')
    .select('ref_id')
    .distinct()
    .where('rid', '=', rid)
    .where('event', '=', event)
    .where('ref_id', 'in', refs)
    .execute();
  return new Set(rows.map((r) => r.ref_id));
}

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
  const told = (refs: string[]) => toldAlready(ctx.db, rid, 'bill_generated', refs);

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

/**
 * 欠费提醒: the owners of the rooms whose bills the daily marking turned overdue in the last three
 * days (a run that died before queueing this job is covered by the next day's), each told once a
 * day of going overdue (`ref_id` names the day and the room) what the room owes now, late fees in.
 */
registerJobKind(ARREARS_NOTIFY, async (ctx) => {
  const rid = Number(ctx.payload.rid);
  if (!(await notifyReaches(ctx.db, rid, 'bill_overdue', 'owner'))) return { told: 0 };
  let owners = 0;
  for (let after = 0; ;) {
    const { rows } = await sql<{
      hid: number;
      day: string;
      address: string;
      count: number;
      amount: string;
      realname: string | null;
      mobile: string | null;
    }>`
      WITH lately AS (
        SELECT b.hid, min(b.overdue_at)::date::text AS day FROM fee_bills b
        WHERE b.rid = ${rid} AND b.overdue_at >= now() - interval '3 days' AND b.status = 'N' AND b.hid > ${after}
        GROUP BY b.hid ORDER BY b.hid LIMIT ${CHUNK}
      )
      SELECT l.hid, l.day, r.address, a.bill_count AS count, (a.fee + a.late_fee)::numeric(14,2)::text AS amount, o.realname, o.mobile
      FROM lately l
      JOIN rooms r ON r.rid = ${rid} AND r.id = l.hid
      CROSS JOIN LATERAL room_arrears(${rid}, l.hid, current_date) a
      LEFT JOIN LATERAL (SELECT m.realname, m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
        WHERE rm.rid = ${rid} AND rm.hid = l.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1) o ON true
      ORDER BY l.hid`.execute(ctx.db);
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.hid);
    const refs = rows.map((r) => `${r.day}-${r.hid}`);
    const done = await toldAlready(ctx.db, rid, 'bill_overdue', refs);
    owners += await ctx.batch(async (trx) => {
      let n = 0;
      for (const r of rows) {
        const ref = `${r.day}-${r.hid}`;
        // a room without an owner on record has nobody to text
        if (done.has(ref) || r.realname === null || r.mobile === null) continue;
        await notify(
          trx,
          rid,
          'bill_overdue',
          { owner: { name: r.realname, mobile: r.mobile } },
          {
            ...notifyText.bill_overdue({ address: r.address, count: r.count, amount: r.amount }),
            link: `/desktop/cashier?hid=${r.hid}`,
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
