/**
 * Bills another area makes on a room for its own things (a sign-up's fee, a lease's rent, a sale
 * contract's instalment): the fee item it bills under, found or made once per community (disabled,
 * so no one binds it to rooms; each bill carries its own title and amount), and the bill itself,
 * written once per room, item and period (the bills' unique key), so a job that runs twice or a
 * retried request never bills twice. The cashier, the drawer, the reports and the invoices read
 * these bills as any other (docs/product.md#fees).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { periodRange } from './calc.js';

export interface OwnItem {
  id: number;
  cost_type: string;
}

/**
 * The community's fee item `title` under the cost type `cost.title` (found by its title or its code,
 * or made with `cost.code`); the item is made disabled, with `remark` saying who made it.
 */
export async function ensureOwnItem(
  db: Kysely<DB>,
  rid: number,
  spec: { cost: { code: string; title: string; sort: number }; title: string; remark: string },
): Promise<OwnItem> {
  const found = await db
    .selectFrom('fee_items')
    .select(['id', 'cost_type'])
    .where('rid', '=', rid)
    .where('title', '=', spec.title)
    .executeTakeFirst();
  if (found) return { id: Number(found.id), cost_type: found.cost_type };
  let cost = await db
    .selectFrom('fee_cost_types')
    .select('cost_type')
    .where('rid', '=', rid)
    .where((eb) => eb.or([eb('title', '=', spec.cost.title), eb('cost_type', '=', spec.cost.code)]))
    .orderBy(sql`title = ${spec.cost.title}`, 'desc')
    .executeTakeFirst();
  if (!cost) {
    await db
      .insertInto('fee_cost_types')
      .values({ rid, cost_type: spec.cost.code, title: spec.cost.title, sort: spec.cost.sort })
      .onConflict((oc) => oc.doNothing())
      .execute();
    cost = { cost_type: spec.cost.code };
  }
  await db
    .insertInto('fee_items')
    .values({ rid, cost_type: cost.cost_type, title: spec.title, pricing: 'fixed', unit_price: '0', status: 'N', remark: spec.remark })
    .onConflict((oc) => oc.columns(['rid', 'title']).doNothing())
    .execute();
  const made = await db
    .selectFrom('fee_items')
    .select(['id', 'cost_type'])
    .where('rid', '=', rid)
    .where('title', '=', spec.title)
    .executeTakeFirstOrThrow();
  return { id: Number(made.id), cost_type: made.cost_type };
}

export interface OwnBill {
  hid: number;
  item: OwnItem;
  /** as the bill list and the receipt show it */
  title: string;
  /** 'YYYY-MM': with the room and the item, the key that keeps a bill from being made twice */
  period: string;
  /** default: the period's month */
  daterange?: string;
  fee: string;
  /** default: today */
  due_date?: string;
  measure?: string;
  unit_price?: string;
  /** the area that made it ('activity', 'lease', 'contract'), shown on the bill */
  source: string;
}

/** Writes the bill; null when the room already has one of that item for that period. */
export async function insertOwnBill(db: Kysely<DB>, rid: number, b: OwnBill): Promise<number | null> {
  const room = await db
    .selectFrom('rooms')
    .select(['id', 'bid', 'tid'])
    .where('rid', '=', rid)
    .where('id', '=', b.hid)
    .executeTakeFirstOrThrow();
  const bill = await db
    .insertInto('fee_bills')
    .values({
      rid,
      hid: room.id,
      bid: room.bid,
      tid: room.tid,
      item_id: b.item.id,
      cost_type: b.item.cost_type,
      title: b.title.slice(0, 60),
      period: b.period,
      daterange: b.daterange ?? periodRange(b.period, 1).daterange,
      measure: b.measure ?? '1',
      unit_price: b.unit_price ?? b.fee,
      fee: b.fee,
      source: b.source,
      due_date: b.due_date ?? today(),
    })
    .onConflict((oc) => oc.constraint('fee_bills_bill_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return bill ? Number(bill.id) : null;
}
