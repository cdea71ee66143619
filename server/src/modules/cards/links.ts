/**
 * Claim links (领卡链接 /carpark/cardslink; docs/product.md#card-links): a link and its QR code that
 * claim a member card or a coupon, put out through a channel, with every claim kept
 * (card_link_claims) so the counts per link and per channel are exact. Staff claim on a member's
 * behalf (代领, `cardslinkclaim`): a card link opens a card by the card form's rules (`openCard`),
 * a coupon link gives a coupon through the coupons' own `giveCoupons`. A link claimed through is
 * stopped, not deleted.
 */
import crypto from 'node:crypto';
import { CARD_ROLES, cardLink, claimPath, type CardLinkClaimAnswer, type CardLinkItem } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { publicUrlOf } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { defineResource } from '../../lib/resource.js';
import { openCard } from './cards.js';
import { giveCoupons } from './coupons.js';
import { cardImportMethods } from './cardImport.js';

registerDependents({ card_links: '领卡链接', card_link_claims: '领取记录' });

type Values = Record<string, unknown>;

function linkQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('card_links as t')
    .leftJoin('card_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.card_template_id'))
    .leftJoin('member_coupon_templates as mt', (j) => j.onRef('mt.rid', '=', 't.rid').onRef('mt.id', '=', 't.coupon_template_id'))
    .leftJoin('accounts as a', 'a.id', 't.created_by')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('card_link_claims as c')
          .select([
            sql<number>`count(*)::int`.as('claims'),
            sql<number>`(count(*) FILTER (WHERE c.created_at >= current_date))::int`.as('claims_today'),
          ])
          .whereRef('c.rid', '=', 't.rid')
          .whereRef('c.link_id', '=', 't.id')
          .as('n'),
      (j) => j.onTrue(),
    )
    .selectAll('t')
    .select([
      sql<string>`coalesce(ct.name, mt.name, '')`.as('target_name'),
      sql<string>`coalesce(a.name, '')`.as('create_user'),
      'n.claims',
      'n.claims_today',
    ])
    .where('t.rid', '=', rid);
}

/** The claim address: PUBLIC_URL's when set, else the path (the page puts its own host before it). */
const claimUrl = (token: string) => `${publicUrlOf(process.env.PUBLIC_URL) ?? ''}${claimPath(token)}`;

/** 128 random bits, URL-safe: the part of the address nobody can guess. */
const newToken = () => crypto.randomBytes(16).toString('base64url');

/** A card link's card: the community's, running and in its validity (the claim's `openCard` checks again). */
async function refuseCardTarget(ctx: CommunityCtx, templateId: number): Promise<void> {
  const t = await ctx.db
    .selectFrom('card_templates')
    .select(['status', 'validity', 'valid_end'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', templateId)
    .executeTakeFirst();
  if (!t) fail('会员卡不存在');
  if (t.status !== 'Y') fail('该会员卡已停用，不能投放领卡链接');
}

/** A coupon link's coupon: the community's, given by members' claims (会员领取), running. */
async function couponTarget(ctx: CommunityCtx, templateId: number) {
  const t = await ctx.db
    .selectFrom('member_coupon_templates')
    .select(['name', 'status', 'give_mode'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', templateId)
    .executeTakeFirst();
  if (!t) fail('优惠券不存在');
  if (t.give_mode !== 'claim') fail(`优惠券「${t.name}」不是会员领取的券，不能投放领取链接`);
  if (t.status !== 'Y') fail(`优惠券「${t.name}」已停用，不能领取`);
  return t;
}

const resourceMethods = defineResource(cardLink, {
  table: 'card_links',
  query: (db, rid) => linkQuery(db as Kysely<DB>, rid),
  row: (r: Values) => ({ ...r, url: claimUrl(String(r.token)) }) as CardLinkItem,
  unique: [
    {
      on: ['kind', 'card_template_id', 'coupon_template_id', 'channel'],
      message: (v) => `该${v.kind === 'card' ? '会员卡' : '优惠券'}在渠道「${String(v.channel)}」已有领取链接`,
    },
  ],
  async values(input, ctx, before) {
    const { kind, card_template_id, coupon_template_id, ...rest } = input;
    // the target stays; written back as it was, so the one-link-a-channel rule holds on an edit too
    if (before)
      return { ...rest, kind: before.kind, card_template_id: before.card_template_id, coupon_template_id: before.coupon_template_id };
    if (kind === 'card') await refuseCardTarget(ctx, Number(card_template_id));
    else await couponTarget(ctx, Number(coupon_template_id));
    return {
      ...rest,
      kind,
      card_template_id: kind === 'card' ? card_template_id : null,
      coupon_template_id: kind === 'coupon' ? coupon_template_id : null,
      token: newToken(),
      created_by: ctx.session.accountId,
    };
  },
  dependents: { card_link_claims: '该链接已有人领取，不能删除，请停止投放' },
  summaries: {
    list: '领卡链接：领取会员卡或优惠券的链接与二维码，各有投放渠道；每条的领取总数和今日领取',
    add: '新增领卡链接：会员卡（启用中）或「会员领取」的优惠券，填写投放渠道；领取地址由系统生成，不可猜测',
    edit: '修改领卡链接：渠道、状态（投放中/已停止）、备注；领取对象不能修改',
    del: '删除领卡链接：已有人领取的链接不能删除，请停止投放',
  },
});

const cardslinkclaim = defineMethod('cardslinkclaim', {
  side: 'community',
  roles: CARD_ROLES.issue,
  writes: true,
  summary:
    '代领：按领卡链接为会员领取（会员卡链接为其开卡，每位会员只能有一张在用的卡；优惠券链接发一张券，来源会员领取、渠道为链接的渠道），记入该链接的领取数；已停止的链接不能领取；同一 idempotency_key 重试只领取一次',
  async handler(ctx, input) {
    return onceByKey(ctx, 'cardslinkclaim', input.idempotency_key, async () => {
      // the link is locked first: a stop and a claim come one after the other
      const link = await ctx.db
        .selectFrom('card_links')
        .selectAll()
        .where('rid', '=', ctx.rid)
        .where('token', '=', input.token)
        .forUpdate()
        .executeTakeFirst();
      if (!link) fail('领取链接不存在');
      if (link.status !== 'Y') fail('该领取链接已停止投放，不能领取');
      const member = await ctx.db
        .selectFrom('members')
        .select(['id', 'realname'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.member_id)
        .executeTakeFirst();
      if (!member) fail('会员不存在');
      const got = { card_id: null as number | null, card_no: '', coupon_id: null as number | null, coupon_code: '' };
      let what: string;
      if (link.kind === 'card') {
        const card = await openCard(ctx, {
          templateId: link.card_template_id!,
          memberId: member.id,
          cardNo: input.card_no,
          remark: `领卡链接（${link.channel}）`,
        });
        Object.assign(got, { card_id: card.id, card_no: card.card_no });
        what = `会员卡（卡号 ${card.card_no}）`;
      } else {
        const template = await couponTarget(ctx, link.coupon_template_id!);
        const sourceRef = `LK${link.id}`;
        await giveCoupons(ctx.db, {
          rid: ctx.rid,
          templateId: link.coupon_template_id!,
          memberIds: [member.id],
          source: 'claim',
          channel: link.channel,
          sourceRef,
          createdBy: ctx.session.accountId,
        });
        const coupon = await ctx.db
          .selectFrom('member_coupons')
          .select(['id', 'code'])
          .where('rid', '=', ctx.rid)
          .where('template_id', '=', link.coupon_template_id!)
          .where('member_id', '=', member.id)
          .where('source_ref', '=', sourceRef)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        Object.assign(got, { coupon_id: coupon.id, coupon_code: coupon.code });
        what = `优惠券「${template.name}」`;
      }
      const claim = await ctx.db
        .insertInto('card_link_claims')
        .values({
          rid: ctx.rid,
          link_id: link.id,
          member_id: member.id,
          card_id: got.card_id,
          coupon_id: got.coupon_id,
          created_by: ctx.session.accountId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { claims, claims_today } = await linkQuery(ctx.db, ctx.rid).where('t.id', '=', link.id).executeTakeFirstOrThrow();
      const answer: CardLinkClaimAnswer = {
        claim_id: claim.id,
        kind: link.kind,
        member_id: member.id,
        ...got,
        claims: Number(claims),
        claims_today: Number(claims_today),
      };
      return reply(answer, `已为 ${member.realname} 领取${what}`);
    });
  },
});

const cardslinkchannels = defineMethod('cardslinkchannels', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '各投放渠道的领卡链接数、领取总数和今日领取（可按领取内容：会员卡、优惠券）',
  async handler(ctx, input) {
    const rows = await sql<{ channel: string; links: number; claims: number; claims_today: number }>`
      SELECT l.channel, count(DISTINCT l.id)::int AS links, count(c.id)::int AS claims,
             (count(c.id) FILTER (WHERE c.created_at >= current_date))::int AS claims_today
      FROM card_links l
      LEFT JOIN card_link_claims c ON c.rid = l.rid AND c.link_id = l.id
      WHERE l.rid = ${ctx.rid} ${input.kind ? sql`AND l.kind = ${input.kind}` : sql``}
      GROUP BY l.channel
      ORDER BY claims DESC, l.channel`.execute(ctx.db);
    return { items: rows.rows };
  },
});

// the links and the import are the property's: a merchant serves members at its counter only
export const cardLinkMethods = notForMerchants([...resourceMethods, cardslinkclaim, cardslinkchannels, ...cardImportMethods]);
