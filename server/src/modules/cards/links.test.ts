import { RC, cardLink } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let merchant: string;
/** reads the cards (card) / opens cards and claims for members (card, cardopen) */
let reader: string;
let issuer: string;
let cardTemplate = 0;
let claimCoupon = 0;
let key = 0;
const newKey = () => `link-test-${Date.now()}-${++key}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, merchant] = await s.logins('admin', 'admin2', 'cashier', 'merchant');
  await s.addAccount('linkreader', { roles: ['card'], regions: [1] });
  await s.addAccount('linkissuer', { roles: ['card', 'cardopen'], regions: [1] });
  [reader, issuer] = await s.logins('linkreader', 'linkissuer');
  const db = s.database.db;
  cardTemplate = (
    await db
      .selectFrom('card_templates')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
  claimCoupon = (
    await db
      .selectFrom('member_coupon_templates')
      .select('id')
      .where('rid', '=', 1)
      .where('give_mode', '=', 'claim')
      .where('status', '=', 'Y')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => s?.close());

describeResource(cardLink, {
  server: () => s,
  sample: () => ({ kind: 'card', card_template_id: cardTemplate, channel: '测试渠道', status: 'Y', remark: '' }),
  edit: { channel: '测试渠道二', remark: '换了渠道' },
  filters: { kind: 'card', channel: '测试渠道', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['kind', 'card_template_id', 'channel'],
});

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
let channelSeq = 0;

/** Adds a link and answers it as the list shows it. */
async function addLink(v: Record<string, unknown>) {
  const res = await s.call('cardslinkadd', { status: 'Y', channel: `渠道${++channelSeq}`, ...v }, admin);
  ok(res);
  const list = await s.call('cardslinklist', { limit: 200 }, admin);
  return list.data.items.find((r: { id: number }) => r.id === res.data.id) as {
    id: number;
    token: string;
    url: string;
    channel: string;
    claims: number;
    claims_today: number;
  };
}

/** A resident of community 1 without a card (never the demo owner), a new one each call. */
let taken = 0;
async function memberWithoutCard(rid = 1): Promise<number> {
  const row = await sql<{ id: number }>`
    SELECT m.id FROM members m WHERE m.rid = ${rid} AND m.mobile <> '13800138000'
      AND EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y')
      AND NOT EXISTS (SELECT 1 FROM member_cards c WHERE c.rid = m.rid AND c.member_id = m.id)
    ORDER BY m.id OFFSET ${taken++} LIMIT 1`.execute(s.database.db);
  return Number(row.rows[0]!.id);
}

const claim = (v: Record<string, unknown>, token = issuer) => s.call('cardslinkclaim', v, token);
/** How many coupons of the claim coupon were given. */
const issued = async () =>
  (
    await s.database.db
      .selectFrom('member_coupon_templates')
      .select('issued')
      .where('rid', '=', 1)
      .where('id', '=', claimCoupon)
      .executeTakeFirstOrThrow()
  ).issued;
const linkRow = async (id: number) =>
  (await s.call('cardslinklist', { limit: 200 }, admin)).data.items.find((r: { id: number }) => r.id === id) as {
    claims: number;
    claims_today: number;
    status: string;
  };

describe('claim links', () => {
  it('answers each link its unguessable claim address', async () => {
    const a = await addLink({ kind: 'card', card_template_id: cardTemplate });
    const b = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.url).toBe(`/claim/${a.token}`);
    expect(a).toMatchObject({ claims: 0, claims_today: 0 });
  });

  it('refuses a stopped card, a coupon staff give, and another community’s templates', async () => {
    const db = s.database.db;
    const stopped = await db
      .selectFrom('card_templates')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'N')
      .executeTakeFirstOrThrow();
    expect((await s.call('cardslinkadd', { kind: 'card', card_template_id: stopped.id, channel: '前台' }, admin)).return_msg).toBe(
      '该会员卡已停用，不能投放领卡链接',
    );
    const staffCoupon = await db
      .selectFrom('member_coupon_templates')
      .select(['id', 'name'])
      .where('rid', '=', 1)
      .where('give_mode', '=', 'staff')
      .where('status', '=', 'Y')
      .executeTakeFirstOrThrow();
    expect((await s.call('cardslinkadd', { kind: 'coupon', coupon_template_id: staffCoupon.id, channel: '前台' }, admin)).return_msg).toBe(
      `优惠券「${staffCoupon.name}」不是会员领取的券，不能投放领取链接`,
    );
    const theirCard = await db.selectFrom('card_templates').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    const theirCoupon = await db.selectFrom('member_coupon_templates').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    expect((await s.call('cardslinkadd', { kind: 'card', card_template_id: theirCard.id, channel: '前台' }, admin)).return_msg).toBe(
      '会员卡不存在',
    );
    expect((await s.call('cardslinkadd', { kind: 'coupon', coupon_template_id: theirCoupon.id, channel: '前台' }, admin)).return_msg).toBe(
      '优惠券不存在',
    );
    // the target the kind names is required; a channel too
    expect((await s.call('cardslinkadd', { kind: 'card', coupon_template_id: claimCoupon, channel: '前台' }, admin)).return_msg).toContain(
      '请选择会员卡',
    );
    expect((await s.call('cardslinkadd', { kind: 'card', card_template_id: cardTemplate, channel: '' }, admin)).return_msg).toContain(
      '请填写渠道',
    );
  });

  it('opens a card through a card link and counts it; a second live card is refused', async () => {
    const link = await addLink({ kind: 'card', card_template_id: cardTemplate, channel: '小区海报（测试）' });
    const memberId = await memberWithoutCard();
    const res = await claim({ token: link.token, member_id: memberId, idempotency_key: newKey() });
    ok(res);
    expect(res.return_msg).toMatch(/^已为 .+ 领取会员卡（卡号 M\d{11}）$/);
    expect(res.data).toMatchObject({ kind: 'card', member_id: memberId, claims: 1, claims_today: 1, coupon_id: null });
    const card = (await s.call('cardusinfo', { id: res.data.card_id }, admin)).data;
    expect(card).toMatchObject({ member_id: memberId, template_id: cardTemplate, status: 'Y', card_no: res.data.card_no });
    expect(card.hids.length).toBeGreaterThan(0);
    // its history starts with 开卡, as the card form's does
    const log = (await s.call('carduslog', { id: res.data.card_id }, admin)).data.items;
    expect(log.map((l: { transition: string }) => l.transition)).toEqual(['create']);
    // one live card a member: through this link or another, nothing more is opened or counted
    const again = await claim({ token: link.token, member_id: memberId });
    expect(again.return_msg).toBe(`该会员已有会员卡（卡号 ${res.data.card_no}），不能重复开卡`);
    expect(await linkRow(link.id)).toMatchObject({ claims: 1, claims_today: 1 });
    // a chosen card number; a taken one refused
    const other = await memberWithoutCard();
    expect((await claim({ token: link.token, member_id: other, card_no: res.data.card_no })).return_msg).toBe(
      `卡号 ${res.data.card_no} 已存在`,
    );
    const chosen = await claim({ token: link.token, member_id: other, card_no: 'LINK-0001' });
    ok(chosen);
    expect(chosen.data).toMatchObject({ card_no: 'LINK-0001', claims: 2 });
  });

  it('gives a coupon through a coupon link, as claimed through its channel, and counts per channel', async () => {
    const link = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon, channel: '业主群（测试）' });
    const issuedBefore = await issued();
    const memberId = await memberWithoutCard();
    const res = await claim({ token: link.token, member_id: memberId });
    ok(res);
    expect(res.data).toMatchObject({ kind: 'coupon', member_id: memberId, card_id: null, claims: 1, claims_today: 1 });
    const coupon = await s.database.db
      .selectFrom('member_coupons')
      .selectAll()
      .where('rid', '=', 1)
      .where('id', '=', res.data.coupon_id)
      .executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({
      member_id: memberId,
      template_id: claimCoupon,
      source: 'claim',
      channel: '业主群（测试）',
      status: 'U',
    });
    expect(coupon.code).toBe(res.data.coupon_code);
    const issuedAfter = await issued();
    expect(issuedAfter).toBe(issuedBefore + 1);
    // the template's limit a member holds: two of it, then refused by the coupons' own rules
    ok(await claim({ token: link.token, member_id: memberId }));
    expect((await claim({ token: link.token, member_id: memberId })).return_msg).toMatch(/每人限领 2 张/);
    expect(await linkRow(link.id)).toMatchObject({ claims: 2, claims_today: 2 });
    // the channels' summary counts the same claims
    const channels = (await s.call('cardslinkchannels', { kind: 'coupon' }, reader)).data.items;
    expect(channels.find((c: { channel: string }) => c.channel === '业主群（测试）')).toEqual({
      channel: '业主群（测试）',
      links: 1,
      claims: 2,
      claims_today: 2,
    });
    // the demo's channels are there with their claims, some of them today
    const all = (await s.call('cardslinkchannels', {}, reader)).data.items;
    expect(all.find((c: { channel: string }) => c.channel === '公众号菜单')).toMatchObject({ links: 2, claims: 11, claims_today: 3 });
  });

  it('claims once per idempotency key', async () => {
    const link = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    const memberId = await memberWithoutCard();
    const k = newKey();
    const first = await claim({ token: link.token, member_id: memberId, idempotency_key: k });
    const second = await claim({ token: link.token, member_id: memberId, idempotency_key: k });
    ok(first);
    expect(second.data).toEqual(first.data);
    expect(await linkRow(link.id)).toMatchObject({ claims: 1 });
  });

  it('refuses a stopped link, and deleting one claimed through; it stops instead', async () => {
    const link = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    ok(await claim({ token: link.token, member_id: await memberWithoutCard() }));
    expect((await s.call('cardslinkdel', { id: link.id }, admin)).return_msg).toBe('该链接已有人领取，不能删除，请停止投放');
    ok(await s.call('cardslinkedit', { id: link.id, channel: link.channel, status: 'N', remark: '活动结束' }, admin));
    expect((await claim({ token: link.token, member_id: await memberWithoutCard() })).return_msg).toBe('该领取链接已停止投放，不能领取');
    expect(await linkRow(link.id)).toMatchObject({ status: 'N', claims: 1 });
    // a second link of the same coupon in the same channel is refused, on an edit too
    const twin = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    expect((await s.call('cardslinkedit', { id: twin.id, channel: link.channel, status: 'Y', remark: '' }, admin)).return_msg).toBe(
      `该优惠券在渠道「${link.channel}」已有领取链接`,
    );
  });

  it('keeps links and members of another community out', async () => {
    const link = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    // community 2's administrator with community 1's token: no such link there
    const theirMember = await memberWithoutCard(2);
    expect((await claim({ token: link.token, member_id: theirMember }, admin2)).return_msg).toBe('领取链接不存在');
    // community 1's token with community 2's member
    expect((await claim({ token: link.token, member_id: theirMember })).return_msg).toBe('会员不存在');
    expect(await linkRow(link.id)).toMatchObject({ claims: 0 });
    const theirs = await s.call('cardslinklist', { limit: 200 }, admin2);
    ok(theirs);
    expect(theirs.data.items.some((r: { id: number }) => r.id === link.id)).toBe(false);
    expect((await s.call('cardslinkchannels', {}, admin2)).data.items.every((c: { channel: string }) => c.channel !== link.channel)).toBe(
      true,
    );
  });

  it('lets the card staff read, those who open cards claim, and only cardset manage; never a merchant', async () => {
    const link = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    ok(await s.call('cardslinklist', {}, reader));
    expect((await s.call('cardslinkadd', { kind: 'card', card_template_id: cardTemplate, channel: '读者' }, reader)).return_code).toBe(
      RC.NO_PERMISSION,
    );
    expect((await claim({ token: link.token, member_id: await memberWithoutCard() }, reader)).return_code).toBe(RC.NO_PERMISSION);
    expect((await claim({ token: link.token, member_id: await memberWithoutCard() }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('cardslinkadd', { kind: 'card', card_template_id: cardTemplate, channel: '开卡员' }, issuer)).return_code).toBe(
      RC.NO_PERMISSION,
    );
    for (const method of ['cardslinklist', 'cardslinkchannels', 'cardusimporttemplate'])
      expect((await s.call(method, {}, merchant)).return_code, method).toBe(RC.NO_PERMISSION);
  });

  it('refuses bad payloads in Chinese', async () => {
    const link = await addLink({ kind: 'coupon', coupon_template_id: claimCoupon });
    expect((await claim({ token: 'abc', member_id: 1 })).return_msg).toContain('领取链接不正确');
    expect((await claim({ token: `${link.token}'--`, member_id: 1 })).return_msg).toContain('领取链接不正确');
    expect((await claim({ token: link.token, member_id: 'x' })).return_code).toBe(RC.FAIL);
    expect((await claim({ token: link.token })).return_code).toBe(RC.FAIL);
    expect((await claim({ token: link.token, member_id: 1, card_no: '卡号' })).return_msg).toContain('卡号应为');
    expect((await s.call('cardslinkadd', { kind: 'shop', card_template_id: cardTemplate, channel: '前台' }, admin)).return_msg).toContain(
      '领取内容取值不正确',
    );
    expect(
      (await s.call('cardslinkadd', { kind: 'card', card_template_id: cardTemplate, channel: 'x'.repeat(21) }, admin)).return_code,
    ).toBe(RC.FAIL);
  });
});
