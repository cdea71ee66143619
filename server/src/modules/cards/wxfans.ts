/**
 * The official account's followers (公众号粉丝, /carpark/wxfanslist; docs/product.md#wx-followers):
 * the list and its export (a resource), the sync from the WeChat provider (the platform's list of
 * followers now, their info 100 at a time, upserted by open id, so a second sync changes nothing; a
 * known follower the platform no longer lists has left), the remark (kept on the platform too),
 * and binding a follower to an owner, which sets the owner's `wx_isbind` (and unbinding the last
 * one clears it). A merchant account reaches none of it.
 */
import { CARD_ROLES, wxFan, type WxFanItem } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx } from '../../http/registry.js';
import { defineResource, wireRows } from '../../lib/resource.js';
import { likePattern } from '../../lib/like.js';
import { USER_INFO_BATCH, wechatProviderFor, type WechatUserInfo } from './wechatProvider.js';

/** The list's rows: the follower and the owner it is bound to (name, mobile, houses lived in now). */
function fanQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('wx_followers as t')
    .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
    .select([
      't.id',
      't.openid',
      't.unionid',
      't.nickname',
      't.avatar',
      't.subscribed',
      't.subscribe_time',
      't.scene',
      't.channel',
      't.remark',
      't.tags',
      't.member_id',
      't.bound_at',
      't.synced_at',
      't.created_at',
      'm.realname',
      'm.mobile',
    ])
    .select(sql<'Y' | 'N'>`CASE WHEN t.member_id IS NULL THEN 'N' ELSE 'Y' END`.as('bound'))
    .select(
      sql<
        string | null
      >`(SELECT string_agg(r.address, '、' ORDER BY r.id) FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
        WHERE rm.rid = t.rid AND rm.member_id = t.member_id AND rm.status = 'Y')`.as('address'),
    )
    .where('t.rid', '=', rid);
}

/** A wire row (times already wire text, `*_ch` added) as the contract has it. */
function toFanItem(r: Record<string, unknown>): WxFanItem {
  const { bound_at, synced_at, ...rest } = r;
  return {
    ...(rest as unknown as WxFanItem),
    id: Number(r.id),
    member_id: r.member_id === null ? null : Number(r.member_id),
    subscribe_time: (r.subscribe_time as string | null) ?? '',
    realname: (r.realname as string | null) ?? '',
    mobile: (r.mobile as string | null) ?? '',
    address: (r.address as string | null) ?? '',
    bound_time: (bound_at as string | null) ?? '',
    synced_time: (synced_at as string | null) ?? '',
  };
}

const fanResource = defineResource(wxFan, {
  table: 'wx_followers',
  query: (db, rid) => fanQuery(db as Kysely<DB>, rid),
  row: toFanItem,
  where: {
    // an open id or a union id, whole or in part
    openid: (qb, v) => qb.where(sql<boolean>`(t.openid ILIKE ${likePattern(String(v))} OR t.unionid ILIKE ${likePattern(String(v))})`),
    bound: (qb, v) => qb.where('t.member_id', v === 'Y' ? 'is not' : 'is', null),
  },
  summaries: {
    list: '公众号粉丝：OpenID、UnionID、关注状态与时间、来源、渠道、备注、标签、绑定的业主；按 OpenID/UnionID、关注状态、是否绑定、渠道、关注日期筛选（商户账号不可用）',
  },
});

/** One follower as the list shows it, or 粉丝不存在. */
const wire = wireRows(wxFan.def);
async function fanOf(ctx: CommunityCtx, id: number): Promise<WxFanItem> {
  const row = await fanQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  return toFanItem(wire(row ?? fail('粉丝不存在')));
}

/** The follower, locked for the change (bind, unbind, remark), or 粉丝不存在. */
async function lockedFan(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('wx_followers')
    .select(['id', 'openid', 'subscribed', 'member_id'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ?? fail('粉丝不存在');
}

/** The owner, locked: a bind and an unbind of the same owner's followers take turns on `wx_isbind`. */
async function lockedMember(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('members')
    .select(['id', 'realname'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ?? fail('业主不存在');
}

/** The platform's info as our columns. */
const fanValues = (u: WechatUserInfo) => ({
  unionid: u.unionid,
  subscribed: u.subscribe === 1 ? ('Y' as const) : ('N' as const),
  subscribe_time: u.subscribeTime ? new Date(u.subscribeTime * 1000) : null,
  scene: u.subscribeScene,
  channel: u.qrSceneStr,
  remark: u.remark,
  tags: u.tags,
});

/** The most pages a sync reads (10,000 followers a page on the platform). */
const MAX_PAGES = 1000;

const wxfanssync = defineMethod('wxfanssync', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: true,
  summary:
    '同步粉丝：从微信公众平台（未配置时为沙箱）拉取关注者列表（按 next_openid 分页）和用户信息（每次 100 个），按 OpenID 新增或更新；平台不再列出的视为已取消关注；重复同步不产生变化',
  async handler(ctx) {
    // one sync of a community at a time
    await sql`SELECT pg_advisory_xact_lock(hashtext('wxfanssync'), ${ctx.rid})`.execute(ctx.db);
    const provider = wechatProviderFor(ctx.rid);
    const listed: string[] = [];
    let next = '';
    let total = 0;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await provider.followers(next);
      total = page.total;
      listed.push(...page.openids);
      next = page.nextOpenid;
      if (!next || page.openids.length === 0) break;
    }
    let added = 0;
    let updated = 0;
    for (let i = 0; i < listed.length; i += USER_INFO_BATCH) {
      const infos = await provider.userInfo(listed.slice(i, i + USER_INFO_BATCH));
      if (infos.length === 0) continue;
      const rows = await ctx.db
        .insertInto('wx_followers')
        .values(
          infos.map((u) => ({
            rid: ctx.rid,
            openid: u.openid,
            ...fanValues(u),
            synced_at: sql<Date>`now()`,
            created_by: ctx.session.accountId,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['rid', 'openid'])
            .doUpdateSet({
              unionid: (eb) => eb.ref('excluded.unionid'),
              subscribed: (eb) => eb.ref('excluded.subscribed'),
              subscribe_time: (eb) => eb.ref('excluded.subscribe_time'),
              scene: (eb) => eb.ref('excluded.scene'),
              channel: (eb) => eb.ref('excluded.channel'),
              // our remark stays unless the platform has one (ours is written there too)
              remark: sql`CASE WHEN excluded.remark <> '' THEN excluded.remark ELSE wx_followers.remark END`,
              tags: (eb) => eb.ref('excluded.tags'),
              synced_at: sql`now()`,
            })
            // an unchanged follower is left as it is: a second sync writes nothing
            .where(
              sql<boolean>`(wx_followers.unionid, wx_followers.subscribed, wx_followers.subscribe_time, wx_followers.scene, wx_followers.channel, wx_followers.tags)
                IS DISTINCT FROM (excluded.unionid, excluded.subscribed, excluded.subscribe_time, excluded.scene, excluded.channel, excluded.tags)
                OR (excluded.remark <> '' AND excluded.remark <> wx_followers.remark)`,
            ),
        )
        .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
        .execute();
      added += rows.filter((r) => r.inserted).length;
      updated += rows.filter((r) => !r.inserted).length;
    }
    // known followers the platform no longer lists have left
    const left = await ctx.db
      .updateTable('wx_followers')
      .set({ subscribed: 'N', synced_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('subscribed', '=', 'Y')
      .where(sql<boolean>`NOT (openid = ANY(${listed}::text[]))`)
      .executeTakeFirst();
    const unsubscribed = Number(left.numUpdatedRows);
    await ctx.db
      .insertInto('wx_follower_syncs')
      .values({ rid: ctx.rid, provider: provider.name, total, added, updated, unsubscribed, created_by: ctx.session.accountId })
      .execute();
    const where = provider.name === 'sandbox' ? '（沙箱）' : '';
    return reply(
      { provider: provider.name, total, added, updated, unsubscribed },
      `同步完成${where}：共 ${total} 位关注者，新增 ${added}，更新 ${updated}，取消关注 ${unsubscribed}`,
    );
  },
});

const wxfansbind = defineMethod('wxfansbind', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: true,
  summary: '粉丝绑定业主：已关注的粉丝绑定本小区的一位业主，业主的微信绑定（wx_isbind）置为 Y；已绑定他人的须先解绑',
  async handler(ctx, input) {
    const fan = await lockedFan(ctx, input.id);
    if (fan.subscribed !== 'Y') fail('该粉丝已取消关注，不能绑定');
    if (fan.member_id !== null && Number(fan.member_id) !== input.member_id) {
      const other = await ctx.db
        .selectFrom('members')
        .select('realname')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(fan.member_id))
        .executeTakeFirst();
      fail(`该粉丝已绑定${other?.realname ?? '其他业主'}，请先解绑`);
    }
    const member = await lockedMember(ctx, input.member_id);
    await ctx.db
      .updateTable('wx_followers')
      .set({ member_id: member.id, bound_at: sql`coalesce(bound_at, now())`, bound_by: ctx.session.accountId })
      .where('rid', '=', ctx.rid)
      .where('id', '=', fan.id)
      .execute();
    await ctx.db
      .updateTable('members')
      .set({ wx_isbind: 'Y' })
      .where('rid', '=', ctx.rid)
      .where('id', '=', member.id)
      .where('wx_isbind', '<>', 'Y')
      .execute();
    return reply(await fanOf(ctx, fan.id), `已绑定业主${member.realname}`);
  },
});

const wxfansunbind = defineMethod('wxfansunbind', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: true,
  summary: '粉丝解绑业主：该业主再无绑定的粉丝时，其微信绑定（wx_isbind）置为 N',
  async handler(ctx, input) {
    const fan = await lockedFan(ctx, input.id);
    if (fan.member_id === null) fail('该粉丝未绑定业主');
    const member = await lockedMember(ctx, Number(fan.member_id));
    await ctx.db
      .updateTable('wx_followers')
      .set({ member_id: null, bound_at: null, bound_by: null })
      .where('rid', '=', ctx.rid)
      .where('id', '=', fan.id)
      .execute();
    const another = await ctx.db
      .selectFrom('wx_followers')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('member_id', '=', member.id)
      .executeTakeFirst();
    if (!another)
      await ctx.db.updateTable('members').set({ wx_isbind: 'N' }).where('rid', '=', ctx.rid).where('id', '=', member.id).execute();
    return reply(await fanOf(ctx, fan.id), `已解除与${member.realname}的绑定`);
  },
});

const wxfansremark = defineMethod('wxfansremark', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: true,
  summary: '设置粉丝备注（最多 30 字），同时写到微信公众平台',
  async handler(ctx, input) {
    const fan = await lockedFan(ctx, input.id);
    await wechatProviderFor(ctx.rid).updateRemark(fan.openid, input.remark);
    await ctx.db.updateTable('wx_followers').set({ remark: input.remark }).where('rid', '=', ctx.rid).where('id', '=', fan.id).execute();
    return reply(await fanOf(ctx, fan.id), '备注已保存');
  },
});

/** 公众号粉丝: the list and export, the sync, binding and remarks; none of it a merchant account's. */
export const wxfansMethods = notForMerchants([...fanResource, wxfanssync, wxfansbind, wxfansunbind, wxfansremark]);
