/**
 * 通知公告 (docs/product.md#notices): notices written, scheduled, published, withdrawn and copied;
 * the households reached before publishing and frozen at it; the read receipts per household
 * (readnumlist) with their export; SMS to the unread through the SMS area's jobs.
 *
 * States (stored): D 草稿 → S 待发布 (a time is set; noticesJob.ts publishes when due) → P 已发布
 * → 已过期 (X, computed: valid_until has passed), or W 已撤回 (from S or P). Once published only
 * valid_until and pinned change; 复制 makes a draft to correct.
 */
import {
  enumText,
  NOTICE_AUDIENCE,
  NOTICE_CHANNEL,
  NOTICE_READ_STATE,
  NOTICE_READERS,
  NOTICE_REACH,
  NOTICE_STATUS,
  NOTICE_TYPE,
  NOTICE_WRITERS,
  SMS_JOB_STATUS,
  type NoticeItem,
  type NoticeReadItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput, type MethodDef } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { noticeText, sanitizeNoticeHtml } from './noticeHtml.js';
import {
  approvedTemplate,
  checkScope,
  ownersOf,
  reachOf,
  scopeTexts,
  startNoticeSms,
  wireToDate,
  writeRecipients,
  type ScopeSpec,
} from './noticeScope.js';
import { householdIdsMatching } from '../owners/search.js';
import { aliyunConfigured, smsSettingsOf } from '../setup/smsProvider.js';

const noticeQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('notices as n')
    .leftJoin('accounts as c', 'c.id', 'n.created_by')
    .leftJoin('accounts as p', 'p.id', 'n.published_by')
    .where('n.rid', '=', rid)
    .selectAll('n')
    .select([
      sql<string>`coalesce(c.name, '')`.as('creator'),
      sql<string>`coalesce(p.name, '')`.as('publisher'),
      sql<boolean>`n.status = 'P' AND n.valid_until IS NOT NULL AND n.valid_until <= now()`.as('expired'),
      sql<number>`(SELECT count(DISTINCT r.hid)::int FROM notice_reads r WHERE r.rid = n.rid AND r.notice_id = n.id)`.as('read_households'),
    ]);

type NoticeRow = Awaited<ReturnType<ReturnType<typeof noticeQuery>['executeTakeFirstOrThrow']>>;

async function toItems(db: Kysely<DB>, rid: number, rows: NoticeRow[]): Promise<NoticeItem[]> {
  const ids = (r: NoticeRow) => r.scope_ids.map(Number);
  const scopeOf = await scopeTexts(
    db,
    rid,
    rows.map((r) => ({ scope: r.scope, scope_ids: ids(r) })),
  );
  return rows.map((r) => {
    const status = (r.expired ? 'X' : r.status) as NoticeItem['status'];
    const sc = scopeOf({ scope: r.scope, scope_ids: ids(r) });
    return {
      id: r.id,
      title: r.title,
      type: r.type as NoticeItem['type'],
      type_ch: enumText(NOTICE_TYPE, r.type),
      cover: r.cover,
      body: r.body,
      scope: r.scope as NoticeItem['scope'],
      scope_ids: ids(r),
      scope_ch: sc.text,
      scope_bids: sc.bids,
      scope_tids: sc.tids,
      scope_names: sc.names,
      audience: r.audience as NoticeItem['audience'],
      audience_ch: enumText(NOTICE_AUDIENCE, r.audience),
      channels: r.channels as NoticeItem['channels'],
      channels_ch: r.channels.map((c) => enumText(NOTICE_CHANNEL, c)).join('、'),
      sms_template_id: r.sms_template_id ?? null,
      send_time: wireTime(r.send_at),
      valid_until: wireTime(r.valid_until),
      pinned: r.pinned as 'Y' | 'N',
      status,
      status_ch: enumText(NOTICE_STATUS, status),
      publish_time: wireTime(r.published_at),
      publisher: r.publisher,
      withdraw_time: wireTime(r.withdrawn_at),
      households: r.households,
      read_households: r.read_households,
      creator: r.creator,
      create_time: wireTime(r.created_at),
    };
  });
}

async function noticeItem(db: Kysely<DB>, rid: number, id: number): Promise<NoticeItem> {
  const row = await noticeQuery(db, rid).where('n.id', '=', id).executeTakeFirst();
  if (!row) return fail('公告不存在');
  return (await toItems(db, rid, [row]))[0]!;
}

/** The notice locked for a change. */
async function locked(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('notices')
    .selectAll()
    .select(sql<boolean>`valid_until IS NOT NULL AND valid_until <= now()`.as('expired'))
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return fail('公告不存在');
  return row;
}

type Fields = HandlerInput<'noticeadd'>;

/** The checked columns of a notice's fields. */
async function checkedFields(ctx: CommunityCtx, input: Fields) {
  const body = sanitizeNoticeHtml(input.body);
  if (!noticeText(body) && !/<img /.test(body)) fail('请输入公告内容');
  const scope: ScopeSpec = { scope: input.scope, scope_ids: input.scope_ids, audience: input.audience };
  const scopeIds = await checkScope(ctx.db, ctx.rid, scope);
  const channels = [...new Set(input.channels)].sort();
  let templateId: number | null = null;
  if (channels.includes('sms')) {
    if (!input.sms_template_id) fail('选择短信渠道时请选择短信模板');
    templateId = (await approvedTemplate(ctx.db, ctx.rid, input.sms_template_id)).id;
  }
  const sendAt = input.send_at ? await wireToDate(ctx.db, input.send_at) : null;
  const validUntil = input.valid_until ? await wireToDate(ctx.db, input.valid_until) : null;
  const now = Date.now();
  if (sendAt && sendAt.getTime() < now + 60_000) fail('定时发布时间须晚于当前时间至少 1 分钟');
  if (validUntil && validUntil.getTime() <= (sendAt ?? new Date(now)).getTime())
    fail(sendAt ? '有效期须晚于定时发布时间' : '有效期须晚于当前时间');
  if (input.type === 'urgent' && !validUntil) fail('紧急公告须填写有效期');
  return {
    title: input.title,
    type: input.type,
    cover: input.cover,
    body,
    scope: input.scope,
    scope_ids: scopeIds,
    audience: input.audience,
    channels,
    sms_template_id: templateId,
    send_at: sendAt,
    valid_until: validUntil,
    pinned: input.pinned,
  };
}

const noticelist = defineMethod('noticelist', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '公告列表：置顶在前，按标题、类型、状态、发布时间筛选；每行已读户数/发布户数',
  async handler(ctx, input) {
    let qb = noticeQuery(ctx.db, ctx.rid);
    if (input.id) qb = qb.where('n.id', '=', input.id);
    if (input.title) qb = qb.where('n.title', 'like', `%${input.title.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    if (input.type) qb = qb.where('n.type', '=', input.type);
    if (input.status === 'X') qb = qb.where('n.status', '=', 'P').where(sql<boolean>`n.valid_until IS NOT NULL AND n.valid_until <= now()`);
    else if (input.status === 'P')
      qb = qb.where('n.status', '=', 'P').where(sql<boolean>`(n.valid_until IS NULL OR n.valid_until > now())`);
    else if (input.status) qb = qb.where('n.status', '=', input.status);
    if (input.date_from) qb = qb.where(sql<boolean>`n.published_at >= ${input.date_from}::date`);
    if (input.date_to) qb = qb.where(sql<boolean>`n.published_at < ${input.date_to}::date + 1`);
    const page = await listPage(qb.orderBy('n.pinned', 'desc'), input, 'n.id', qb);
    return { total: page.total, items: await toItems(ctx.db, ctx.rid, page.items) };
  },
});

const noticeinfo = defineMethod('noticeinfo', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '公告详情（含正文、范围、渠道、状态）',
  handler: (ctx, input) => noticeItem(ctx.db, ctx.rid, input.id),
});

const noticeadd = defineMethod('noticeadd', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '新建公告（草稿）：正文在服务端按白名单净化；范围须为本小区的楼栋、单元或房屋',
  async handler(ctx, input) {
    const values = await checkedFields(ctx, input);
    const row = await ctx.db
      .insertInto('notices')
      .values({ rid: ctx.rid, ...values, status: 'D', created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id: row.id }, '添加成功');
  },
});

const sameIds = (a: readonly (number | string)[], b: readonly (number | string)[]) =>
  a.length === b.length && a.map(Number).every((v, i) => v === Number(b[i]));

const noticeedit = defineMethod('noticeedit', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '修改公告：草稿、待发布可全部修改（待发布改后回到草稿）；已发布只能改有效期和置顶；已撤回不能修改',
  async handler(ctx, input) {
    const row = await locked(ctx, input.id);
    if (row.status === 'W') fail('已撤回的公告不能修改，如需重新发布请复制');
    if (row.status === 'P') {
      const body = sanitizeNoticeHtml(input.body);
      const changed =
        input.title !== row.title ||
        input.type !== row.type ||
        input.cover !== row.cover ||
        body !== row.body ||
        input.scope !== row.scope ||
        !sameIds(input.scope === 'all' ? [] : [...new Set(input.scope_ids)].sort((a, b) => a - b), row.scope_ids) ||
        input.audience !== row.audience ||
        [...new Set(input.channels)].sort().join() !== [...row.channels].sort().join();
      if (changed) fail('公告已发布，只能修改有效期和置顶；如需更正内容，请复制后重新发布');
      const validUntil = input.valid_until ? await wireToDate(ctx.db, input.valid_until) : null;
      if (validUntil && validUntil.getTime() <= Date.now()) fail('有效期须晚于当前时间');
      if (row.type === 'urgent' && !validUntil) fail('紧急公告须填写有效期');
      await ctx.db
        .updateTable('notices')
        .set({ valid_until: validUntil, pinned: input.pinned, updated_at: sql`now()` })
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.id)
        .execute();
      return reply(null, '保存成功');
    }
    const values = await checkedFields(ctx, input);
    await ctx.db
      .updateTable('notices')
      .set({ ...values, status: 'D', updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    return reply(null, row.status === 'S' ? '保存成功，公告已改回草稿，请重新发布' : '保存成功');
  },
});

const noticedel = defineMethod('noticedel', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '删除公告（仅草稿）',
  async handler(ctx, input) {
    const row = await locked(ctx, input.id);
    if (row.status !== 'D') fail('只有草稿可以删除；已发布的公告请撤回');
    await ctx.db.deleteFrom('notices').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

const noticecopy = defineMethod('noticecopy', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '复制公告为新的草稿（更正已发布公告的内容）',
  async handler(ctx, input) {
    const row = await locked(ctx, input.id);
    const copy = await ctx.db
      .insertInto('notices')
      .values({
        rid: ctx.rid,
        title: row.title,
        type: row.type,
        cover: row.cover,
        body: row.body,
        scope: row.scope,
        scope_ids: row.scope_ids,
        audience: row.audience,
        channels: row.channels,
        sms_template_id: row.sms_template_id,
        valid_until: row.valid_until && new Date(row.valid_until).getTime() > Date.now() ? row.valid_until : null,
        status: 'D',
        copied_from: row.id,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id: copy.id }, '已复制为草稿');
  },
});

const specOf = (r: { scope: string; scope_ids: (number | string)[]; audience: string }): ScopeSpec => ({
  scope: r.scope as ScopeSpec['scope'],
  scope_ids: r.scope_ids.map(Number),
  audience: r.audience as ScopeSpec['audience'],
});

const noticepreview = defineMethod('noticepreview', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '发布前预览触达：范围内户数、可在 App/微信 收到的户数、仅能短信触达的户数',
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('notices')
      .select(['scope', 'scope_ids', 'audience', 'channels'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!row) return fail('公告不存在');
    return reachOf(ctx.db, ctx.rid, specOf(row), row.channels);
  },
});

const noticereach = defineMethod('noticereach', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '按所选范围和受众计算户数（编辑公告时的实时户数）',
  async handler(ctx, input) {
    const spec: ScopeSpec = { scope: input.scope, scope_ids: input.scope_ids, audience: input.audience };
    spec.scope_ids = await checkScope(ctx.db, ctx.rid, spec);
    return reachOf(ctx.db, ctx.rid, spec, ['app', 'sms']);
  },
});

type LockedRow = Awaited<ReturnType<typeof locked>>;

/** Publishes a draft or a due scheduled notice now: recipients frozen, its SMS (if a channel) started. */
export async function publishNow(db: Kysely<DB>, rid: number, row: LockedRow, by: { accountId: number | null; name: string }) {
  const spec = specOf(row);
  const n = await writeRecipients(db, rid, row.id, spec);
  await db
    .updateTable('notices')
    .set({ status: 'P', published_at: sql`now()`, published_by: by.accountId, households: n, updated_at: sql`now()` })
    .where('rid', '=', rid)
    .where('id', '=', row.id)
    .execute();
  if (row.channels.includes('sms') && row.sms_template_id) {
    const smsOnly = await db
      .selectFrom('notice_recipients')
      .select('hid')
      .where('rid', '=', rid)
      .where('notice_id', '=', row.id)
      .where('reach', '=', 'sms')
      .execute();
    const owners = await ownersOf(
      db,
      rid,
      smsOnly.map((h) => Number(h.hid)),
    );
    if (owners.length)
      await startNoticeSms(db, rid, {
        name: `公告短信：${row.title}`,
        title: row.title,
        templateId: row.sms_template_id,
        memberIds: owners,
        urgent: row.type === 'urgent' || row.type === 'outage',
        createdBy: by.accountId,
        operator: by.name,
      });
  }
  return n;
}

const noticepublish = defineMethod('noticepublish', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '发布公告：草稿立即发布，设了定时的进入待发布；confirm_households 须等于当前范围内的户数',
  async handler(ctx, input) {
    const row = await locked(ctx, input.id);
    if (row.status !== 'D') fail(`该公告${enumText(NOTICE_STATUS, row.expired ? 'X' : row.status)}，不能发布`);
    const reach = await reachOf(ctx.db, ctx.rid, specOf(row), row.channels);
    if (reach.households === 0) fail('发布范围内没有住户，请修改范围或受众');
    if (input.confirm_households !== reach.households) fail(`范围内的户数已变为 ${reach.households} 户，请重新确认后发布`);
    if (row.channels.includes('sms')) {
      if (!row.sms_template_id) fail('选择短信渠道时请选择短信模板');
      await approvedTemplate(ctx.db, ctx.rid, row.sms_template_id);
    }
    if (row.valid_until && new Date(row.valid_until).getTime() <= Date.now()) fail('有效期已过，请修改有效期后再发布');
    if (row.send_at) {
      if (new Date(row.send_at).getTime() <= Date.now()) fail('定时发布时间已过，请修改后再发布');
      await ctx.db
        .updateTable('notices')
        .set({ status: 'S', updated_at: sql`now()` })
        .where('rid', '=', ctx.rid)
        .where('id', '=', row.id)
        .execute();
      return reply(await noticeItem(ctx.db, ctx.rid, row.id), `已设为定时发布：${wireTime(row.send_at).slice(0, 16)}`);
    }
    const n = await publishNow(ctx.db, ctx.rid, row, { accountId: ctx.session.accountId, name: ctx.session.name });
    return reply(await noticeItem(ctx.db, ctx.rid, row.id), `发布成功，已送达 ${n} 户`);
  },
});

const noticewithdraw = defineMethod('noticewithdraw', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '撤回公告（待发布或已发布）：住户端不再显示，阅读记录保留',
  async handler(ctx, input) {
    const row = await locked(ctx, input.id);
    if (row.status !== 'S' && row.status !== 'P') fail(`该公告${enumText(NOTICE_STATUS, row.status)}，不能撤回`);
    await ctx.db
      .updateTable('notices')
      .set({ status: 'W', withdrawn_at: sql`now()`, withdrawn_by: ctx.session.accountId, pinned: 'N', updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', row.id)
      .execute();
    return reply(await noticeItem(ctx.db, ctx.rid, row.id), '已撤回');
  },
});

const noticepin = defineMethod('noticepin', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '置顶或取消置顶（已撤回的不能置顶）',
  async handler(ctx, input) {
    const row = await locked(ctx, input.id);
    if (row.status === 'W' && input.pinned === 'Y') fail('已撤回的公告不能置顶');
    await ctx.db.updateTable('notices').set({ pinned: input.pinned }).where('rid', '=', ctx.rid).where('id', '=', row.id).execute();
    return reply(null, input.pinned === 'Y' ? '已置顶' : '已取消置顶');
  },
});

const notice_sms_template_small_list = defineMethod('notice_sms_template_small_list', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '公告短信可用的模板（本小区已审核的短信模板，提到“公告”的在前）',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('sms_templates')
      .select(['id', 'title', 'content'])
      .where('rid', '=', ctx.rid)
      .where('approved', '=', 'Y')
      // those written for notices first (the first is the dialogs' default)
      .orderBy(sql`content LIKE '%公告%'`, 'desc')
      .orderBy('id')
      .execute();
    return { items };
  },
});

// ------------------------------------------------------------------------------------ reads

type ReadFilters = Omit<HandlerInput<'noticereadlist'>, 'page' | 'limit' | 'sort'>;

/** The published (or withdrawn) notice whose reads are asked. */
async function readable(db: Kysely<DB>, rid: number, id: number) {
  const row = await noticeQuery(db, rid).where('n.id', '=', id).executeTakeFirst();
  if (!row) return fail('公告不存在');
  if (row.status === 'D' || row.status === 'S') fail('公告尚未发布，还没有阅读记录');
  return row;
}

/**
 * The households reached that the filters keep (no columns yet): a read state and a keyword are
 * tested with EXISTS, so counting and ordering never compute each household's reads and owner,
 * which readColumns adds to the rows kept (a page, or an export's rows).
 */
function readRows(db: Kysely<DB>, rid: number, f: ReadFilters, matched: string[] | null) {
  let qb = db
    .selectFrom('notice_recipients as nr')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'nr.rid').onRef('r.id', '=', 'nr.hid'))
    .where('nr.rid', '=', rid)
    .where('nr.notice_id', '=', f.id);
  if (f.bid) qb = qb.where('r.bid', '=', f.bid);
  if (f.tid) qb = qb.where('r.tid', '=', f.tid);
  if (f.reach) qb = qb.where('nr.reach', '=', f.reach);
  const anyRead = sql<boolean>`EXISTS (SELECT 1 FROM notice_reads d WHERE d.rid = nr.rid AND d.notice_id = nr.notice_id AND d.hid = nr.hid)`;
  if (f.read === 'Y') qb = qb.where(anyRead);
  if (f.read === 'N') qb = qb.where(sql<boolean>`NOT ${anyRead}`);
  // a room's address, or the name or mobile of someone living there now (householdIdsMatching)
  if (matched) qb = qb.where(sql<boolean>`nr.hid IN (SELECT unnest(${matched}::bigint[]))`);
  return qb;
}

/** The households the keyword finds, if a keyword is given (readRows' `matched`). */
const matchedBy = (db: Kysely<DB>, rid: number, f: ReadFilters) => (f.keyword ? householdIdsMatching(db, rid, f.keyword) : null);

/** Each kept household's reads (first, count, readers) and owner, in address order; `page` limits them before. */
function readColumns(db: Kysely<DB>, qb: ReturnType<typeof readRows>, page?: { limit: number; offset: number }) {
  let kept = qb
    .select(['nr.rid', 'nr.notice_id', 'nr.hid', 'nr.reach', 'r.address', 'r.building_sort', 'r.unit_sort'])
    .orderBy('r.building_sort')
    .orderBy('r.unit_sort')
    .orderBy('r.id');
  kept = page ? kept.limit(sql.lit(page.limit)).offset(sql.lit(page.offset)) : kept.limit(sql.lit(EXPORT_MAX));
  return db
    .selectFrom(kept.as('p'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('notice_reads as d')
          .innerJoin('members as dm', (j) => j.onRef('dm.rid', '=', 'd.rid').onRef('dm.id', '=', 'd.member_id'))
          .select([
            sql<Date>`min(d.first_read_at)`.as('first_read_at'),
            sql<number>`sum(d.read_count)::int`.as('read_count'),
            sql<string>`string_agg(dm.realname, '、' ORDER BY d.first_read_at)`.as('readers'),
          ])
          .whereRef('d.rid', '=', 'p.rid')
          .whereRef('d.notice_id', '=', 'p.notice_id')
          .whereRef('d.hid', '=', 'p.hid')
          .as('rd'),
      (j) => j.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('room_members as om')
          .innerJoin('members as o', (j) => j.onRef('o.rid', '=', 'om.rid').onRef('o.id', '=', 'om.member_id'))
          .select(['o.realname as owner', 'o.mobile'])
          .whereRef('om.rid', '=', 'p.rid')
          .whereRef('om.hid', '=', 'p.hid')
          .where('om.status', '=', 'Y')
          .orderBy(sql`om.relation = 'owner'`, 'desc')
          .orderBy('om.id')
          .limit(1)
          .as('ow'),
      (j) => j.onTrue(),
    )
    .select([
      'p.hid',
      'p.reach',
      'p.address',
      sql<string>`coalesce(ow.owner, '')`.as('owner'),
      sql<string>`coalesce(ow.mobile, '')`.as('mobile'),
      'rd.first_read_at',
      sql<number>`coalesce(rd.read_count, 0)`.as('read_count'),
      sql<string>`coalesce(rd.readers, '')`.as('readers'),
    ])
    .orderBy('p.building_sort')
    .orderBy('p.unit_sort')
    .orderBy('p.hid');
}

type ReadRow = Awaited<ReturnType<ReturnType<typeof readColumns>['execute']>>[number];

const toReadItem = (r: ReadRow): NoticeReadItem => {
  const read = r.read_count > 0 ? 'Y' : 'N';
  return {
    hid: Number(r.hid),
    address: r.address,
    owner: r.owner,
    mobile: r.mobile,
    reach: r.reach as 'app' | 'sms',
    reach_ch: enumText(NOTICE_REACH, r.reach),
    read,
    read_ch: enumText(NOTICE_READ_STATE, read),
    first_read_time: wireTime(r.first_read_at),
    read_count: r.read_count,
    readers: r.readers,
  };
};

/** Unread households of a notice, read while unread: 未读 first, then by address. */
async function unreadHids(db: Kysely<DB>, rid: number, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notice_recipients as nr')
    .select('nr.hid')
    .where('nr.rid', '=', rid)
    .where('nr.notice_id', '=', id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notice_reads as d')
            .select('d.id')
            .whereRef('d.rid', '=', 'nr.rid')
            .whereRef('d.notice_id', '=', 'nr.notice_id')
            .whereRef('d.hid', '=', 'nr.hid'),
        ),
      ),
    )
    .execute();
  return rows.map((r) => Number(r.hid));
}

const noticereadlist = defineMethod('noticereadlist', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '阅读明细：每户一行（房屋、业主、手机、触达方式、已读/未读、首次阅读时间、阅读次数），合计与阅读率，短信补发记录',
  async handler(ctx, input) {
    const notice = await readable(ctx.db, ctx.rid, input.id);
    const qb = readRows(ctx.db, ctx.rid, input, await matchedBy(ctx.db, ctx.rid, input));
    const items = await readColumns(ctx.db, qb, { limit: input.limit, offset: (input.page - 1) * input.limit }).execute();
    // unfiltered, the households reached are the notice's own count (frozen with them at publication)
    const whole = !input.bid && !input.tid && !input.reach && !input.read && !input.keyword;
    const total = whole ? notice.households : (await qb.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
    const page = { items, total };
    const households = notice.households;
    const read = notice.read_households;
    const item = (await toItems(ctx.db, ctx.rid, [notice]))[0]!;
    const resends = await ctx.db
      .selectFrom('notice_resends as s')
      .innerJoin('sms_jobs as j', (j) => j.onRef('j.rid', '=', 's.rid').onRef('j.id', '=', 's.sms_job_id'))
      .leftJoin('accounts as a', 'a.id', 's.created_by')
      .select(['s.id', 's.sms_job_id', 's.households', 's.created_at', 'j.status', 'j.recipients', 'j.sent', 'j.failed'])
      .select(sql<string>`coalesce(a.name, '')`.as('creator'))
      .where('s.rid', '=', ctx.rid)
      .where('s.notice_id', '=', input.id)
      .orderBy('s.id', 'desc')
      .execute();
    return {
      total: page.total,
      items: page.items.map(toReadItem),
      totals: {
        households,
        read,
        unread: households - read,
        read_rate: households ? ((read * 100) / households).toFixed(1) : '0.0',
      },
      notice: {
        id: item.id,
        title: item.title,
        status: item.status,
        status_ch: item.status_ch,
        publish_time: item.publish_time,
        scope_ch: item.scope_ch,
      },
      resends: resends.map((s) => ({
        id: s.id,
        sms_job_id: s.sms_job_id,
        households: s.households,
        status_ch: enumText(SMS_JOB_STATUS, s.status),
        recipients: s.recipients,
        sent: s.sent,
        failed: s.failed,
        creator: s.creator,
        create_time: wireTime(s.created_at),
      })),
    };
  },
});

const noticereadexport = defineExport('noticereadexport', {
  roles: NOTICE_READERS,
  summary: '按当前筛选条件导出公告的阅读明细（Excel）',
  filename: () => `公告阅读明细_${today()}.xlsx`,
  async check({ db, rid }, input) {
    await readable(db, rid, input.id);
    const n = await readRows(db, rid, input, await matchedBy(db, rid, input))
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    if (n.n > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    const rows = (await readColumns(db, readRows(db, rid, input, await matchedBy(db, rid, input))).execute()).map(toReadItem);
    return sheetOf(
      '阅读明细',
      [
        { header: '房屋', value: (r) => r.address, width: 24 },
        { header: '业主', value: (r) => r.owner },
        { header: '手机', value: (r) => r.mobile, width: 14, contact: 'mobile' },
        { header: '触达', value: (r) => r.reach_ch },
        { header: '状态', value: (r) => r.read_ch },
        { header: '首次阅读时间', value: (r) => r.first_read_time, width: 20 },
        { header: '阅读次数', value: (r) => r.read_count },
        { header: '阅读人', value: (r) => r.readers, width: 20 },
      ],
      rows,
    );
  },
});

const noticeresendpreview = defineMethod('noticeresendpreview', {
  side: 'community',
  roles: NOTICE_READERS,
  writes: false,
  summary: '短信补发预览：未读户中有业主手机的户数、无业主可发的户数、当前短信通道',
  async handler(ctx, input) {
    const notice = await readable(ctx.db, ctx.rid, input.id);
    // the unread are the households reached (frozen at publication) less those read; the few of them
    // without an owner now are found through the rooms without one (household_reach, kept by the
    // residents' triggers), so the unread households are never walked one by one
    const unread = notice.households - notice.read_households;
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM household_reach h
      WHERE h.rid = ${ctx.rid} AND h.owners = 0
        AND EXISTS (SELECT 1 FROM notice_recipients nr WHERE nr.rid = h.rid AND nr.notice_id = ${input.id} AND nr.hid = h.hid)
        AND NOT EXISTS (SELECT 1 FROM notice_reads d WHERE d.rid = h.rid AND d.notice_id = ${input.id} AND d.hid = h.hid)`.execute(ctx.db);
    const withoutOwner = rows[0]!.n;
    const settings = await smsSettingsOf(ctx.db, ctx.rid);
    return {
      households: unread - withoutOwner,
      without_owner: withoutOwner,
      provider_ch: aliyunConfigured(settings) ? '阿里云短信' : '沙箱（不真实发送）',
    };
  },
});

const noticeresend = defineMethod('noticeresend', {
  side: 'community',
  roles: NOTICE_WRITERS,
  writes: true,
  summary: '向未读户的业主补发短信：经短信任务发送（沙箱通道只记录不发送）；confirm_households 须等于预览的户数',
  async handler(ctx, input) {
    const notice = await locked(ctx, input.id);
    if (notice.status !== 'P' || notice.expired) fail('只有已发布且在有效期内的公告可以补发短信');
    const hids = await unreadHids(ctx.db, ctx.rid, input.id);
    const owners = await ownersOf(ctx.db, ctx.rid, hids);
    const withOwner = hids.length
      ? (
          await ctx.db
            .selectFrom('room_members')
            .select(sql<number>`count(DISTINCT hid)::int`.as('n'))
            .where('rid', '=', ctx.rid)
            .where('hid', 'in', hids)
            .where('relation', '=', 'owner')
            .where('status', '=', 'Y')
            .executeTakeFirstOrThrow()
        ).n
      : 0;
    if (!owners.length) fail('没有可补发的未读户');
    if (input.confirm_households !== withOwner) fail(`未读户数已变为 ${withOwner} 户，请重新确认后补发`);
    const smsJobId = await startNoticeSms(ctx.db, ctx.rid, {
      name: `公告补发：${notice.title}`,
      title: notice.title,
      templateId: input.template_id,
      memberIds: owners,
      urgent: notice.type === 'urgent' || notice.type === 'outage',
      createdBy: ctx.session.accountId,
      operator: ctx.session.name,
    });
    await ctx.db
      .insertInto('notice_resends')
      .values({ rid: ctx.rid, notice_id: notice.id, sms_job_id: smsJobId, households: withOwner, created_by: ctx.session.accountId })
      .execute();
    return reply({ sms_job_id: smsJobId, recipients: owners.length }, `已提交补发：${withOwner} 户未读，共 ${owners.length} 位业主`);
  },
});

export const noticeModule: MethodDef[] = [
  noticelist,
  noticeinfo,
  noticeadd,
  noticeedit,
  noticedel,
  noticecopy,
  noticepreview,
  noticereach,
  noticepublish,
  noticewithdraw,
  noticepin,
  notice_sms_template_small_list,
  noticereadlist,
  noticereadexport,
  noticeresendpreview,
  noticeresend,
];
