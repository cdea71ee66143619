import { toFen } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

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

export const balanceFen = (owner: HouseOwner | undefined): bigint => (owner ? toFen(owner.balance) : 0n);
