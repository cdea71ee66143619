import { RELATION_CH, type HouseSearchItem, type OwnerInfo } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';
import { addressSql, findHouse, OWNER_LOOKUP } from './access.js';

/** Matching people considered before joining their rooms; the dialog shows at most RESULT_MAX. */
const MEMBER_MAX = 200;
const RESULT_MAX = 50;

/**
 * Who matches the keyword: a mobile prefix (btree on (rid, mobile text_pattern_ops)) or any part
 * of a name (GIN on member_name_keys(rid, realname), see 004_owners.sql).
 */
export function keywordCondition(rid: number, keyword: string) {
  const k = keyword.trim();
  if (/^\d+$/.test(k)) return sql<boolean>`m.mobile LIKE ${`${k}%`}`;
  return sql<boolean>`member_name_keys(m.rid, m.realname) @> ARRAY[${`${rid}:${k.toLowerCase()}`}]::text[]`;
}

const getkeywordtohouses = defineMethod('getkeywordtohouses', {
  side: 'community', roles: OWNER_LOOKUP, writes: false,
  summary: '全局业主搜索：手机号前缀或姓名任意部分（≤11 字），本小区内在住的房屋：id、rid、bid、tid、hid、mobile、address、realname',
  async handler(ctx, input) {
    // two steps so the planner can never re-run the name match per joined row
    const { rows: people } = await sql<{ id: number }>`
      SELECT m.id FROM members m WHERE m.rid = ${ctx.rid} AND ${keywordCondition(ctx.rid, input.keywords)} LIMIT ${MEMBER_MAX}`.execute(ctx.db);
    if (!people.length) return { items: [] };
    // building and unit looked up by key rather than joined: planning the five-way join took
    // longer than running it (1.3 ms of 3 ms at 100,000 rooms, bench/README.md)
    const building = (col: 'title' | 'sort') => sql.raw(`(SELECT ${col} FROM buildings WHERE rid = r.rid AND id = r.bid)`);
    const unit = (col: 'title' | 'sort') => sql.raw(`(SELECT ${col} FROM units WHERE rid = r.rid AND id = r.tid)`);
    const { rows } = await sql<Omit<HouseSearchItem, 'relation_ch'>>`
      SELECT rm.id, rm.rid, r.bid, r.tid, rm.hid, m.mobile, concat(${building('title')}, ${unit('title')}, r.title) AS address, m.realname, rm.relation
      FROM room_members rm
      JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      WHERE rm.rid = ${ctx.rid} AND rm.member_id = ANY(${people.map((p) => p.id)}::bigint[]) AND rm.status = 'Y'
      ORDER BY rm.relation <> 'owner', m.realname, ${building('sort')}, r.bid, ${unit('sort')}, r.tid, r.floor, r.title
      LIMIT ${RESULT_MAX}`.execute(ctx.db);
    return { items: rows.map((r) => ({ ...r, relation_ch: RELATION_CH[r.relation] })) };
  },
});

/** Arrears of a room: pending (E) and overdue (N) bills (the unpaid-bills index of 007_perf_indexes.sql). */
async function arrears(db: Kysely<DB>, rid: number, hid: number): Promise<string> {
  const sum = await sql<{ fee: string }>`
    SELECT coalesce(sum(fee), 0)::numeric(14,2)::text AS fee FROM fee_bills
    WHERE rid = ${rid} AND hid = ${hid} AND status IN ('E', 'N')`.execute(db);
  return sum.rows[0]?.fee ?? '0.00';
}

const houseinfoplus = defineMethod('houseinfoplus', {
  side: 'community', roles: OWNER_LOOKUP, writes: false,
  summary: '业主抽屉头部：房屋业主的头像、姓名、欠费、手机、余额、人数、积分、登记时间、微信/APP 绑定，及其名下房屋',
  async handler(ctx, input) {
    const house = await findHouse(ctx, input);
    if (!house) return fail('房屋不存在或不属于当前小区');
    const [people, gelFee] = await Promise.all([
      ctx.db.selectFrom('room_members as rm')
        .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
        .select(['m.id', 'm.realname', 'm.mobile', 'm.avatar', 'm.balance', 'm.bonus', 'm.wx_isbind', 'm.app_isbind', 'm.create_time', 'rm.relation'])
        .where('rm.rid', '=', ctx.rid).where('rm.hid', '=', house.hid).where('rm.status', '=', 'Y')
        // the owner first; a room without one shows its first tenant or family member
        .orderBy(sql`rm.relation <> 'owner'`).orderBy('rm.id').execute(),
      arrears(ctx.db, ctx.rid, house.hid),
    ]);
    const owner = people[0];
    const houses = owner
      ? await ctx.db.selectFrom('room_members as rm')
        .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
        .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
        .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
        .select(['r.id', 'r.rid', 'r.bid', 'r.tid', addressSql.as('address')])
        .where('rm.rid', '=', ctx.rid).where('rm.member_id', '=', owner.id).where('rm.status', '=', 'Y')
        .orderBy('rm.id').execute()
      : [];
    if (!houses.some((h) => h.id === house.hid)) houses.unshift({ id: house.hid, rid: ctx.rid, bid: house.bid, tid: house.tid, address: house.address });
    const items: OwnerInfo = {
      member_id: owner?.id ?? null,
      owner_headurl: owner?.avatar ?? '',
      owner_name: owner?.realname ?? '',
      gel_fee: gelFee,
      mobile: owner?.mobile ?? '',
      owner_balance: owner?.balance ?? '0.00',
      wx_isbind: owner?.wx_isbind ?? 'N',
      app_isbind: owner?.app_isbind ?? 'N',
      member_num: people.length,
      owner_bonus: owner?.bonus ?? 0,
      create_time: wireTime(owner?.create_time),
      rid: ctx.rid, bid: house.bid, tid: house.tid, hid: house.hid, address: house.address,
      houses,
    };
    return { items };
  },
});

export const searchMethods = [getkeywordtohouses, houseinfoplus];
