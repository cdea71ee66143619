import { LIMITS } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';

export { CAR_MANAGERS, MEMBER_MANAGERS, OWNER_LOOKUP, SMALL_LIST_READERS } from '@wuye/contract';

/** Name fragments are at most as long as the owner search box takes (member_name_keys, 004_owners.sql). */
export const NAME_KEY_MAX = LIMITS.ownerSearchMax;

/** The key of `part` of a name in community `rid`, as member_name_keys writes it before lower-casing: a longer part is cut to the fragments' length. */
export const namePartKey = (rid: number, part: string) => `${rid}:${Array.from(part).slice(0, NAME_KEY_MAX).join('')}`;

/**
 * "`name` (of a row of community `rowRid`) has the name part `key` (namePartKey) in it", as one
 * exact lookup in a GIN index on member_name_keys(rid, name) (004_owners.sql): members' names and
 * receipts' payers. The database lower-cases the key, as it did the index's fragments, so the two
 * agree on every letter (JavaScript's toLowerCase does not: İ, a final Σ).
 */
export const hasNamePart = (rowRid: RawBuilder<unknown>, name: RawBuilder<unknown>, key: RawBuilder<string>) =>
  sql<boolean>`member_name_keys(${rowRid}, ${name}) @> ARRAY[lower(${key})]`;

/**
 * The values "a name contains `keyword`" binds (nameMatches): the key of its name part, and for a
 * keyword longer than a key, which is looked up by its first NAME_KEY_MAX characters, the ILIKE
 * pattern that then matches it whole.
 */
export function nameSearch(rid: number, keyword: string): { key: string; like?: string } {
  const key = namePartKey(rid, keyword);
  return Array.from(keyword).length > NAME_KEY_MAX ? { key, like: likePattern(keyword) } : { key };
}

/**
 * "`name` (of a row of community `rowRid`) contains the keyword" whose nameSearch values are
 * `key` and `like` (the values themselves, or a statement template's slots for them).
 */
export function nameMatches(rowRid: RawBuilder<unknown>, name: RawBuilder<unknown>, key: unknown, like?: unknown) {
  const found = hasNamePart(rowRid, name, sql<string>`${key}`);
  return like === undefined ? found : sql<boolean>`(${found} AND ${name} ILIKE ${like})`;
}

/**
 * "`name` (of a row of community `rid`) contains `keyword`, in any case", through the name-key
 * index (hasNamePart). What ILIKE '%keyword%' answers, without reading every name.
 */
export function nameContains(rowRid: RawBuilder<unknown>, name: RawBuilder<unknown>, rid: number, keyword: string) {
  const { key, like } = nameSearch(rid, keyword);
  return nameMatches(rowRid, name, key, like);
}

/**
 * The ids of the community's rooms whose address (building, unit and room titles run
 * together, as in '1号楼1单元1101') contains `text`, in any case. Matching the joined text of every
 * room read a community's 50,000 rooms (30-50 ms); the text is found instead where it can be:
 * - in a unit's building-and-unit prefix (a few hundred units): all of that unit's rooms;
 * - across the prefix's end and the room number ('1单元11'): the units whose prefix ends with the
 *   text's head, then their rooms whose number starts with the rest;
 * - within a room number, through the name-key index on room titles (019_room_title_keys.sql).
 * A room's unit is in its building (roomadd and roomedit refuse otherwise). 2-13 ms at 50,000 rooms.
 * The split units' rooms are read unit by unit (a LATERAL step the planner keeps, OFFSET 0): it
 * guessed thousands of splits where '1号楼1单元1101' makes 35 and hashed all 50,000 rooms
 * instead (70-90 ms; 3-5 ms read unit by unit).
 */
export function roomsAddressed(rid: number, text: string) {
  return sql<{ id: string }>`SELECT a.id FROM (
    WITH k AS (SELECT lower(${text}::text) AS kw),
    up AS MATERIALIZED (
      SELECT u.bid, u.id AS tid, lower(b.title || u.title) AS p FROM units u JOIN buildings b ON b.rid = u.rid AND b.id = u.bid
      WHERE u.rid = ${rid}),
    splits AS MATERIALIZED (
      SELECT up.bid, up.tid, substr(k.kw, n + 1) AS rest FROM up, k, generate_series(1, char_length(k.kw) - 1) n
      WHERE right(up.p, n) = left(k.kw, n))
    SELECT r.id FROM up JOIN rooms r ON r.rid = ${rid} AND r.bid = up.bid AND r.tid = up.tid, k WHERE strpos(up.p, k.kw) > 0
    UNION
    SELECT r.id FROM splits s CROSS JOIN LATERAL (SELECT r.id FROM rooms r WHERE r.rid = ${rid} AND r.bid = s.bid AND r.tid = s.tid
      AND left(lower(r.title), char_length(s.rest)) = s.rest OFFSET 0) r
    UNION
    SELECT r.id FROM rooms r WHERE r.rid = ${rid} AND ${nameContains(sql`r.rid`, sql`r.title`, rid, text)}) a`;
}

/** A payload naming a room: its id, and optionally its community, building and unit. */
export interface RoomRef {
  rid?: number;
  bid?: number;
  tid?: number;
  hid: number;
}

/** A payload rid, where given, is the session's community: another community's names no room here. */
export const inSessionCommunity = (ctx: CommunityCtx, ref: RoomRef) => ref.rid === undefined || ref.rid === ctx.rid;

/** A payload bid and tid, where given, are the room's own. */
export const inRoomBuildingAndUnit = (ref: RoomRef, room: { bid: number; tid: number }) =>
  (ref.bid === undefined || ref.bid === room.bid) && (ref.tid === undefined || ref.tid === room.tid);

export const emptyPage = <T>() => ({ items: [] as T[], total: 0 });

/** Ids of the people living in the room now. */
export function currentMemberIds(db: Kysely<DB>, rid: number, hid: number) {
  return db.selectFrom('room_members').select('member_id').where('rid', '=', rid).where('hid', '=', hid).where('status', '=', 'Y');
}
