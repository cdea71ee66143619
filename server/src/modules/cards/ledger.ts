import { addMonths, fenToYuan } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';

/**
 * The members' ledgers (docs/product.md#member-cards): a member's balance and points change only
 * here, each change a ledger row that says what it left, so the balance and the points are always
 * the sums of their rows (checked at every test server's close, `test/keptData.ts`).
 */

/** The member's live card (未激活, 正常 or 冻结), which a ledger row names. */
async function liveCard(db: Kysely<DB>, rid: number, memberId: number) {
  return db
    .selectFrom('member_cards as c')
    .innerJoin('card_templates as t', (j) => j.onRef('t.rid', '=', 'c.rid').onRef('t.id', '=', 'c.template_id'))
    .select(['c.id', 'c.card_no', 'c.status', 't.name', 't.expiry', 't.expiry_months'])
    .where('c.rid', '=', rid)
    .where('c.member_id', '=', memberId)
    .where('c.status', 'in', ['I', 'Y', 'F'])
    .executeTakeFirst();
}

export interface BalanceMove {
  rid: number;
  memberId: number;
  hid?: number | null;
  merchantId?: number | null;
  /** positive fen */
  fen: bigint;
  /** 1 money in (a recharge, its bonus, a refund to the balance), 2 money out (a payment) */
  ioType: 1 | 2;
  /** recharge | recharge_bonus | opening | adjust | refund | a cost type | shop */
  feetype: string;
  paytype: string;
  orderid: string;
  remark: string;
  createUser: string;
}

/**
 * Moves a member's balance and writes its ledger row (the owner drawer's 余额 tab, the card's
 * ledger). Spending from a frozen card is refused; money coming back (a void, a refund) is not.
 * The CHECK (balance >= 0) and the guarded update keep a balance from going below zero under
 * concurrent spends. Answers the balance after, in yuan.
 */
export async function moveBalance(db: Kysely<DB>, m: BalanceMove): Promise<string | undefined> {
  if (m.fen <= 0n) return undefined;
  const card = await liveCard(db, m.rid, m.memberId);
  if (m.ioType === 2 && card?.status === 'F') fail('会员卡已冻结，不能使用余额');
  const amount = fenToYuan(m.fen);
  const after = await db
    .updateTable('members')
    .set({ balance: m.ioType === 1 ? sql`balance + ${amount}::numeric` : sql`balance - ${amount}::numeric` })
    .where('rid', '=', m.rid)
    .where('id', '=', m.memberId)
    .where((eb) => (m.ioType === 2 ? eb('balance', '>=', amount) : eb.val(true)))
    .returning('balance')
    .executeTakeFirst();
  if (!after) fail('业主余额不足');
  await db
    .insertInto('balance_ledger')
    .values({
      rid: m.rid,
      member_id: m.memberId,
      card_id: card?.id ?? null,
      hid: m.hid ?? null,
      merchant_id: m.merchantId ?? null,
      orderid: m.orderid,
      io_type: m.ioType,
      feetype: m.feetype,
      paytype: m.paytype,
      total_fee: amount,
      balance_after: after.balance,
      status: 'Y',
      remark: m.remark,
      create_user: m.createUser,
    })
    .execute();
  return after.balance;
}

/**
 * The day points earned today expire under a card's rule: never (null), the end of the next year,
 * or N months on (rolling). Points of a member without a card never expire.
 */
export function expiresOn(rule: { expiry: string; expiry_months: number | null } | undefined, day: string): string | null {
  if (!rule || rule.expiry === 'never') return null;
  if (rule.expiry === 'next_year_end') return `${Number(day.slice(0, 4)) + 1}-12-31`;
  return addMonths(day, rule.expiry_months ?? 12);
}

export interface BonusMove {
  rid: number;
  memberId: number;
  /** earned when positive, spent when negative */
  points: number;
  merchantId?: number | null;
  orderid: string;
  /** how: 消费赠送, 充值赠送, 积分抵扣, 积分兑换, 兑换退回, 手工调整, 积分过期… */
  payCate: string;
  /** where: 收银台, 商户收银, 积分商城, 后台… */
  source: string;
  actionUser: string;
  remark?: string;
  /** the expiry itself: a frozen card's points expire all the same */
  expiring?: boolean;
}

/**
 * Moves a member's points and writes their ledger row. Spending more than the member holds is
 * refused (积分不足), also under concurrent spends. Answers the points after.
 */
export async function moveBonus(db: Kysely<DB>, m: BonusMove): Promise<number | undefined> {
  if (!Number.isInteger(m.points) || m.points === 0) return undefined;
  const card = await liveCard(db, m.rid, m.memberId);
  if (m.points < 0 && card?.status === 'F' && !m.expiring) fail('会员卡已冻结，不能使用积分');
  const after = await db
    .updateTable('members')
    .set({ bonus: sql`bonus + ${m.points}::int` })
    .where('rid', '=', m.rid)
    .where('id', '=', m.memberId)
    .where((eb) => (m.points < 0 ? eb('bonus', '>=', -m.points) : eb.val(true)))
    .returning('bonus')
    .executeTakeFirst();
  if (!after) fail('积分不足');
  // a spend takes the points earliest to expire first (those that never expire last)
  if (m.points < 0) await spendUnspent(db, m.rid, m.memberId, -m.points);
  await db
    .insertInto('bonus_ledger')
    .values({
      rid: m.rid,
      member_id: m.memberId,
      card_id: card?.id ?? null,
      merchant_id: m.merchantId ?? null,
      orderid: m.orderid,
      name: card?.name ?? '',
      code: card?.card_no ?? '',
      num: m.points,
      bonus_after: after.bonus,
      expires_on: m.points > 0 ? expiresOn(card, today()) : null,
      unspent: m.points > 0 ? m.points : null,
      pay_cate: m.payCate,
      cate: m.points > 0 ? '增加' : '减少',
      source: m.source,
      action_user: m.actionUser,
      remark: m.remark ?? '',
    })
    .execute();
  return after.bonus;
}

/** Takes `points` from the member's unspent earnings, the earliest to expire first. */
async function spendUnspent(db: Kysely<DB>, rid: number, memberId: number, points: number): Promise<void> {
  await sql`
    WITH held AS (
      SELECT id, unspent, sum(unspent) OVER (ORDER BY expires_on NULLS LAST, id) AS upto
      FROM bonus_ledger WHERE rid = ${rid} AND member_id = ${memberId} AND unspent > 0
    ), taken AS (
      SELECT id, least(unspent, greatest(0, ${points}::int - (upto - unspent))) AS n FROM held
    )
    UPDATE bonus_ledger b SET unspent = b.unspent - taken.n FROM taken
    WHERE b.rid = ${rid} AND b.id = taken.id AND taken.n > 0`.execute(db);
}

/**
 * The daily expiry (docs/product.md#member-ledgers): each member's points whose day has passed leave
 * through a 积分过期 row, which takes them (the earliest to expire) from the unspent. Answers how many
 * points expired.
 */
export async function expirePoints(db: Kysely<DB>, day = today()): Promise<number> {
  const due = await db
    .selectFrom('bonus_ledger')
    .select(['rid', 'member_id', sql<string>`sum(unspent)`.as('points')])
    .where('unspent', '>', 0)
    .where('expires_on', '<', day)
    .groupBy(['rid', 'member_id'])
    .execute();
  let total = 0;
  for (const d of due) {
    const points = Number(d.points);
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('members').select('id').where('rid', '=', d.rid).where('id', '=', d.member_id).forUpdate().execute();
      await moveBonus(trx, {
        rid: d.rid,
        memberId: d.member_id,
        points: -points,
        orderid: `GQ${day.replace(/-/g, '')}`,
        payCate: '积分过期',
        source: '系统',
        actionUser: '系统',
        remark: '积分到期清零',
        expiring: true,
      });
    });
    total += points;
  }
  return total;
}

export const POINTS_EXPIRY = 'cards_points_expiry';
registerJobKind(POINTS_EXPIRY, async (ctx) => ({ expired: await expirePoints(ctx.db) }));
registerDailyJob(POINTS_EXPIRY, {});

/**
 * What of each earning is unspent when rows were written in bulk (the demo, the scale data): the
 * spends took the earliest to expire first. `rids`: the communities to settle (default all).
 */
export async function settleUnspentPoints(db: Kysely<DB>, rids?: number[]): Promise<void> {
  const only = rids ? sql`AND rid = ANY(${rids}::int[])` : sql``;
  await sql`
    WITH earned AS (
      SELECT rid, id, member_id, num, sum(num) OVER (PARTITION BY rid, member_id ORDER BY expires_on NULLS LAST, id) AS upto
      FROM bonus_ledger WHERE num > 0 ${only}
    ), spent AS (SELECT rid, member_id, -sum(num) AS n FROM bonus_ledger WHERE num < 0 ${only} GROUP BY rid, member_id)
    UPDATE bonus_ledger b SET unspent = greatest(0, least(e.num, e.upto - coalesce(s.n, 0)))
    FROM earned e LEFT JOIN spent s ON s.rid = e.rid AND s.member_id = e.member_id
    WHERE b.rid = e.rid AND b.id = e.id`.execute(db);
}
