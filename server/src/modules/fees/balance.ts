import { fenToYuan, toFen } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';

export interface HouseOwner {
  member_id: number;
  realname: string;
  balance: string;
}

/** The community's ownerships that hold now: owners who still live in their rooms. */
const currentOwnerships = (db: Kysely<DB>, rid: number) =>
  db.selectFrom('room_members').where('rid', '=', rid).where('relation', '=', 'owner').where('status', '=', 'Y');

/** The room's current owner (the earliest who still lives there), if any. */
export async function houseOwner(db: Kysely<DB>, rid: number, hid: number, lock = false): Promise<HouseOwner | undefined> {
  const rm = await currentOwnerships(db, rid).select('member_id').where('hid', '=', hid).orderBy('id').limit(1).executeTakeFirst();
  if (!rm) return undefined;
  let q = db.selectFrom('members').select(['id as member_id', 'realname', 'balance']).where('rid', '=', rid).where('id', '=', rm.member_id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The rooms one payment may cover: the room, and those its owner owns in the community (the desk's owner rooms). */
export async function payableRooms(db: Kysely<DB>, rid: number, hid: number, memberId: number | undefined): Promise<Set<number>> {
  const rooms = new Set([hid]);
  if (!memberId) return rooms;
  const owned = await currentOwnerships(db, rid).select('hid').where('member_id', '=', memberId).execute();
  for (const o of owned) rooms.add(o.hid);
  return rooms;
}

export interface BalanceMove {
  rid: number;
  memberId: number;
  hid: number;
  /** positive fen */
  fen: bigint;
  /** 1 top-up (money in), 2 consumption (money out) */
  ioType: 1 | 2;
  feetype: string;
  paytype: string;
  orderid: string;
  remark: string;
  createUser: string;
}

/**
 * Moves an owner's balance and writes the ledger row the owner drawer reads (homeconsumelist).
 * The caller holds the member row lock; the CHECK (balance >= 0) is the last guard.
 */
export async function moveBalance(db: Kysely<DB>, m: BalanceMove): Promise<void> {
  if (m.fen <= 0n) return;
  const amount = fenToYuan(m.fen);
  const res = await db
    .updateTable('members')
    .set({ balance: m.ioType === 1 ? sql`balance + ${amount}::numeric` : sql`balance - ${amount}::numeric` })
    .where('rid', '=', m.rid)
    .where('id', '=', m.memberId)
    .where((eb) => (m.ioType === 2 ? eb('balance', '>=', amount) : eb.val(true)))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) fail('业主余额不足');
  await db
    .insertInto('balance_ledger')
    .values({
      rid: m.rid,
      member_id: m.memberId,
      hid: m.hid,
      orderid: m.orderid,
      io_type: m.ioType,
      feetype: m.feetype,
      paytype: m.paytype,
      total_fee: amount,
      status: 'Y',
      remark: m.remark,
      create_user: m.createUser,
    })
    .execute();
}

export const balanceFen = (owner: HouseOwner | undefined): bigint => (owner ? toFen(owner.balance) : 0n);
