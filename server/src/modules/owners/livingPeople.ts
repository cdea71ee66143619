import { RELATION_CH, type RelationCode } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The people living in a room now, as a dropdown's rows: id and title 「姓名（关系）」, no mobile (a
 * door grant's form and a visitor's register pick among them; the guard sees no owner's phone).
 */
export async function livingPeople(db: Kysely<DB>, rid: number, hid: number) {
  const rows = await db
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['m.id', 'm.realname', 'rm.relation'])
    .where('rm.rid', '=', rid)
    .where('rm.hid', '=', hid)
    .where('rm.status', '=', 'Y')
    .orderBy('rm.id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    title: `${r.realname}（${RELATION_CH[r.relation as RelationCode] ?? r.relation}）`,
    relation: r.relation,
  }));
}

/**
 * Whom to call about a room: its living owner, else its first living member (the repair desk's
 * reporter, a visit's host when none was named), with name and mobile; undefined for an empty room.
 */
export async function roomContact(db: Kysely<DB>, rid: number, hid: number): Promise<{ realname: string; mobile: string } | undefined> {
  const { rows } = await sql<{ realname: string; mobile: string }>`
    SELECT m.realname, m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = ${rid} AND rm.hid = ${hid} AND rm.status = 'Y'
    ORDER BY (rm.relation = 'owner') DESC, rm.id LIMIT 1`.execute(db);
  return rows[0];
}
