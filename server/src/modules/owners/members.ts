import { isMasked, maskContact, type ContactKind } from '@wuye/contract/team/contact';
import {
  CAR_STATUS,
  CAR_TYPE,
  enumText,
  GENDER_CH,
  genderOfIdCard,
  RELATION_CH,
  type MemberDetail,
  type MemberItem,
  type MemberRoom,
  type RelationCode,
  type ownersMethods,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { defineExport, type ExportScope } from '../../jobs/exports.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { CAR_MANAGERS, MEMBER_MANAGERS } from './access.js';
import { keywordCondition, mobileStartsWith } from './search.js';
import { revokeGrantsOfMember } from '../access/sync.js';

type Filters = z.output<(typeof ownersMethods)['memberlist']>;

/** The members matching the page's filters (alias m). */
function filtered(ctx: ExportScope, f: Omit<Filters, 'page' | 'limit' | 'sort'>) {
  let qb = ctx.db.selectFrom('members as m').where('m.rid', '=', ctx.rid);
  if (f.name) qb = qb.where(keywordCondition(ctx.rid, f.name));
  const mobileDigits = f.mobile?.replace(/\D/g, '');
  if (mobileDigits) qb = qb.where(mobileStartsWith(mobileDigits));
  if (f.wx_isbind) qb = qb.where('m.wx_isbind', '=', f.wx_isbind);
  if (f.app_isbind) qb = qb.where('m.app_isbind', '=', f.app_isbind);
  if (f.bid || f.hid || f.relation || f.living === 'Y') {
    qb = qb.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('room_members as rm')
          .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
          .select(sql`1`.as('x'))
          .whereRef('rm.rid', '=', 'm.rid')
          .whereRef('rm.member_id', '=', 'm.id')
          .where('rm.status', '=', 'Y')
          .$if(!!f.bid, (q) => q.where('r.bid', '=', f.bid!))
          .$if(!!f.hid, (q) => q.where('r.id', '=', f.hid!))
          .$if(!!f.relation, (q) => q.where('rm.relation', '=', f.relation as RelationCode)),
      ),
    );
  }
  if (f.living === 'N') {
    qb = qb.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('room_members as rm')
            .select(sql`1`.as('x'))
            .whereRef('rm.rid', '=', 'm.rid')
            .whereRef('rm.member_id', '=', 'm.id')
            .where('rm.status', '=', 'Y'),
        ),
      ),
    );
  }
  return qb;
}

const memberColumns = [
  'm.id',
  'm.realname',
  'm.mobile',
  'm.id_card',
  'm.gender',
  'm.avatar',
  'm.wx_isbind',
  'm.app_isbind',
  'm.balance',
  'm.bonus',
  'm.remark',
  'm.create_time',
] as const;

/** Room links of these members, current first, with the addresses. */
async function roomsOf(db: Kysely<DB>, rid: number, memberIds: number[], currentOnly: boolean) {
  if (!memberIds.length) return new Map<number, MemberRoom[]>();
  const rows = await db
    .selectFrom('room_members as rm')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
    .select([
      'rm.id',
      'rm.member_id',
      'rm.hid',
      'r.bid',
      'r.tid',
      'r.address',
      'rm.relation',
      'rm.move_in_date',
      'rm.move_out_date',
      'rm.status',
    ])
    // one array parameter, however many people (an export asks for up to 100,000; IN would take one parameter each)
    .where('rm.rid', '=', rid)
    .where(sql<boolean>`rm.member_id = ANY(${memberIds}::bigint[])`)
    .$if(currentOnly, (q) => q.where('rm.status', '=', 'Y'))
    .orderBy('rm.status', 'desc')
    .orderBy('rm.id')
    .execute();
  const byMember = new Map<number, MemberRoom[]>();
  for (const r of rows) {
    const list = byMember.get(r.member_id) ?? [];
    list.push({
      id: r.id,
      hid: r.hid,
      bid: r.bid,
      tid: r.tid,
      address: r.address,
      relation: r.relation,
      relation_ch: RELATION_CH[r.relation],
      move_in_date: r.move_in_date ?? '',
      move_out_date: r.move_out_date ?? '',
      status: r.status,
    });
    byMember.set(r.member_id, list);
  }
  return byMember;
}

type MemberRow = {
  id: number;
  realname: string;
  mobile: string;
  id_card: string;
  gender: '' | 'M' | 'F';
  avatar: string;
  wx_isbind: 'Y' | 'N';
  app_isbind: 'Y' | 'N';
  balance: string;
  bonus: number;
  remark: string;
  create_time: Date;
};

const toItem = (m: MemberRow, rooms: MemberRoom[]): MemberItem => ({
  ...m,
  gender_ch: GENDER_CH[m.gender] ?? '',
  create_time: wireTime(m.create_time),
  rooms,
  houses: rooms
    .filter((r) => r.status === 'Y')
    .map((r) => `${r.address}（${r.relation_ch}）`)
    .join('，'),
});

const memberlist = defineMethod('memberlist', {
  side: 'community',
  // the car form's owner picker (a room's people living there) reads it too: parking staff register cars
  roles: CAR_MANAGERS,
  writes: false,
  summary: '业主管理列表：按姓名、手机号、楼栋、房屋、身份、微信/APP 绑定、在住筛选，含所住房屋',
  async handler(ctx, input) {
    const page = await listPage(filtered(ctx, input).select(memberColumns), input, 'm.id');
    const rooms = await roomsOf(
      ctx.db,
      ctx.rid,
      page.items.map((m) => m.id),
      false,
    );
    return { total: page.total, items: page.items.map((m) => toItem(m, rooms.get(m.id) ?? [])) };
  },
});

async function loadMember(ctx: CommunityCtx, id: number) {
  return ctx.db.selectFrom('members as m').select(memberColumns).where('m.rid', '=', ctx.rid).where('m.id', '=', id).executeTakeFirst();
}

const memberinfo = defineMethod('memberinfo', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: false,
  summary: '住户详情：资料、所有房屋（含已迁出）与车辆',
  async handler(ctx, input): Promise<MemberDetail> {
    const m = await loadMember(ctx, input.id);
    if (!m) fail('住户不存在');
    const [rooms, cars] = await Promise.all([
      roomsOf(ctx.db, ctx.rid, [m.id], false),
      ctx.db
        .selectFrom('cars')
        .select(['id', 'hid', 'carlicense', 'car_type', 'status'])
        .where('rid', '=', ctx.rid)
        .where('member_id', '=', m.id)
        .orderBy('id')
        .execute(),
    ]);
    return {
      ...toItem(m, rooms.get(m.id) ?? []),
      cars: cars.map((c) => ({
        id: c.id,
        hid: c.hid,
        carlicense: c.carlicense,
        car_type_ch: enumText(CAR_TYPE, c.car_type),
        status_ch: enumText(CAR_STATUS, c.status),
      })),
    };
  },
});

type RoomLink = { hid: number; relation: RelationCode; move_in_date?: string };

/** Checks the rooms of a payload: in this community, each once. */
async function checkRooms(ctx: CommunityCtx, links: RoomLink[]): Promise<void> {
  const hids = links.map((l) => l.hid);
  if (new Set(hids).size !== hids.length) fail('同一房屋不能重复选择');
  if (!hids.length) return;
  const found = await ctx.db.selectFrom('rooms').select('id').where('rid', '=', ctx.rid).where('id', 'in', hids).execute();
  if (found.length !== hids.length) fail('所选房屋不存在或不属于当前小区');
}

async function checkMobileFree(ctx: CommunityCtx, mobile: string, exceptId?: number): Promise<void> {
  const other = await ctx.db
    .selectFrom('members')
    .select(['id', 'realname'])
    .where('rid', '=', ctx.rid)
    .where('mobile', '=', mobile)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  if (other) fail(`手机号 ${mobile} 已登记为住户“${other.realname}”，请在其资料中添加房屋`);
}

/**
 * Links a person to rooms (or updates the relation of a link that exists) and marks vacant rooms
 * lived in; a lease's activation links its tenant through it (modules/crm/leasesBilling.ts).
 */
export async function linkRooms(ctx: CommunityCtx, memberId: number, links: RoomLink[]): Promise<void> {
  for (const link of links) {
    const current = await ctx.db
      .selectFrom('room_members')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('hid', '=', link.hid)
      .where('member_id', '=', memberId)
      .where('status', '=', 'Y')
      .executeTakeFirst();
    if (current) {
      await ctx.db
        .updateTable('room_members')
        .set({ relation: link.relation, ...(link.move_in_date ? { move_in_date: link.move_in_date } : {}) })
        .where('rid', '=', ctx.rid)
        .where('id', '=', current.id)
        .execute();
    } else {
      await ctx.db
        .insertInto('room_members')
        .values({
          rid: ctx.rid,
          hid: link.hid,
          member_id: memberId,
          relation: link.relation,
          move_in_date: link.move_in_date ?? today(),
        })
        .execute();
    }
    await ctx.db
      .updateTable('rooms')
      .set({ state: link.relation === 'tenant' ? 'rented' : 'occupied' })
      .where('rid', '=', ctx.rid)
      .where('id', '=', link.hid)
      .where('state', '=', 'vacant')
      .execute();
  }
}

/** A gender left blank is the one the ID number records (the form fills it in too; an import may not). */
const withGender = <T extends { gender: '' | 'M' | 'F'; id_card: string }>(person: T): T => ({
  ...person,
  gender: person.gender || genderOfIdCard(person.id_card),
});

const memberadd = defineMethod('memberadd', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: true,
  summary: '新增住户：资料（姓名、手机号、身份证、性别、绑定）与一个或多个房屋及身份（业主/家属/租户）',
  async handler(ctx, input) {
    await checkRooms(ctx, input.rooms);
    await checkMobileFree(ctx, input.mobile);
    const { rooms, ...person } = withGender(input);
    const { id } = await ctx.db
      .insertInto('members')
      .values({ rid: ctx.rid, ...person })
      .returning('id')
      .executeTakeFirstOrThrow();
    await linkRooms(ctx, id, rooms);
    return reply({ id }, '添加成功');
  },
});

/** A value sent back as it was shown masked keeps the stored one; masked text that is not the stored value's mask is refused. */
export function unmasked(kind: ContactKind, sent: string, stored: string, message: string): string {
  if (!isMasked(sent)) return sent;
  if (maskContact(kind, stored) !== sent) fail(message);
  return stored;
}

const memberedit = defineMethod('memberedit', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: true,
  summary: '编辑住户资料；rooms 可为其添加房屋或修改在住房屋的身份（迁出用 membermoveout）',
  async handler(ctx, input) {
    const stored = await ctx.db
      .selectFrom('members')
      .select(['mobile', 'id_card'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!stored) fail('住户不存在');
    const whole = {
      ...input,
      mobile: unmasked('mobile', input.mobile, stored.mobile, '手机号码格式不正确，应为11位手机号'),
      id_card: unmasked('id_card', input.id_card, stored.id_card, '身份证号码不正确'),
    };
    await checkRooms(ctx, whole.rooms);
    await checkMobileFree(ctx, whole.mobile, whole.id);
    const { id, rooms, ...person } = withGender(whole);
    await ctx.db.updateTable('members').set(person).where('rid', '=', ctx.rid).where('id', '=', id).execute();
    await linkRooms(ctx, id, rooms);
    return reply({ id }, '保存成功');
  },
});

/**
 * Ends one person-room link on `date` (kept as history): their door access revoked, the room vacant
 * when no one lives there any more. membermoveout and a lease's check-out (modules/crm) move out
 * through it.
 */
export async function moveOutLink(
  ctx: CommunityCtx,
  link: { id: number; hid: number; member_id: number; move_in_date: string | null },
  date: string,
): Promise<void> {
  if (link.move_in_date && date < link.move_in_date) fail(`迁出日期不能早于入住日期 ${link.move_in_date}`);
  await ctx.db
    .updateTable('room_members')
    .set({ status: 'N', move_out_date: date })
    .where('rid', '=', ctx.rid)
    .where('id', '=', link.id)
    .execute();
  // a grant never outlives the person's tie to the room: revoked, and the devices told to delete it
  await revokeGrantsOfMember(ctx.db, ctx.rid, Number(link.member_id), Number(link.hid), '迁出注销', ctx.session.accountId);
  const left = await ctx.db
    .selectFrom('room_members')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('hid', '=', link.hid)
    .where('status', '=', 'Y')
    .executeTakeFirst();
  if (!left) {
    await ctx.db
      .updateTable('rooms')
      .set({ state: 'vacant' })
      .where('rid', '=', ctx.rid)
      .where('id', '=', link.hid)
      .where('state', 'in', ['occupied', 'rented'])
      .execute();
  }
}

const membermoveout = defineMethod('membermoveout', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: true,
  summary: '迁出：结束一条住户-房屋关系（id 为关系 id），保留为历史；房屋无人在住时改为空置',
  async handler(ctx, input) {
    const link = await ctx.db
      .selectFrom('room_members')
      .select(['id', 'hid', 'member_id', 'status', 'move_in_date'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!link) fail('住户房屋关系不存在');
    if (link.status !== 'Y') fail('该住户已从此房屋迁出');
    const date = input.date ?? today();
    await moveOutLink(ctx, link, date);
    return reply({ id: link.id, move_out_date: date }, '迁出成功');
  },
});

const memberexport = defineExport('memberexport', {
  roles: MEMBER_MANAGERS,
  summary: '导出住户（按列表的筛选条件）为 Excel',
  filename: () => `住户_${today()}.xlsx`,
  check: (scope, input) => refuseOversizedExport(scope.db, filtered(scope, input).select('m.id')),
  async sheet(scope, input) {
    const rows = await filtered(scope, input).select(memberColumns).orderBy('m.id', input.sort).limit(EXPORT_MAX).execute();
    const rooms = await roomsOf(
      scope.db,
      scope.rid,
      rows.map((m) => m.id),
      true,
    );
    return sheetOf(
      '住户',
      [
        { header: '姓名', value: (m) => m.realname },
        { header: '手机号', value: (m) => m.mobile, width: 14, contact: 'mobile' },
        { header: '身份证号', value: (m) => m.id_card, width: 22, contact: 'id_card' },
        { header: '性别', value: (m) => m.gender_ch },
        { header: '房屋（身份）', value: (m) => m.houses, width: 40 },
        { header: '微信绑定', value: (m) => (m.wx_isbind === 'Y' ? '已绑定' : '未绑定') },
        { header: 'APP绑定', value: (m) => (m.app_isbind === 'Y' ? '已绑定' : '未绑定') },
        { header: '余额', value: (m) => m.balance },
        { header: '积分', value: (m) => m.bonus },
        { header: '登记时间', value: (m) => m.create_time, width: 20 },
      ],
      rows.map((m) => toItem(m, rooms.get(m.id) ?? [])),
    );
  },
});

export const memberMethods = [memberlist, memberinfo, memberadd, memberedit, membermoveout, memberexport];
