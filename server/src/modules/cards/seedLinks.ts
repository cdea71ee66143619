import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';
import { openCard } from './cards.js';
import { giveCoupons } from './coupons.js';

/** The demo's links: what they claim, the channel, whether stopped, and how many claimed on which days ago. */
const LINKS: Array<{ kind: 'card' | 'coupon'; channel: string; stopped?: true; claims: number[] }> = [
  { kind: 'card', channel: '公众号菜单', claims: [0, 0, 1, 3, 6, 9] },
  { kind: 'card', channel: '小区海报', claims: [0, 2, 5, 12] },
  { kind: 'card', channel: '业主群', claims: [1, 4] },
  { kind: 'card', channel: '前台', claims: [0, 7] },
  { kind: 'coupon', channel: '公众号菜单', claims: [0, 1, 2, 8, 15] },
  { kind: 'coupon', channel: '业主群', claims: [0, 3, 10] },
  { kind: 'coupon', channel: '小区海报', stopped: true, claims: [20, 25] },
];

/**
 * Demo data of the claim links (领卡链接; modules/cards/links.ts), after the cards' and the coupons'
 * seeds: per community, links of the community card through four channels and of the coupon members
 * claim (免费洗衬衫一件) through three (one stopped), each with claims over the last weeks, some today.
 * A card claim opens the card as `openCard` does (residents without a card, never the demo owner of
 * 1101); a coupon claim gives it through `giveCoupons` with the link's channel.
 */
export async function seedLinks(db: Kysely<DB>): Promise<void> {
  const admin = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'admin').executeTakeFirstOrThrow();
  for (const rid of await peopledCommunities(db)) {
    const card = await db
      .selectFrom('card_templates')
      .select('id')
      .where('rid', '=', rid)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirst();
    const coupon = await db
      .selectFrom('member_coupon_templates')
      .select('id')
      .where('rid', '=', rid)
      .where('give_mode', '=', 'claim')
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirst();
    if (!card || !coupon) continue;
    const needed = LINKS.reduce((n, l) => n + l.claims.length, 0);
    // residents without a live card (the tail of the list, away from the journeys' owners) and without the coupon
    const people = await sql<{ id: number }>`
      SELECT m.id FROM members m
      WHERE m.rid = ${rid} AND m.mobile <> ${DEMO_MOBILE}
        AND EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y')
        AND NOT EXISTS (SELECT 1 FROM member_cards c WHERE c.rid = m.rid AND c.member_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM member_coupons c WHERE c.rid = m.rid AND c.member_id = m.id AND c.template_id = ${coupon.id})
      ORDER BY m.id DESC LIMIT ${needed}`.execute(db);
    const queue = people.rows.map((p) => Number(p.id));
    const opener = { db, rid, session: { accountId: admin.id, name: admin.name } };
    for (const [i, l] of LINKS.entries()) {
      const link = await db
        .insertInto('card_links')
        .values({
          rid,
          kind: l.kind,
          card_template_id: l.kind === 'card' ? card.id : null,
          coupon_template_id: l.kind === 'coupon' ? coupon.id : null,
          channel: l.channel,
          token: crypto.randomBytes(16).toString('base64url'),
          status: l.stopped ? 'N' : 'Y',
          remark: l.stopped ? '海报已撤下' : '',
          created_by: admin.id,
          created_at: sql`now() - ${`${30 - i} days`}::interval`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const daysAgo of l.claims) {
        const memberId = queue.shift();
        if (memberId === undefined) return;
        // a few minutes before now, days ago, but never before that business day's start: just after midnight
        // "today"'s claims stay today's
        const at = sql<Date>`greatest((current_date - ${daysAgo}::int)::timestamptz, now() - ${`${daysAgo} days`}::interval - ${`${(memberId % 5) + 1} minutes`}::interval)`;
        let got: { card_id: number | null; coupon_id: number | null };
        if (l.kind === 'card') {
          const opened = await openCard(opener, { templateId: card.id, memberId, remark: `领卡链接（${l.channel}）` });
          await db
            .updateTable('member_cards')
            .set({ created_at: at, activated_at: at })
            .where('rid', '=', rid)
            .where('id', '=', opened.id)
            .execute();
          got = { card_id: opened.id, coupon_id: null };
        } else {
          const ref = `LK${link.id}`;
          await giveCoupons(db, {
            rid,
            templateId: coupon.id,
            memberIds: [memberId],
            source: 'claim',
            channel: l.channel,
            sourceRef: ref,
            createdBy: admin.id,
          });
          const given = await db
            .updateTable('member_coupons')
            .set({ got_at: at })
            .where('rid', '=', rid)
            .where('member_id', '=', memberId)
            .where('source_ref', '=', ref)
            .returning('id')
            .executeTakeFirstOrThrow();
          got = { card_id: null, coupon_id: given.id };
        }
        await db
          .insertInto('card_link_claims')
          .values({ rid, link_id: link.id, member_id: memberId, ...got, created_by: admin.id, created_at: at })
          .execute();
      }
    }
  }
}
