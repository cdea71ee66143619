import {
  addDays,
  COMMUNITY_MODULE_KEYS,
  COMMUNITY_MODULES,
  enumText,
  modulesOff,
  daysBetween,
  REGION_SOON_DAYS,
  REGION_STATUS,
  type RegionExpiry,
  fenToYuan,
  GROUP_LEADERS,
  toFen,
  type LeaderRegion,
  type RegionDelayLogItem,
  type RegionDetail,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, RegionsTable } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { groupRegion } from './groupRegion.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, xlsxFile, type SheetColumn } from '../../lib/excel.js';
import { defineExport } from '../../jobs/exports.js';
import { daysLeft, today, wireTime } from '../../lib/wire.js';
import { extendRegion } from '../renewal/extend.js';
import { likePattern } from '../../lib/like.js';
import { insertDefaultCategories } from './defaults.js';
import { createAccount } from '../team/staff.js';
import { CODE_TTL_SECONDS, issueCode } from '../auth/sessions.js';

const LEADER = GROUP_LEADERS;
const DELAY_KIND_TEXT = { pay: '扫码续费', code: '激活码续费', manual: '手动延期' } as const;

const toDetail = (r: Selectable<RegionsTable>): RegionDetail => ({
  id: r.id,
  title: r.title,
  address: r.address,
  phone: r.phone,
  area: r.area,
  logo_url: r.logo_url,
  region_img: r.region_img,
  copyright: r.copyright,
  end_time: r.end_time,
  days_left: daysLeft(r.end_time),
});

async function leaderRegion(db: Kysely<DB>, groupId: number, id: number): Promise<LeaderRegion | undefined> {
  const page = await leaderRegionQuery(db, groupId).where('r.id', '=', id).execute();
  return page[0] ? toLeaderRegion(page[0]) : undefined;
}

function leaderRegionQuery(db: Kysely<DB>, groupId: number) {
  return db
    .selectFrom('regions as r')
    .selectAll('r')
    .select((eb) => [
      eb
        .selectFrom('buildings')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('buildings.rid', '=', 'r.id')
        .as('building_count'),
      eb
        .selectFrom('rooms')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('rooms.rid', '=', 'r.id')
        .as('room_count'),
    ])
    .where('r.group_id', '=', groupId);
}

type LeaderRow = Selectable<RegionsTable> & { building_count: number | null; room_count: number | null };
const toLeaderRegion = (r: LeaderRow): LeaderRegion => ({
  ...toDetail(r),
  province: r.province,
  city: r.city,
  district: r.district,
  map_point: r.map_point,
  service_qr: r.service_qr,
  modules: COMMUNITY_MODULE_KEYS.filter((m) => !r.modules_off.includes(m)),
  price_per_year: r.price_per_year,
  status: r.status === 'N' ? 'N' : 'Y',
  building_count: r.building_count ?? 0,
  room_count: r.room_count ?? 0,
  create_time: wireTime(r.created_at),
});

/** A community of the leader's own group, or a refusal. */
const ownRegion = (db: Kysely<DB>, session: Session, id: number) => groupRegion(db, session.groupId, id, '小区不存在');

const regioninfo = defineMethod('regioninfo', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '本小区资料：名称、地址、电话、面积、logo、平面图、版权、到期日与剩余天数',
  async handler(ctx) {
    return toDetail(await ctx.db.selectFrom('regions').selectAll().where('id', '=', ctx.rid).executeTakeFirstOrThrow());
  },
});

const regionedit = defineMethod('regionedit', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '修改本小区资料（名称、地址、电话、面积、logo、平面图、版权）',
  async handler(ctx, input) {
    await refuseDuplicateTitle(ctx, input.title, ctx.rid);
    const row = await ctx.db.updateTable('regions').set(input).where('id', '=', ctx.rid).returningAll().executeTakeFirstOrThrow();
    return reply(toDetail(row), '保存成功');
  },
});

interface LeaderRegionFilters {
  title?: string | undefined;
  status?: 'Y' | 'N' | '' | undefined;
  expiry?: RegionExpiry | '' | undefined;
}

/** The group's communities the filters keep: a name or place, the state, where the service period stands. */
function leaderRegionsFiltered(db: Kysely<DB>, groupId: number, f: LeaderRegionFilters) {
  let qb = leaderRegionQuery(db, groupId);
  const words = f.title?.trim();
  if (words) {
    const like = likePattern(words);
    qb = qb.where((eb) =>
      eb.or([
        eb('r.title', 'ilike', like),
        eb('r.address', 'ilike', like),
        eb('r.province', 'ilike', like),
        eb('r.city', 'ilike', like),
        eb('r.district', 'ilike', like),
      ]),
    );
  }
  if (f.status) qb = qb.where('r.status', '=', f.status);
  const day = today();
  const soon = addDays(day, REGION_SOON_DAYS);
  if (f.expiry === 'expired') qb = qb.where('r.end_time', '<', day);
  if (f.expiry === 'soon') qb = qb.where('r.end_time', '>=', day).where('r.end_time', '<', soon);
  if (f.expiry === 'ok') qb = qb.where('r.end_time', '>=', soon);
  return qb;
}

const leaderregionlist = defineMethod('leaderregionlist', {
  side: 'group',
  roles: LEADER,
  writes: false,
  summary:
    '集团下的小区：到期日、剩余天数、续费单价、楼栋与房屋数、开通模块、状态；按名称或地区、状态、到期状态（已过期、30天内到期、正常）筛选',
  async handler(ctx, input) {
    const page = await listPage(leaderRegionsFiltered(ctx.db, ctx.session.groupId, input), input, 'r.id');
    return { total: page.total, items: page.items.map(toLeaderRegion) };
  },
});

// a group has tens to hundreds of communities: the workbook is made in the call (lib/excel.ts xlsxFile)
const leaderregionexport = defineMethod('leaderregionexport', {
  side: 'group',
  roles: LEADER,
  writes: false,
  summary:
    '按当前筛选条件导出集团的小区（Excel：名称、地区、地址、电话、楼栋与房屋数、开通模块、续费单价、到期日、剩余天数、状态），在本次调用中返回文件',
  async handler(ctx, input) {
    const rows = await leaderRegionsFiltered(ctx.db, ctx.session.groupId, input).orderBy('r.id').limit(EXPORT_MAX).execute();
    const columns: Array<SheetColumn<LeaderRegion>> = [
      { header: 'ID', value: (r) => r.id, width: 8 },
      { header: '小区名称', value: (r) => r.title, width: 20 },
      { header: '省市区', value: (r) => [r.province, r.city, r.district].filter(Boolean).join(' '), width: 20 },
      { header: '地址', value: (r) => r.address, width: 30 },
      { header: '联系电话', value: (r) => r.phone, width: 14 },
      { header: '楼栋数', value: (r) => r.building_count, width: 8 },
      { header: '房屋数', value: (r) => r.room_count, width: 8 },
      {
        header: '开通模块',
        value: (r) => (r.modules.length === COMMUNITY_MODULE_KEYS.length ? '全部' : r.modules.map((m) => COMMUNITY_MODULES[m]).join('、')),
        width: 30,
      },
      { header: '续费单价(元/年)', value: (r) => r.price_per_year },
      { header: '到期日', value: (r) => r.end_time, width: 12 },
      { header: '剩余天数', value: (r) => r.days_left, width: 10 },
      { header: '状态', value: (r) => enumText(REGION_STATUS, r.status), width: 8 },
      { header: '创建时间', value: (r) => r.create_time, width: 20 },
    ];
    return xlsxFile(`小区列表_${today()}.xlsx`, '小区', columns, rows.map(toLeaderRegion));
  },
});

const leaderregionadd = defineMethod('leaderregionadd', {
  side: 'group',
  roles: LEADER,
  writes: true,
  summary: '新增小区（含省市区、到期日、续费单价、开通的功能模块），建好默认房屋类型；可同时建小区管理员账号（一次性密码，首次登录须修改）',
  async handler(ctx, input) {
    const { admin, modules, ...values } = input;
    await refuseDuplicateTitle(ctx, values.title);
    const { id } = await ctx.db
      .insertInto('regions')
      .values({ ...values, group_id: ctx.session.groupId, sub_title: values.title, modules_off: modulesOff(modules) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertDefaultCategories(ctx.db, id);
    if (!admin) return reply({ id, admin: null }, '添加成功');
    const account = await createFirstAdmin(ctx, id, admin);
    return reply(
      { id, admin: { username: admin.username, password: account.password } },
      `添加成功，管理员 ${admin.username} 的一次性密码 ${account.password} 只显示这一次，首次登录须修改`,
    );
  },
});

const leaderregionedit = defineMethod('leaderregionedit', {
  side: 'group',
  roles: LEADER,
  writes: true,
  summary: '修改小区资料、到期日、续费单价、状态；改到期日记入续费记录',
  async handler(ctx, input) {
    const { id, ...values } = input;
    const region = await ownRegion(ctx.db, ctx.session, id);
    await refuseDuplicateTitle(ctx, values.title, id);
    await ctx.db.updateTable('regions').set(values).where('id', '=', id).execute();
    if (values.end_time !== region.end_time) {
      await ctx.db
        .insertInto('region_delay_log')
        .values({
          rid: id,
          kind: 'manual',
          ref: '集团修改到期日',
          old_end: region.end_time,
          new_end: values.end_time,
          amount: '0',
          operator: ctx.session.username,
        })
        .execute();
    }
    return reply((await leaderRegion(ctx.db, ctx.session.groupId, id))!, '保存成功');
  },
});

/**
 * The new community's administrator: an account of the group holding the group's built-in 管理员
 * role there, with a one-time password (team/staff.ts createAccount).
 */
async function createFirstAdmin(ctx: Ctx & { session: Session }, rid: number, admin: { username: string; name: string; mobile: string }) {
  const role = await ctx.db
    .selectFrom('staff_roles')
    .select('id')
    .where('group_id', '=', ctx.session.groupId)
    .where('app', '=', 'web')
    .where('builtin', '=', true)
    .where('codes', '@>', sql<string[]>`ARRAY['admin']::text[]`)
    .orderBy('id')
    .executeTakeFirst();
  if (!role) fail('集团缺少内置的管理员角色，请先在角色管理中恢复');
  const account = await createAccount(ctx, { ...admin, sys_type: 'property', roles: [] });
  await ctx.db.insertInto('account_regions').values({ account_id: account.id, rid, sort: 0 }).execute();
  await ctx.db
    .insertInto('account_roles')
    .values({ account_id: account.id, rid, role_id: role.id, created_by: ctx.session.accountId })
    .execute();
  return account;
}

const leaderregionenter = defineMethod('leaderregionenter', {
  side: 'group',
  roles: LEADER,
  writes: true,
  summary: `进入小区：取一次性代码（${CODE_TTL_SECONDS} 秒内有效），以 /auth-redirect?code=… 打开，换得该小区的管理员会话（账号仍为集团账号，操作记入操作日志）`,
  async handler(ctx, input) {
    const region = await ownRegion(ctx.db, ctx.session, input.rid);
    const code = await issueCode(ctx.db, ctx.session, 'enter', { side: 'community', rid: region.id });
    const redirect = input.redirect.startsWith('/') && !input.redirect.startsWith('//') ? input.redirect : '/dashboard';
    return reply(
      { code, expires_in: CODE_TTL_SECONDS, url: `/auth-redirect?code=${code}&redirect=${encodeURIComponent(redirect)}` },
      `正在进入${region.title}`,
    );
  },
});

const leaderregionmodules = defineMethod('leaderregionmodules', {
  side: 'group',
  roles: LEADER,
  writes: true,
  summary: '设置小区开通的功能模块：未开通模块的页面、菜单与接口在该小区关闭（接口返回无权限）',
  async handler(ctx, input) {
    await ownRegion(ctx.db, ctx.session, input.rid);
    await ctx.db
      .updateTable('regions')
      .set({ modules_off: modulesOff(input.modules) })
      .where('id', '=', input.rid)
      .execute();
    const names = input.modules.map((m) => COMMUNITY_MODULES[m]).join('、') || '无';
    return reply({ rid: input.rid, modules: input.modules }, `已保存，开通模块：${names}`);
  },
});

async function refuseDuplicateTitle(ctx: Ctx & { session: Session }, title: string, exceptId?: number): Promise<void> {
  let qb = ctx.db.selectFrom('regions').select('id').where('group_id', '=', ctx.session.groupId).where('title', '=', title);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst()) fail(`小区名称“${title}”已存在`);
}

const leaderregiondelay = defineMethod('leaderregiondelay', {
  side: 'group',
  roles: LEADER,
  writes: true,
  summary: '手动延长小区服务期（按月），记入续费记录',
  async handler(ctx, input) {
    await ownRegion(ctx.db, ctx.session, input.rid);
    const endTime = await extendRegion(ctx.db, {
      rid: input.rid,
      months: input.months,
      kind: 'manual',
      ref: input.remark || '手动延期',
      amount: '0',
      operator: ctx.session.username,
    });
    return reply({ rid: input.rid, end_time: endTime }, `延期成功，服务有效期至 ${endTime}`);
  },
});

const leaderregiondelaybatch = defineMethod('leaderregiondelaybatch', {
  side: 'group',
  roles: LEADER,
  writes: true,
  summary: '批量延长多个小区的服务期（按月），每个小区各记一条续费记录；有一个不属于本集团则全部不延期',
  async handler(ctx, input) {
    const rids = [...new Set(input.rids)];
    const found = await ctx.db
      .selectFrom('regions')
      .select(['id', 'title'])
      .where('group_id', '=', ctx.session.groupId)
      .where('id', 'in', rids)
      .orderBy('id')
      .execute();
    if (found.length !== rids.length) fail('所选小区不存在或不属于本集团');
    const items: Array<{ rid: number; title: string; end_time: string }> = [];
    for (const r of found) {
      const endTime = await extendRegion(ctx.db, {
        rid: r.id,
        months: input.months,
        kind: 'manual',
        ref: input.remark || '批量延期',
        amount: '0',
        operator: ctx.session.username,
      });
      items.push({ rid: r.id, title: r.title, end_time: endTime });
    }
    return reply({ items }, `已为 ${items.length} 个小区延期 ${input.months} 个月`);
  },
});

const regiondelaymonthly = defineMethod('regiondelaymonthly', {
  side: 'group',
  roles: LEADER,
  writes: false,
  summary: '集团续费月度汇总：一年中每月的续费次数、续费小区数、延长天数与金额，及全年合计',
  async handler(ctx, input) {
    // the months and, in the roll-up's row (month null), the year: a community renewed twice counts once
    const rows = await sql<{ month: string | null; count: number; communities: number; days: number; amount: string }>`
      SELECT to_char(l.created_at, 'YYYY-MM') AS month, count(*)::int AS count, count(DISTINCT l.rid)::int AS communities,
        coalesce(sum(l.new_end - l.old_end), 0)::int AS days, coalesce(sum(l.amount), 0)::numeric(14,2)::text AS amount
      FROM region_delay_log l JOIN regions r ON r.id = l.rid
      WHERE r.group_id = ${ctx.session.groupId}
        AND l.created_at >= ${`${input.year}-01-01`}::date AND l.created_at < ${`${input.year + 1}-01-01`}::date
      GROUP BY ROLLUP (1)`.execute(ctx.db);
    const byMonth = new Map(rows.rows.map((r) => [r.month, r]));
    const none = { count: 0, communities: 0, days: 0, amount: '0.00' };
    const figures = (r: (typeof rows.rows)[number] | undefined) =>
      r ? { count: r.count, communities: r.communities, days: r.days, amount: fenToYuan(toFen(r.amount)) } : none;
    const items = Array.from({ length: 12 }, (_, i) => {
      const month = `${input.year}-${String(i + 1).padStart(2, '0')}`;
      return { month, ...figures(byMonth.get(month)) };
    });
    return { year: input.year, items, totals: figures(byMonth.get(null)) };
  },
});

/** The renewal log's rows: a group's communities, or one community; filtered by the day each was made. */
function delayLog(db: Kysely<DB>, scope: { groupId: number } | { rid: number }, createTime?: [string, string]) {
  let qb = db
    .selectFrom('region_delay_log as l')
    .innerJoin('regions as r', 'r.id', 'l.rid')
    .select([
      'l.id',
      'l.rid',
      'r.title as region_title',
      'l.kind',
      'l.ref',
      'l.old_end',
      'l.new_end',
      'l.amount',
      'l.operator',
      'l.created_at',
    ]);
  qb = 'rid' in scope ? qb.where('l.rid', '=', scope.rid) : qb.where('r.group_id', '=', scope.groupId);
  if (createTime) {
    // days of the business time zone (the session's), both included
    const [from, to] = createTime;
    qb = qb.where('l.created_at', '>=', sql<Date>`${from}::date`).where('l.created_at', '<', sql<Date>`${to}::date + 1`);
  }
  return qb;
}

type DelayLogRow = Awaited<ReturnType<ReturnType<typeof delayLog>['execute']>>[number];

const toDelayLogItem = (l: DelayLogRow): RegionDelayLogItem => ({
  id: l.id,
  rid: l.rid,
  region_title: l.region_title,
  kind: l.kind,
  kind_ch: DELAY_KIND_TEXT[l.kind],
  ref: l.ref,
  old_end: l.old_end,
  new_end: l.new_end,
  days: daysBetween(l.old_end, l.new_end),
  amount: l.amount,
  operator: l.operator,
  create_time: wireTime(l.created_at),
});

const regiondelaylog = defineMethod('regiondelaylog', {
  side: 'both',
  roles: ['admin', 'setup', 'leader_admin'],
  writes: false,
  summary: '续费记录：集团端看全部小区（可按 rid 筛选），小区端只看本小区；可按续费日期筛选',
  async handler(ctx, input) {
    // community side: the session's community only, whatever the payload says
    const rid = ctx.session.rid ?? input.rid;
    const qb = delayLog(ctx.db, rid ? { rid } : { groupId: ctx.session.groupId }, input.create_time).where(
      'r.group_id',
      '=',
      ctx.session.groupId,
    );
    const page = await listPage(qb, input, 'l.id');
    return { total: page.total, items: page.items.map(toDelayLogItem) };
  },
});

/** The renewal log's columns in a workbook; the group's names each row's community. */
const delayLogColumns = (withRegion: boolean): SheetColumn<RegionDelayLogItem>[] => [
  { header: 'ID', value: (l) => l.id, width: 8 },
  ...(withRegion ? [{ header: '小区', value: (l: RegionDelayLogItem) => l.region_title, width: 18 }] : []),
  { header: '方式', value: (l) => l.kind_ch },
  { header: '原到期日', value: (l) => l.old_end, width: 12 },
  { header: '新到期日', value: (l) => l.new_end, width: 12 },
  { header: '延长天数', value: (l) => l.days, width: 10 },
  { header: '金额(元)', value: (l) => l.amount },
  { header: '单号/备注', value: (l) => l.ref, width: 24 },
  { header: '操作人', value: (l) => l.operator },
  { header: '时间', value: (l) => l.create_time, width: 20 },
];

const regiondelaylogexport = defineExport('regiondelaylogexport', {
  roles: ['admin', 'setup'],
  summary: '按当前筛选条件导出本小区续费记录（Excel）',
  filename: () => `续费记录_${today()}.xlsx`,
  check: ({ db, rid }, input) => refuseOversizedExport(db, delayLog(db, { rid }, input.create_time)),
  async sheet({ db, rid }, input) {
    const rows = await delayLog(db, { rid }, input.create_time).orderBy('l.id', input.sort).limit(EXPORT_MAX).execute();
    return sheetOf('续费记录', delayLogColumns(false), rows.map(toDelayLogItem));
  },
});

// a group's renewals are a few a month per community: the workbook is made in the call (lib/excel.ts xlsxFile)
const GROUP_DELAY_LOG_MAX = 20_000;

const leaderregiondelaylogexport = defineMethod('leaderregiondelaylogexport', {
  side: 'group',
  roles: LEADER,
  writes: false,
  summary: `按当前筛选条件（小区、续费日期）导出集团续费记录（Excel，含小区名称；最多 ${GROUP_DELAY_LOG_MAX} 条），在本次调用中返回文件`,
  async handler(ctx, input) {
    if (input.rid) await ownRegion(ctx.db, ctx.session, input.rid);
    let qb = delayLog(ctx.db, { groupId: ctx.session.groupId }, input.create_time);
    if (input.rid) qb = qb.where('l.rid', '=', input.rid);
    const rows = await qb
      .orderBy('l.id', input.sort)
      .limit(GROUP_DELAY_LOG_MAX + 1)
      .execute();
    if (rows.length > GROUP_DELAY_LOG_MAX) fail(`记录超过 ${GROUP_DELAY_LOG_MAX} 条，请缩小续费日期范围后再导出`);
    return xlsxFile(`集团续费记录_${today()}.xlsx`, '续费记录', delayLogColumns(true), rows.map(toDelayLogItem));
  },
});

export const regionMethods = [
  regioninfo,
  regionedit,
  leaderregionlist,
  leaderregionexport,
  leaderregionadd,
  leaderregionedit,
  leaderregionmodules,
  leaderregionenter,
  leaderregiondelay,
  leaderregiondelaybatch,
  regiondelaymonthly,
  regiondelaylog,
  regiondelaylogexport,
  leaderregiondelaylogexport,
];
