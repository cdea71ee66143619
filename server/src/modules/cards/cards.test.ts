import { memberCard, rechargePackage, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { expirePoints, expiresOn, moveBalance } from './ledger.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let merchant: string;
let templateId = 0;
let key = 0;
const newKey = () => `card-test-${Date.now()}-${++key}`;
let mobileSeq = 0;
const newMobile = () => `1370000${String(++mobileSeq).padStart(4, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, merchant] = await s.logins('admin', 'admin2', 'cashier', 'merchant');
  const t = await s.database.db
    .selectFrom('card_templates')
    .select('id')
    .where('rid', '=', 1)
    .where('status', '=', 'Y')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  templateId = t.id;
});
afterAll(() => s?.close());

describeResource(memberCard, {
  server: () => s,
  sample: () => ({
    card_no: 'T0001',
    template_id: templateId,
    realname: '测试会员',
    mobile: '13700009999',
    level: '银卡会员',
    tags: ['测试'],
    remark: '',
  }),
  edit: { card_no: 'T0002', level: '金卡会员', remark: '改了等级' },
  filters: { card_no: 'T0001', keyword: '测试会员', level: '银卡会员', status: 'Y' },
  deniedWriter: 'merchant',
  unique: ['card_no'],
});

describeResource(rechargePackage, {
  server: () => s,
  sample: {
    name: '测试套餐',
    pay_amount: '300.00',
    bonus_amount: '30.00',
    bonus_points: 100,
    per_member_limit: 2,
    status: 'Y',
    remark: '',
  },
  edit: { name: '测试套餐二', bonus_amount: '35.00' },
  filters: { name: '测试', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['name'],
});

/** Opens a card for a new non-resident and answers it. */
async function openCard(v: Record<string, unknown> = {}) {
  const res = await s.call(
    'creatcardus',
    { card_no: `C${Date.now() % 1e8}${++key}`, template_id: templateId, realname: '卡测试', mobile: newMobile(), ...v },
    admin,
  );
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return (await s.call('cardusinfo', { id: res.data.id }, admin)).data as {
    id: number;
    member_id: number;
    card_no: string;
    status: string;
    mobile: string;
  };
}

const member = async (id: number) =>
  s.database.db.selectFrom('members').select(['balance', 'bonus']).where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();

async function packageOf(name: string) {
  return s.database.db.selectFrom('recharge_packages').selectAll().where('rid', '=', 1).where('name', '=', name).executeTakeFirstOrThrow();
}

const recharge = (card: number, v: Record<string, unknown>, token = cashier) =>
  s.call('cardrecharge', { card_id: card, pay_type: 'cash', idempotency_key: newKey(), ...v }, token);

describe('opening cards', () => {
  it('opens a card for a resident with their rooms, and refuses a second live card', async () => {
    const db = s.database.db;
    const rm = await db
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['rm.hid', 'rm.member_id'])
      .where('rm.rid', '=', 1)
      .where('rm.relation', '=', 'owner')
      .where('rm.status', '=', 'Y')
      .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM member_cards c WHERE c.rid = 1 AND c.member_id = rm.member_id)`)
      .orderBy('rm.id')
      .executeTakeFirstOrThrow();
    const res = await s.call('creatcardus', { card_no: 'RES0001', template_id: templateId, hid: rm.hid, member_id: rm.member_id }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    const card = (await s.call('cardusinfo', { id: res.data.id }, admin)).data;
    expect(card).toMatchObject({ member_id: rm.member_id, status: 'Y', status_ch: '正常' });
    expect(card.hids).toContain(rm.hid);
    expect(card.houses).not.toBe('');
    const again = await s.call('creatcardus', { card_no: 'RES0002', template_id: templateId, hid: rm.hid, member_id: rm.member_id }, admin);
    expect(again.return_msg).toBe('该会员已有会员卡（卡号 RES0001），不能重复开卡');
    // someone who does not live in the room is refused; the card number's form is checked
    const other = await s.call(
      'creatcardus',
      { card_no: 'RES0003', template_id: templateId, hid: rm.hid + 100000, member_id: rm.member_id },
      admin,
    );
    expect(other.return_code).toBe('FAIL');
    expect(
      (await s.call('creatcardus', { card_no: '卡1', template_id: templateId, realname: 'x', mobile: newMobile() }, admin)).return_msg,
    ).toContain('卡号应为');
    expect((await s.call('creatcardus', { card_no: 'NOBODY01', template_id: templateId }, admin)).return_msg).toContain('请选择会员');
  });

  it('refuses a stopped card template, a merchant and another community', async () => {
    const stopped = await s.database.db
      .selectFrom('card_templates')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'N')
      .executeTakeFirstOrThrow();
    const res = await s.call('creatcardus', { card_no: 'STOP0001', template_id: stopped.id, realname: '停用', mobile: newMobile() }, admin);
    expect(res.return_msg).toBe('该会员卡已停用，不能开卡');
    expect(
      (await s.call('creatcardus', { card_no: 'M0001', template_id: templateId, realname: 'x', mobile: newMobile() }, merchant))
        .return_code,
    ).toBe('NO_PERMISSION');
    const card = await openCard();
    expect((await s.call('cardusinfo', { id: card.id }, admin2)).return_msg).toBe('会员卡不存在');
    expect((await s.call('cardusfreeze', { id: card.id, reason: '外区' }, admin2)).return_msg).toBe('会员卡不存在');
    expect(
      (await s.call('cardrecharge', { card_id: card.id, amount: '10', pay_type: 'cash', idempotency_key: newKey() }, admin2)).return_msg,
    ).toBe('会员卡不存在');
  });
});

describe('a card’s life', () => {
  it('activates, freezes (no spending, recharge refused), unfreezes; the log tells it', async () => {
    const card = await openCard({ status: 'I' });
    expect(card.status).toBe('I');
    expect((await recharge(card.id, { amount: '100' })).return_msg).toBe('会员卡未激活，请先激活');
    expect((await s.call('cardusactivate', { id: card.id }, admin)).return_msg).toBe('激活成功');
    expect((await recharge(card.id, { amount: '100' })).return_code).toBe('SUCCESS');
    expect((await s.call('cardusfreeze', { id: card.id, reason: '' }, admin)).return_msg).toContain('请填写冻结原因');
    expect((await s.call('cardusfreeze', { id: card.id, reason: '会员要求' }, admin)).data.status).toBe('F');
    expect((await recharge(card.id, { amount: '100' })).return_msg).toBe('会员卡已冻结，不能充值');
    await expect(
      s.database.db.transaction().execute((trx) =>
        moveBalance(trx, {
          rid: 1,
          memberId: card.member_id,
          fen: 100n,
          ioType: 2,
          feetype: 'shop',
          paytype: 'balance',
          orderid: 'X',
          remark: '',
          createUser: 't',
        }),
      ),
    ).rejects.toThrow('会员卡已冻结，不能使用余额');
    const bonus = await s.call('cardbonusadjust', { id: card.id, points: -1, reason: '扣' }, admin);
    expect(bonus.return_msg).toBe('会员卡已冻结，不能使用积分');
    expect((await s.call('cardusunfreeze', { id: card.id }, admin)).data.status).toBe('Y');
    const log = (await s.call('carduslog', { id: card.id }, admin)).data.items.map((l: { transition_ch: string }) => l.transition_ch);
    expect(log).toEqual(['开卡', '激活', '冻结', '解冻']);
  });

  it('reports a card lost: the replacement takes over the balance and points; the old number cannot change', async () => {
    const card = await openCard();
    expect((await recharge(card.id, { amount: '80.50' })).return_code).toBe('SUCCESS');
    expect(
      (await s.call('editcardus', { id: card.id, card_no: 'CHANGED1', level: '普通会员', tags: [], remark: '' }, admin)).return_msg,
    ).toBe('该卡已有交易，卡号不能修改');
    const lost = await s.call('carduslost', { id: card.id, new_card_no: card.card_no }, admin);
    expect(lost.return_msg).toBe(`卡号 ${card.card_no} 已存在`);
    const res = await s.call('carduslost', { id: card.id, new_card_no: `${card.card_no}N`, reason: '丢失' }, admin);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.data).toMatchObject({ status: 'L', replaced_by_no: `${card.card_no}N` });
    const list = await s.call('carduslist', { card_no: `${card.card_no}N` }, admin);
    expect(list.data.items[0]).toMatchObject({ status: 'Y', balance: '80.50', member_id: card.member_id });
    // the next recharge lands on the replacement
    expect((await recharge(list.data.items[0].id, { amount: '1' })).data.balance).toBe('81.50');
    expect((await recharge(card.id, { amount: '1' })).return_msg).toBe('该会员卡已挂失或注销，不能充值');
  });

  it('closes a card only at a zero balance', async () => {
    const card = await openCard();
    await recharge(card.id, { amount: '5' });
    const refused = await s.call('carduseclose', { id: card.id, reason: '搬走' }, admin);
    expect(refused.return_msg).toBe('该会员余额还有 5.00 元，须为 0 才能注销');
    await s.database.db.transaction().execute((trx) =>
      moveBalance(trx, {
        rid: 1,
        memberId: card.member_id,
        fen: 500n,
        ioType: 2,
        feetype: 'shop',
        paytype: 'balance',
        orderid: 'X',
        remark: '',
        createUser: 't',
      }),
    );
    expect((await s.call('carduseclose', { id: card.id, reason: '搬走' }, admin)).data.status).toBe('C');
    // a closed card's member (found by the mobile) may open another
    const again = await s.call(
      'creatcardus',
      { card_no: `${card.card_no}B`, template_id: templateId, realname: '卡测试', mobile: card.mobile },
      admin,
    );
    expect(again.return_code, again.return_msg).toBe('SUCCESS');
    expect((await s.call('cardusinfo', { id: again.data.id }, admin)).data.member_id).toBe(card.member_id);
  });

  it('adjusts points with a reason, once per key; the ledger shows what each row left', async () => {
    const card = await openCard();
    const k = newKey();
    expect((await s.call('cardbonusadjust', { id: card.id, points: 120, reason: '活动奖励', idempotency_key: k }, admin)).data.bonus).toBe(
      120,
    );
    expect((await s.call('cardbonusadjust', { id: card.id, points: 120, reason: '活动奖励', idempotency_key: k }, admin)).data.bonus).toBe(
      120,
    );
    expect((await s.call('cardbonusadjust', { id: card.id, points: -20, reason: '' }, admin)).return_msg).toContain('请填写调整原因');
    expect((await s.call('cardbonusadjust', { id: card.id, points: -20, reason: '更正' }, admin)).data.bonus).toBe(100);
    expect((await s.call('cardbonusadjust', { id: card.id, points: 5, reason: 'x' }, merchant)).return_code).toBe('NO_PERMISSION');
    // a merchant account never reads members' ledgers
    expect((await s.call('cardledgerlist', { id: card.id, kind: 'bonus' }, merchant)).return_code).toBe('NO_PERMISSION');
    const ledger = await s.call('cardledgerlist', { id: card.id, kind: 'bonus' }, admin);
    expect(ledger.data.items.map((l: { amount: string; after: string; what: string }) => [l.amount, l.after, l.what])).toEqual([
      ['-20', '100', '手工调整'],
      ['120', '120', '手工调整'],
    ]);
  });
});

describe('points expiry', () => {
  it('dates an earning by the card’s rule', () => {
    expect(expiresOn({ expiry: 'never', expiry_months: null }, '2026-12-01')).toBeNull();
    expect(expiresOn({ expiry: 'next_year_end', expiry_months: null }, '2026-12-01')).toBe('2027-12-31');
    expect(expiresOn({ expiry: 'rolling', expiry_months: 12 }, '2026-02-28')).toBe('2027-02-28');
    expect(expiresOn(undefined, '2026-12-01')).toBeNull();
  });

  it('spends the earliest to expire first, and the daily job takes what has expired', async () => {
    const db = s.database.db;
    const card = await openCard();
    await s.call('cardbonusadjust', { id: card.id, points: 100, reason: '活动' }, admin);
    await s.call('cardbonusadjust', { id: card.id, points: 50, reason: '活动' }, admin);
    const rows = await db
      .selectFrom('bonus_ledger')
      .select(['id', 'num', 'expires_on'])
      .where('rid', '=', 1)
      .where('member_id', '=', card.member_id)
      .orderBy('id')
      .execute();
    // the demo card: points expire at the end of the next year
    expect(rows.map((r) => r.expires_on)).toEqual([
      `${Number(new Date().getFullYear()) + 1}-12-31`,
      `${Number(new Date().getFullYear()) + 1}-12-31`,
    ]);
    // the second earning expires first
    await db
      .updateTable('bonus_ledger')
      .set({ expires_on: sql`current_date + 5` })
      .where('rid', '=', 1)
      .where('id', '=', rows[0]!.id)
      .execute();
    await db
      .updateTable('bonus_ledger')
      .set({ expires_on: sql`current_date + 1` })
      .where('rid', '=', 1)
      .where('id', '=', rows[1]!.id)
      .execute();
    await s.call('cardbonusadjust', { id: card.id, points: -60, reason: '兑换' }, admin);
    const unspent = async () =>
      (
        await db
          .selectFrom('bonus_ledger')
          .select('unspent')
          .where('rid', '=', 1)
          .where('id', 'in', [rows[0]!.id, rows[1]!.id])
          .orderBy('id')
          .execute()
      ).map((r) => r.unspent);
    expect(await unspent()).toEqual([90, 0]);
    await db
      .updateTable('bonus_ledger')
      .set({ expires_on: sql`current_date - 1` })
      .where('rid', '=', 1)
      .where('id', '=', rows[0]!.id)
      .execute();
    // a frozen card's points expire all the same
    await s.call('cardusfreeze', { id: card.id, reason: '冻结' }, admin);
    expect(await expirePoints(db)).toBeGreaterThanOrEqual(90);
    expect(await unspent()).toEqual([0, 0]);
    expect((await member(card.member_id)).bonus).toBe(0);
    const ledger = await s.call('cardledgerlist', { id: card.id, kind: 'bonus' }, admin);
    expect(ledger.data.items[0]).toMatchObject({ what: '积分过期', amount: '-90', after: '0' });
    // nothing left to expire: a second run takes nothing of this member
    await expirePoints(db);
    expect((await member(card.member_id)).bonus).toBe(0);
  });
});

describe('recharges', () => {
  it('recharges ¥500 with a ¥50 bonus: two balance rows, the member’s balance; a retry does nothing more', async () => {
    const card = await openCard();
    const pkg = await packageOf('充500送50');
    const k = newKey();
    const res = await s.call(
      'cardrecharge',
      { card_id: card.id, package_id: pkg.id, pay_type: 'wechat', reference: 'WX0001', idempotency_key: k },
      cashier,
    );
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(res.return_msg).toBe('充值成功，当前余额 550.00 元');
    expect(res.data).toMatchObject({
      paid_amount: '500.00',
      bonus_amount: '50.00',
      status: 'Y',
      package_name: '充500送50',
      balance: '550.00',
    });
    expect(res.data.order_no).toMatch(/^CZ\d{14}$/);
    const again = await s.call(
      'cardrecharge',
      { card_id: card.id, package_id: pkg.id, pay_type: 'wechat', reference: 'WX0001', idempotency_key: k },
      cashier,
    );
    expect(again.data.order_no).toBe(res.data.order_no);
    expect((await member(card.member_id)).balance).toBe('550.00');
    const ledger = await s.call('cardledgerlist', { id: card.id, kind: 'balance', sort: 'asc' }, admin);
    expect(
      ledger.data.items.map((l: { what: string; amount: string; after: string; paytype_ch: string }) => [
        l.what,
        l.amount,
        l.after,
        l.paytype_ch,
      ]),
    ).toEqual([
      ['余额充值', '500.00', '500.00', '微信支付'],
      ['充值赠送', '50.00', '550.00', ''],
    ]);
    const listed = await s.call('cardrechargelist', { card_id: card.id }, admin);
    expect(listed.data.total).toBe(1);
    expect(listed.data.sums).toEqual({ paid_amount: '500.00', bonus_amount: '50.00' });
  });

  it('keeps a package to its window, its limit per member and the card’s rules', async () => {
    const card = await openCard();
    const limited = await packageOf('年终限时充2000送300');
    expect((await recharge(card.id, { package_id: limited.id })).data.bonus_points).toBe(500);
    expect((await recharge(card.id, { package_id: limited.id })).return_msg).toBe('充值套餐「年终限时充2000送300」每人限充 1 次');
    const ended = await packageOf('国庆充300送40');
    expect((await recharge(card.id, { package_id: ended.id })).return_msg).toBe('充值套餐「国庆充300送40」不在活动时间内');
    expect((await recharge(card.id, {})).return_msg).toContain('请选择充值套餐或填写充值金额');
    expect((await recharge(card.id, { amount: '-5' })).return_code).toBe('FAIL');
    expect((await recharge(card.id, { amount: '10', pay_type: 'balance' })).return_code).toBe('FAIL');
    expect((await recharge(card.id, { amount: '10' }, merchant)).return_code).toBe('NO_PERMISSION');
    const small = await s.call('rechargepackage_small_list', {}, cashier);
    const names = small.data.items.map((p: { name: string }) => p.name);
    expect(names).toContain('充500送50');
    expect(names).not.toContain('国庆充300送40');
  });

  it('refunds a whole unspent recharge after approval; refuses while part of it is spent', async () => {
    const card = await openCard();
    const pkg = await packageOf('充1000送120');
    const r = (await recharge(card.id, { package_id: pkg.id, pay_type: 'alipay' })).data;
    expect(r.bonus_points).toBe(200);
    // 10 yuan spent: refused at the application
    await s.database.db.transaction().execute((trx) =>
      moveBalance(trx, {
        rid: 1,
        memberId: card.member_id,
        fen: 1000n,
        ioType: 2,
        feetype: 'shop',
        paytype: 'balance',
        orderid: 'S1',
        remark: '',
        createUser: 't',
      }),
    );
    const refused = await s.call('cardrechargerefund', { id: r.id, reason: '不想用了' }, cashier);
    expect(refused.return_msg).toBe('该充值已部分使用（当前余额 1110.00 元，须不少于充值与赠送合计 1120.00 元），不能退款');
    await recharge(card.id, { amount: '10' });
    const applied = await s.call('cardrechargerefund', { id: r.id, reason: '不想用了' }, cashier);
    expect(applied.return_code, applied.return_msg).toBe('SUCCESS');
    expect(applied.data.status).toBe('E');
    // the cashier may not approve; a rejection puts it back
    expect((await s.call('cardrechargerefundreview', { id: r.id, approve: true }, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('cardrechargerefundreview', { id: r.id, approve: false, remark: '再想想' }, admin)).data.status).toBe('Y');
    await s.call('cardrechargerefund', { id: r.id, reason: '确定退' }, cashier);
    const done = await s.call('cardrechargerefundreview', { id: r.id, approve: true }, admin);
    expect(done.return_code, done.return_msg).toBe('SUCCESS');
    expect(done.data.status).toBe('R');
    expect(await member(card.member_id)).toEqual({ balance: '0.00', bonus: 0 });
    expect((await s.call('cardrechargerefund', { id: r.id, reason: '再退' }, cashier)).return_msg).toBe('该充值记录已处理');
    const log = (await s.call('cardrechargelog', { id: r.id }, admin)).data.items.map((l: { transition_ch: string }) => l.transition_ch);
    expect(log).toEqual(['充值', '申请退款', '驳回', '申请退款', '同意退款']);
  });

  it('50 concurrent spends never take the balance below zero', async () => {
    const card = await openCard();
    await recharge(card.id, { amount: '100' });
    const spend = () =>
      s.database.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        return moveBalance(trx, {
          rid: 1,
          memberId: card.member_id,
          fen: 700n,
          ioType: 2,
          feetype: 'shop',
          paytype: 'balance',
          orderid: 'P',
          remark: '',
          createUser: 't',
        });
      });
    const results = await Promise.allSettled(Array.from({ length: 50 }, spend));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBe(14);
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => String((r as PromiseRejectedResult).reason).includes('业主余额不足')),
    ).toBe(true);
    expect((await member(card.member_id)).balance).toBe('2.00');
    expect(toFen((await member(card.member_id)).balance)).toBeGreaterThanOrEqual(0n);
  });
});

describe('the cashier and the balance', () => {
  it('pays only items that allow the balance', async () => {
    const db = s.database.db;
    const bill = await db
      .selectFrom('fee_bills as b')
      .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'b.rid').onRef('rm.hid', '=', 'b.hid'))
      .select(['b.id', 'b.hid', 'b.item_id', 'rm.member_id'])
      .where('b.rid', '=', 1)
      .where('b.status', '<>', 'Y')
      .where('rm.relation', '=', 'owner')
      .where('rm.status', '=', 'Y')
      .orderBy('b.id', 'desc')
      .executeTakeFirstOrThrow();
    await db.updateTable('fee_items').set({ balance_pay: 'N' }).where('rid', '=', 1).where('id', '=', bill.item_id).execute();
    const res = await s.call(
      'cashierpay',
      { hid: bill.hid, bill_ids: [bill.id], pay_type: 'balance', paid_amount: '0', idempotency_key: newKey() },
      cashier,
    );
    expect(res.return_msg).toMatch(/^收费项目「.+」不允许余额支付，请选择其他支付方式$/);
    await db.updateTable('fee_items').set({ balance_pay: 'Y' }).where('rid', '=', 1).where('id', '=', bill.item_id).execute();
  });
});
