/**
 * Customer care's records (关怀客户 /crm/customerlist, customshow, addcus, editcus;
 * docs/product.md#crm-care): the resource, what adding from a resident fills in, the staff who
 * look after customers, and 从住户导入 (a building's residents not recorded yet, all or nothing).
 */
import {
  ageOn,
  birthdayOfIdCard,
  CARE_ATTENTION,
  CARE_CUSTOMER_KIND,
  CARE_IMPORT_MAX,
  CARE_ROLES,
  careCustomer,
  enumText,
  type CareCustomerItem,
  type CareCustomerKind,
} from '@wuye/contract';
import { isMasked, maskContact, type ContactKind } from '@wuye/contract/team/contact';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { accountCodes } from '../../http/authenticate.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';

registerDependents({
  care_customers: '关怀客户档案',
  care_affairs: '关怀事务',
  care_affair_rules: '关怀规则',
  care_affair_batches: '批量事务',
});

/* ---------- the staff who look after customers ---------- */

/** The community's enabled staff holding the care code (or admin), by id when `ids` is given. */
export async function careStaff(db: Kysely<DB>, rid: number, ids?: readonly number[]) {
  let qb = db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .select(accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`).as('codes'))
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y');
  if (ids) qb = qb.where('a.id', 'in', ids.length ? [...ids] : [0]);
  const rows = await qb.orderBy('a.id').execute();
  return rows.filter((r) => r.codes.some((c) => c === 'admin' || (CARE_ROLES as readonly string[]).includes(c)));
}

/** Refuses an account that is not one of the community's care staff. */
export async function refuseNonStaff(db: Kysely<DB>, rid: number, accountId: number, label: string): Promise<void> {
  const [found] = await careStaff(db, rid, [accountId]);
  if (!found) fail(`${label}须为本小区有客户关怀权限的在职员工`);
}

const careStaffSmallList = defineMethod('care_staff_small_list', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '客户关怀的负责人下拉：本小区启用的、有客户关怀权限的员工（id、title）',
  async handler(ctx) {
    const rows = await careStaff(ctx.db, ctx.rid);
    return { items: rows.map((r) => ({ id: Number(r.id), title: r.name })) };
  },
});

/* ---------- the records ---------- */

/**
 * The rooms' addresses of a hids column, 、-joined; by the row's community too, so the rooms' key
 * (rid, id) finds them (by id alone every row read every room: minutes for an export at scale).
 */
export const housesOf = (hids: string, rid: string) =>
  sql<string>`coalesce((SELECT string_agg(r.address, '、' ORDER BY array_position(${sql.ref(hids)}, r.id)) FROM rooms r
    WHERE r.rid = ${sql.ref(rid)} AND r.id = ANY(${sql.ref(hids)})), '')`;

const customerQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('care_customers as t')
    .leftJoin('accounts as s', 's.id', 't.steward_id')
    .selectAll('t')
    .select(sql<string>`coalesce(s.name, '')`.as('steward_name'))
    .select(housesOf('t.hids', 't.rid').as('houses'))
    .select(
      sql<number>`(SELECT count(*)::int FROM care_affairs a WHERE a.rid = t.rid AND a.customer_id = t.id AND a.status = 'P')`.as(
        'open_affairs',
      ),
    )
    .select(
      sql<number>`(SELECT count(*)::int FROM care_affairs a
        WHERE a.rid = t.rid AND a.customer_id = t.id AND a.status = 'P' AND a.due_date < current_date)`.as('overdue_affairs'),
    )
    .select(
      sql<Date | null>`(SELECT max(a.done_at) FROM care_affairs a WHERE a.rid = t.rid AND a.customer_id = t.id AND a.status = 'Y')`.as(
        'last_care',
      ),
    )
    .where('t.rid', '=', rid);

type Raw = Record<string, unknown>;

/** A record as the wire has it (after the resource's defaults: create_time, the enums' texts). */
function toCustomer(r: Raw): CareCustomerItem {
  const birthday = (r.birthday as string | null) ?? null;
  const attention = (r.attention as CareCustomerItem['attention']) ?? [];
  return {
    id: Number(r.id),
    member_id: r.member_id === null ? null : Number(r.member_id),
    kind: r.kind as CareCustomerKind,
    kind_ch: String(r.kind_ch ?? ''),
    realname: String(r.realname),
    mobile: String(r.mobile),
    gender: r.gender as CareCustomerItem['gender'],
    gender_ch: String(r.gender_ch ?? ''),
    birthday,
    age: birthday ? ageOn(birthday, today()) : null,
    id_card: String(r.id_card ?? ''),
    hids: ((r.hids as Array<string | number>) ?? []).map(Number),
    houses: String(r.houses ?? ''),
    move_in_date: (r.move_in_date as string | null) ?? null,
    family_notes: String(r.family_notes ?? ''),
    preferences: String(r.preferences ?? ''),
    tags: (r.tags as string[]) ?? [],
    attention,
    steward_id: r.steward_id === null ? null : Number(r.steward_id),
    steward_name: String(r.steward_name ?? ''),
    status: r.status as 'Y' | 'N',
    status_ch: String(r.status_ch ?? ''),
    remark: String(r.remark ?? ''),
    open_affairs: Number(r.open_affairs ?? 0),
    overdue_affairs: Number(r.overdue_affairs ?? 0),
    last_care_time: r.last_care instanceof Date ? wireTime(r.last_care) : String(r.last_care ?? ''),
    create_time: String(r.create_time ?? ''),
    ...{ attention_ch: attention.map((a) => enumText(CARE_ATTENTION, a)).join('、') },
  } as CareCustomerItem;
}

/** A record as its list shows it. */
export async function customerRow(ctx: Pick<CommunityCtx, 'db' | 'rid'>, id: number): Promise<CareCustomerItem> {
  const r = await customerQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) fail('关怀客户不存在');
  return toCustomer({ ...r, create_time: wireTime(r.created_at) });
}

/** A person of the owners area as a record takes them: their data, rooms now, relation and first move-in. */
async function residentOf(db: Kysely<DB>, rid: number, memberId: number, hid?: number) {
  const m = await db
    .selectFrom('members')
    .select(['id', 'realname', 'mobile', 'gender', 'id_card'])
    .where('rid', '=', rid)
    .where('id', '=', memberId)
    .executeTakeFirst();
  if (!m) fail('住户不存在');
  const rooms = await db
    .selectFrom('room_members')
    .select(['hid', 'relation', 'move_in_date'])
    .where('rid', '=', rid)
    .where('member_id', '=', memberId)
    .where('status', '=', 'Y')
    .orderBy('id')
    .execute();
  if (hid !== undefined && !rooms.some((r) => r.hid === hid)) fail('住户必须是该房屋的在住住户');
  // the chosen room first: its relation is the record's kind
  const ordered = [...rooms.filter((r) => r.hid === hid), ...rooms.filter((r) => r.hid !== hid)];
  const moveIns = rooms.map((r) => r.move_in_date).filter((d): d is string => !!d);
  return {
    ...m,
    hids: [...new Set(ordered.map((r) => r.hid))],
    kind: (ordered[0]?.relation ?? 'other') as CareCustomerKind,
    move_in_date: moveIns.length ? moveIns.reduce((a, b) => (a < b ? a : b)) : null,
    birthday: birthdayOfIdCard(m.id_card),
  };
}

async function refuseRecorded(db: Kysely<DB>, rid: number, memberId: number, except?: number): Promise<void> {
  let qb = db.selectFrom('care_customers').select(['id', 'realname']).where('rid', '=', rid).where('member_id', '=', memberId);
  if (except) qb = qb.where('id', '<>', except);
  const found = await qb.executeTakeFirst();
  if (found) fail(`该住户已建档（${found.realname}，档案号 ${found.id}），不能重复添加`);
}

/**
 * A mobile or ID number as the form sent it: blank or sent back as it was shown masked, the stored
 * one (the person's, or the record's) stays; other masked text is refused.
 */
function whole(kind: ContactKind, sent: unknown, stored: string | undefined, message: string): string {
  const value = String(sent ?? '');
  if (value === '') return stored ?? '';
  if (!isMasked(value)) return value;
  if (stored === undefined || maskContact(kind, stored) !== value) fail(message);
  return stored;
}

const MOBILE_MSG = '手机号码格式不正确，应为11位手机号';
const ID_CARD_MSG = '身份证号码不正确';

const resourceMethods = defineResource(careCustomer, {
  table: 'care_customers',
  query: (db, rid) => customerQuery(db as Kysely<DB>, rid),
  row: toCustomer,
  where: {
    keyword: (qb, value) => {
      const k = likePattern(String(value));
      return qb.where((eb) => eb.or([eb('t.realname', 'like', k), eb('t.mobile', 'like', k)]));
    },
    // a room's id is unique across communities: the building's rooms are its own
    bid: (qb, value) => qb.where(sql<boolean>`t.hids && array(SELECT r.id FROM rooms r WHERE r.bid = ${Number(value)})`),
    special: (qb, value) => qb.where(sql<boolean>`t.attention @> ARRAY[${String(value)}]::text[]`),
    tag: (qb, value) => qb.where(sql<boolean>`t.tags @> ARRAY[${String(value)}]::text[]`),
    birth_month: (qb, value) => qb.where('t.birth_month', '=', Number(value)),
    has_open: (qb, value) =>
      qb.where(
        value === 'Y'
          ? sql<boolean>`EXISTS (SELECT 1 FROM care_affairs a WHERE a.rid = t.rid AND a.customer_id = t.id AND a.status = 'P')`
          : sql<boolean>`NOT EXISTS (SELECT 1 FROM care_affairs a WHERE a.rid = t.rid AND a.customer_id = t.id AND a.status = 'P')`,
      ),
  },
  async values(input, ctx, before) {
    const { hid, member_id, ...v } = input as Raw & { hid?: number | null; member_id?: number | null };
    const stored = before as (Raw & { mobile: string; id_card: string; member_id: number | null }) | undefined;
    const memberId = stored ? stored.member_id : (member_id ?? null);
    // a new record's person must live in the room chosen; an edit's keeps its person wherever they live now
    const person = memberId ? await residentOf(ctx.db, ctx.rid, Number(memberId), stored ? undefined : (hid ?? 0)) : null;
    if (!stored && person) await refuseRecorded(ctx.db, ctx.rid, person.id);
    const mobile = whole('mobile', v.mobile, stored?.mobile ?? person?.mobile, MOBILE_MSG);
    const idCard = whole('id_card', v.id_card, stored?.id_card ?? person?.id_card, ID_CARD_MSG);
    if (!mobile) fail(MOBILE_MSG);
    const birthday = (v.birthday as string | null) ?? birthdayOfIdCard(idCard) ?? null;
    if (birthday && birthday > today()) fail('生日不能晚于今天');
    if (v.steward_id) await refuseNonStaff(ctx.db, ctx.rid, Number(v.steward_id), '负责管家');
    const values: Raw = {
      ...v,
      realname: String(v.realname || person?.realname || ''),
      mobile,
      id_card: idCard,
      gender: v.gender || person?.gender || '',
      birthday,
      kind: v.kind ?? stored?.kind ?? person?.kind ?? 'other',
      move_in_date: (v.move_in_date as string | null) ?? (stored ? null : (person?.move_in_date ?? null)),
    };
    if (!values.realname) fail('请输入姓名');
    // a linked person's rooms follow where they live now; another's stay the room chosen when added
    if (person) values.hids = person.hids;
    else if (!stored) values.hids = hid ? [Number(hid)] : [];
    if (!stored) return { ...values, member_id: memberId, created_by: ctx.session.accountId };
    return values;
  },
  dependents: { care_affairs: '该客户已有关怀事务，不能删除；不再关怀时请把关怀状态改为已停止' },
  summaries: {
    list: '关怀客户列表：姓名、类型、手机号、生日与年龄、房屋、特别关注、负责管家、待办事务数、最近关怀时间',
    add: '新增关怀客户：选住户（房屋→住户，资料从住户带入并关联，同一住户只能建档一次）或填写非住户的姓名和手机号',
    edit: '修改关怀客户：关联住户的房屋按其现住房屋更新；手机号、身份证号按原样（脱敏）提交时保留原值',
    del: '删除关怀客户：已有关怀事务的客户不能删除（改为已停止）',
    info: '关怀客户详情（客户档案页）',
  },
});

/* ---------- what adding from a resident fills in ---------- */

const carememberinfo = defineMethod('carememberinfo', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '从住户建档时带入的资料：姓名、手机号、性别、身份证号与其中的生日、身份、现住房屋、最早入住日期，以及是否已建档',
  async handler(ctx, input) {
    const p = await residentOf(ctx.db, ctx.rid, input.member_id);
    const houses = await ctx.db
      .selectFrom('rooms')
      .select('address')
      .where('rid', '=', ctx.rid)
      .where('id', 'in', p.hids.length ? p.hids : [0])
      .execute();
    const recorded = await ctx.db
      .selectFrom('care_customers')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('member_id', '=', p.id)
      .executeTakeFirst();
    return {
      member_id: Number(p.id),
      realname: p.realname,
      mobile: p.mobile,
      gender: p.gender,
      id_card: p.id_card,
      birthday: p.birthday,
      kind: p.kind,
      move_in_date: p.move_in_date,
      houses: houses.map((h) => h.address).join('、'),
      customer_id: recorded ? Number(recorded.id) : null,
    };
  },
});

const careResidentSmallList = defineMethod('care_resident_small_list', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '房屋的在住住户下拉（从住户建档时选择）：id、title（姓名 手机号 身份）、relation、已建档的档案号',
  async handler(ctx, input) {
    const rows = await ctx.db
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .leftJoin('care_customers as c', (j) => j.onRef('c.rid', '=', 'rm.rid').onRef('c.member_id', '=', 'rm.member_id'))
      .select(['m.id', 'm.realname', 'm.mobile', 'rm.relation', 'c.id as customer_id'])
      .where('rm.rid', '=', ctx.rid)
      .where('rm.hid', '=', input.hid)
      .where('rm.status', '=', 'Y')
      .orderBy('rm.id')
      .execute();
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        // the mobile masked here: a title is not a contact field the dispatcher knows
        title: `${r.realname} ${maskContact('mobile', r.mobile)}（${enumText(CARE_CUSTOMER_KIND, r.relation)}${r.customer_id ? '，已建档' : ''}）`,
        relation: r.relation,
        customer_id: r.customer_id === null ? null : Number(r.customer_id),
      })),
    };
  },
});

/* ---------- 从住户导入 ---------- */

/** The people living now in a building's rooms, of the chosen relations, with whether each is recorded. */
async function buildingResidents(db: Kysely<DB>, rid: number, bid: number, kinds: readonly string[]) {
  const building = await db.selectFrom('buildings').select('title').where('rid', '=', rid).where('id', '=', bid).executeTakeFirst();
  if (!building) fail('所选楼栋不存在或不属于当前小区');
  const counts = await sql<{ residents: number; recorded: number }>`
    SELECT count(*)::int AS residents, count(c.id)::int AS recorded FROM (
      SELECT DISTINCT rm.member_id FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      WHERE rm.rid = ${rid} AND r.bid = ${bid} AND rm.status = 'Y' AND rm.relation = ANY(${kinds}::text[])
    ) p LEFT JOIN care_customers c ON c.rid = ${rid} AND c.member_id = p.member_id`.execute(db);
  const { residents, recorded } = counts.rows[0]!;
  return { building: building.title, residents, recorded, to_add: residents - recorded };
}

const careimportpreview = defineMethod('careimportpreview', {
  side: 'community',
  roles: CARE_ROLES,
  writes: false,
  summary: '从住户导入的预览：所选楼栋现住的所选身份住户数、已建档数、将新增数',
  handler: (ctx, input) => buildingResidents(ctx.db, ctx.rid, input.bid, input.kinds),
});

const careimport = defineMethod('careimport', {
  side: 'community',
  roles: CARE_ROLES,
  writes: true,
  summary: '从住户导入：为所选楼栋现住、尚未建档的住户建立关怀档案（资料、房屋、入住日期、生日从住户带入），全部成功或全部不导入',
  async handler(ctx, input) {
    if (input.steward_id) await refuseNonStaff(ctx.db, ctx.rid, input.steward_id, '负责管家');
    const seen = await buildingResidents(ctx.db, ctx.rid, input.bid, input.kinds);
    if (seen.to_add === 0) fail(`${seen.building}的所选住户都已建档，没有可导入的住户`);
    if (seen.to_add > CARE_IMPORT_MAX) fail(`一次最多导入 ${CARE_IMPORT_MAX} 位住户，${seen.building}有 ${seen.to_add} 位，请分批导入`);
    // one statement: every person gets a record or, failing (a record added meanwhile), none does
    const added = await sql<{ id: number; id_card: string }>`
      WITH people AS (
        SELECT rm.member_id,
          array_agg(rm.hid ORDER BY (r.bid = ${input.bid}) DESC, rm.id) AS hids,
          (array_agg(rm.relation ORDER BY (r.bid = ${input.bid}) DESC, rm.id))[1] AS relation,
          min(rm.move_in_date) AS move_in_date
        FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
        WHERE rm.rid = ${ctx.rid} AND rm.status = 'Y'
          AND rm.member_id IN (
            SELECT x.member_id FROM room_members x JOIN rooms xr ON xr.rid = x.rid AND xr.id = x.hid
            WHERE x.rid = ${ctx.rid} AND xr.bid = ${input.bid} AND x.status = 'Y' AND x.relation = ANY(${input.kinds}::text[]))
          AND NOT EXISTS (SELECT 1 FROM care_customers c WHERE c.rid = ${ctx.rid} AND c.member_id = rm.member_id)
        GROUP BY rm.member_id
      )
      INSERT INTO care_customers (rid, member_id, kind, realname, mobile, gender, id_card, hids, move_in_date,
        steward_id, remark, created_by)
      SELECT ${ctx.rid}, m.id, p.relation, m.realname, m.mobile, m.gender, m.id_card, p.hids, p.move_in_date,
        ${input.steward_id ?? null}::bigint, '从住户导入', ${ctx.session.accountId}::bigint
      FROM people p JOIN members m ON m.rid = ${ctx.rid} AND m.id = p.member_id
      ORDER BY p.member_id
      RETURNING id, id_card`.execute(ctx.db);
    // the birthdays the ID numbers record (the one reading of an ID number: birthdayOfIdCard)
    const born = added.rows.flatMap((r) => {
      const day = birthdayOfIdCard(r.id_card);
      return day ? [{ id: Number(r.id), day }] : [];
    });
    if (born.length)
      await sql`UPDATE care_customers c SET birthday = b.day::date
        FROM unnest(${born.map((b) => b.id)}::bigint[], ${born.map((b) => b.day)}::text[]) AS b(id, day)
        WHERE c.rid = ${ctx.rid} AND c.id = b.id`.execute(ctx.db);
    const n = added.rows.length;
    if (n !== seen.to_add) fail('导入时住户资料有变动，未导入任何住户，请重新预览后再导入');
    return reply({ added: n, skipped: seen.recorded }, `已从${seen.building}导入 ${n} 位住户，${seen.recorded} 位已建档未重复导入`);
  },
});

export const careMethods = [...resourceMethods, careStaffSmallList, careResidentSmallList, carememberinfo, careimportpreview, careimport];
