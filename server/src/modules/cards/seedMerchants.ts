import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';
import { SandboxWechatProvider } from './wechatProvider.js';

/** The demo stores' faces, by a word of their names (seedLedgers names them). */
const STORES: Array<{ word: string; kind: 'store' | 'market' | 'food' | 'laundry' | 'pharmacy'; contact: string; hours: string }> = [
  { word: '便利店', kind: 'store', contact: '刘老板', hours: '07:00-23:00' },
  { word: '超市', kind: 'market', contact: '周店长', hours: '08:00-22:00' },
  { word: '洗衣', kind: 'laundry', contact: '吴师傅', hours: '09:00-20:00' },
  { word: '药房', kind: 'pharmacy', contact: '郑药师', hours: '08:30-21:30' },
  { word: '咖啡', kind: 'food', contact: '林店长', hours: '08:00-20:00' },
];
const BANKS = ['招商银行上海浦东支行', '中国工商银行上海张江支行', '中国建设银行上海花木支行'];

/**
 * Demo data of the merchants and followers (modules/cards/merchants.ts, wxfans.ts), after
 * seedLedgers made the stores: each store's kind, address, map point, contact, hours and bank; the
 * demo account `merchant` is the login of community 1's first store (阳光便利店); the first
 * community's second store serves the next community (approved there), the others' last store
 * asks to serve the first (pending there); the sandbox's followers, some of them left, some bound
 * to owners whose WeChat is bound already.
 */
export async function seedMerchants(db: Kysely<DB>, rid: number): Promise<void> {
  const region = await db.selectFrom('regions').select(['title', 'group_id']).where('id', '=', rid).executeTakeFirstOrThrow();
  const stores = await db.selectFrom('merchants').select(['id', 'merchant']).where('rid', '=', rid).orderBy('id').execute();
  for (const [i, s] of stores.entries()) {
    const face = STORES.find((f) => s.merchant.includes(f.word));
    await db
      .updateTable('merchants')
      .set({
        kind: face?.kind ?? 'other',
        contact: face?.contact ?? '',
        hours: face?.hours ?? '',
        address: `${region.title}东门商业街${12 + i * 2}号`,
        lng: (121.5412 + rid * 0.01 + i * 0.0006).toFixed(6),
        lat: (31.2213 + rid * 0.01 - i * 0.0004).toFixed(6),
        bank_name: BANKS[i % BANKS.length]!,
        bank_holder: s.merchant,
        remark: i === 0 ? '小区东门，支持会员卡积分和储值' : '',
      })
      .where('rid', '=', rid)
      .where('id', '=', s.id)
      .execute();
  }
  const communities = await peopledCommunities(db);
  if (rid === communities[0]) {
    await sql`
      UPDATE merchants SET account_id = (SELECT id FROM accounts WHERE username = 'merchant')
      WHERE rid = ${rid} AND id = ${stores[0]!.id}`.execute(db);
  }
  const others = await db
    .selectFrom('regions')
    .select(['id', 'title'])
    .where('group_id', '=', region.group_id)
    .where('id', 'in', communities)
    .where('id', '<>', rid)
    .orderBy('id')
    .execute();
  const served = others[0];
  if (served && stores.length > 1) {
    const first = rid === communities[0];
    const store = first ? stores[1]! : stores[stores.length - 1]!;
    const decider = first ? await db.selectFrom('accounts').select('id').where('username', '=', 'admin2').executeTakeFirst() : undefined;
    await db
      .insertInto('merchant_services')
      .values({
        rid: served.id,
        merchant_rid: rid,
        merchant_id: store.id,
        valid_from: sql<string>`current_date - 30`,
        valid_to: sql<string>`current_date + 335`,
        status: first ? 'Y' : 'E',
        remark: first ? `为${served.title}业主提供送货上门` : '申请为相邻小区业主提供外卖',
        decided_by: decider?.id ?? null,
        decided_at: first ? sql<Date>`now() - interval '20 days'` : null,
        created_at: sql<Date>`now() - interval '30 days'`,
      })
      .execute();
  }
  await seedFollowers(db, rid);
}

/** The sandbox's followers of the community as a sync would leave them, the first eight bound to owners. */
async function seedFollowers(db: Kysely<DB>, rid: number): Promise<void> {
  const people = new SandboxWechatProvider(rid).everyone();
  await db
    .insertInto('wx_followers')
    .values(
      people.map((u) => ({
        rid,
        openid: u.openid,
        unionid: u.unionid,
        subscribed: u.subscribe === 1 ? ('Y' as const) : ('N' as const),
        // one who left keeps the time they followed, as the platform said it then
        subscribe_time: new Date((u.subscribeTime || Date.UTC(2025, 5, 1) / 1000) * 1000),
        scene: u.subscribeScene || 'ADD_SCENE_SEARCH',
        channel: u.qrSceneStr,
        remark: u.remark,
        tags: u.tags,
        synced_at: sql<Date>`now() - interval '1 day'`,
        created_at: sql<Date>`now() - interval '1 day'`,
      })),
    )
    .execute();
  // owners whose WeChat is bound already (their app sign-ins), not the demo owner: a journey binds his
  await sql`
    WITH f AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM wx_followers WHERE rid = ${rid} AND subscribed = 'Y'),
    m AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM members
          WHERE rid = ${rid} AND wx_isbind = 'Y' AND mobile <> ${DEMO_MOBILE} ORDER BY id LIMIT 8)
    UPDATE wx_followers w SET member_id = m.id, bound_at = now() - interval '1 day'
    FROM f JOIN m USING (n) WHERE w.rid = ${rid} AND w.id = f.id`.execute(db);
}
