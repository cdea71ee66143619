/**
 * Demo data of the sales CRM (docs/product.md#crm-sales) for one community: 60 customers across the
 * pipeline held by 冯顾问 (sales), 陈招商 (leasing) and 张经理 (admin), some in the pool, with
 * their timelines, follow-ups (some due today, some overdue, some about to fall into the pool),
 * invitations in every outcome, and deposits: paid at the cashier through the cashier's own path,
 * waiting at the cashier, one refund waiting for finance, one refunded, one cancelled. The pool's
 * daily run at the end takes back the two left unfollowed and warns the consultants of those due soon.
 */
import { PIPELINE, type CrmStage } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { runAs, seedCtxOf } from '../../db/seedAs.js';
import type { CommunityCtx } from '../../http/registry.js';
import { today } from '../../lib/wire.js';
import { house, payBills } from '../fees/cashier.js';
import { logCustomer, poolRules, type Actor } from './salesCore.js';
import { reclaimCommunity } from './salesPool.js';

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢';
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '磊',
  '洋',
  '艳',
  '勇',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '霞',
  '平',
  '刚',
  '桂英',
  '浩然',
  '子涵',
  '欣怡',
  '宇轩',
  '梓萱',
  '俊杰',
  '雨桐',
  '一鸣',
  '思远',
];
const LAYOUTS = ['两室一厅', '三室两厅', '三室一厅', '四室两厅', ''];
const NOTES = [
  '电话沟通，客户关注学区和交房时间',
  '微信发送户型图和价格单，客户表示周末来看房',
  '客户对比了周边两个楼盘，倾向我们的三房',
  '介绍了首付分期政策，客户需要和家人商量',
  '客户询问车位配比和物业费标准',
  '回访客户，暂未决定，约下周再联系',
  '客户希望有更高楼层的房源',
  '发送了样板间视频，客户反馈不错',
];

/** The stage each of the 60 customers has reached, in order; `pool` ones have no consultant. */
const PLAN: Array<{ stage: CrmStage; n: number; pool?: boolean }> = [
  { stage: 'report', n: 10 },
  { stage: 'valid', n: 11 },
  { stage: 'visit', n: 12 },
  { stage: 'pledge', n: 6 },
  { stage: 'subscribe', n: 5 },
  { stage: 'sign', n: 4 },
  { stage: 'invalid', n: 6 },
  { stage: 'report', n: 3, pool: true },
  { stage: 'valid', n: 3, pool: true },
];

const INVALID_REASONS = ['预算不足', '已在别处购房', '电话空号', '只是咨询，无购买意向', '重复报备', '家人不同意'];

type Seeded = { id: number; name: string; stage: CrmStage; consultant: Actor | null; created: number; hid: number | null };

/**
 * `days` before today at `hour` o'clock, never later than now, and never before that day began
 * (just after midnight "a minute ago" is yesterday: today's rows stay today's).
 */
const ago = (days: number, hour = 10) =>
  sql<Date>`greatest(date_trunc('day', now()) - ${sql.lit(`${days} days`)}::interval,
    least(now() - interval '1 minute', date_trunc('day', now()) - ${sql.lit(`${days} days`)}::interval + ${sql.lit(`${hour} hours`)}::interval))`;

/** The customers, their timelines, follow-ups, invitations and deposits of community `rid`. */
export async function seedCrmSales(db: Kysely<DB>, rid: number): Promise<void> {
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'name'])
    .where('username', 'in', ['sales', 'leasing', 'admin', 'cashier', 'finance'])
    .execute();
  const by = (u: string): Actor => {
    const a = accounts.find((x) => x.username === u);
    return a ? { accountId: Number(a.id), name: a.name } : { accountId: null, name: '系统' };
  };
  const team = [by('sales'), by('sales'), by('leasing'), by('admin')].filter((a) => a.accountId !== null);
  if (team.length === 0) return;
  // unsold units (no owner living there) of the farther buildings: the units customers want, where their deposits are billed
  const units = await db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .select('r.id')
    .where('r.rid', '=', rid)
    .where('b.title', 'not in', ['1号楼', '2号楼'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('room_members as rm')
            .select('rm.id')
            .whereRef('rm.rid', '=', 'r.rid')
            .whereRef('rm.hid', '=', 'r.id')
            .where('rm.relation', '=', 'owner')
            .where('rm.status', '=', 'Y'),
        ),
      ),
    )
    .orderBy('r.id', 'desc')
    .limit(40)
    .execute();

  const customers: Seeded[] = [];
  let n = 0;
  for (const part of PLAN) {
    for (let k = 0; k < part.n; k++, n++) {
      const name = `${SURNAMES[(n * 7) % SURNAMES.length]}${GIVEN[(n * 5 + 3) % GIVEN.length]}`;
      const consultant = part.pool ? null : team[n % team.length]!;
      const created = 3 + ((n * 11) % 55);
      const hid = units.length ? Number(units[n % units.length]!.id) : null;
      const row = await db
        .insertInto('crm_customers')
        .values({
          rid,
          name,
          gender: n % 3 === 0 ? 'F' : 'M',
          mobile: `1390123${String(1000 + n).padStart(4, '0')}`,
          phones: n % 6 === 0 ? [`021-5888${String(1000 + n)}`] : [],
          wechat: n % 4 === 0 ? `wx_${1000 + n}` : '',
          product: (['house', 'house', 'house', 'shop', 'parking', 'office'] as const)[n % 6]!,
          area_min: n % 6 < 3 ? String(80 + (n % 4) * 20) : null,
          area_max: n % 6 < 3 ? String(100 + (n % 4) * 20) : null,
          layout: n % 6 < 3 ? LAYOUTS[n % LAYOUTS.length]! : '',
          budget_min: String(100 + (n % 5) * 50),
          budget_max: String(150 + (n % 5) * 60),
          purpose: (['self', 'upgrade', 'invest', 'business', 'self', ''] as const)[n % 6]!,
          source: (['walkin', 'call', 'channel', 'referral', 'online', 'event'] as const)[n % 6]!,
          channel: n % 6 === 2 ? (['agency', 'broker', 'platform'] as const)[n % 3]! : n % 6 === 4 ? 'social' : '',
          grade: (['A', 'B', 'B', 'C', 'D'] as const)[n % 5]!,
          hid: n % 3 === 0 ? null : hid,
          tags: n % 5 === 0 ? ['学区'] : n % 7 === 0 ? ['首套', '刚需'] : [],
          remark: n % 8 === 0 ? '老业主介绍' : '',
          stage: part.stage,
          invalid_reason: part.stage === 'invalid' ? INVALID_REASONS[k % INVALID_REASONS.length]! : '',
          // an invalid one stopped where its timeline below says (the trigger keeps the others')
          furthest: part.stage === 'invalid' ? 1 + (n % 3) : 1,
          contract_no: part.stage === 'sign' ? `XS${today().slice(0, 4)}${String(100 + k)}` : '',
          consultant_id: consultant?.accountId ?? null,
          assigned_at: ago(created),
          visit_count: ['visit', 'pledge', 'subscribe', 'sign'].includes(part.stage) ? 1 + (n % 2) : 0,
          stage_at: ago(Math.max(1, created - 3)),
          created_at: ago(created),
          created_by: consultant?.accountId ?? team[0]!.accountId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      customers.push({ id: Number(row.id), name, stage: part.stage, consultant, created, hid });
    }
  }

  // each one's timeline: entered, then each stage reached in turn (or 无效 from where it stopped)
  for (const [i, c] of customers.entries()) {
    const actor = c.consultant ?? team[i % team.length]!;
    const path = c.stage === 'invalid' ? PIPELINE.slice(0, 1 + (i % 3)) : PIPELINE.slice(0, PIPELINE.indexOf(c.stage) + 1);
    const steps: Array<{ transition: string; from: string; to: string; input?: Record<string, unknown> }> = [
      { transition: 'create', from: '', to: 'report', input: { consultant: actor.name } },
    ];
    const names: Record<string, string> = { valid: 'valid', visit: 'visit', pledge: 'pledge', subscribe: 'subscribe', sign: 'signed' };
    for (let s = 1; s < path.length; s++) {
      const to = path[s]!;
      const input =
        to === 'subscribe'
          ? { remark: '认购 5 号楼一套三房，定金 5 万元' }
          : to === 'sign'
            ? { contract_no: `XS${today().slice(0, 4)}${String(100 + (i % 4))}` }
            : undefined;
      // a 认筹 customer's step comes from paying the deposit below; a dealt one's deposit became the down payment
      if (to === 'pledge' && c.stage === 'pledge') continue;
      steps.push({ transition: names[to]!, from: path[s - 1]!, to, input: to === 'pledge' ? { amount: '20000.00' } : input });
    }
    if (c.stage === 'invalid')
      steps.push({ transition: 'invalid', from: path.at(-1)!, to: 'invalid', input: { reason: INVALID_REASONS[i % 6] } });
    if (!c.consultant)
      steps.push({
        transition: 'release',
        from: c.stage,
        to: c.stage,
        input: { from_consultant: actor.name, consultant: '公海', reason: '客户长期未接电话' },
      });
    for (const [k, step] of steps.entries()) {
      await logCustomer(db, rid, c.id, step, actor);
      await sql`UPDATE workflow_logs SET created_at = ${ago(Math.max(0, c.created - k * 2))} WHERE rid = ${rid} AND id = (SELECT max(id) FROM workflow_logs WHERE rid = ${rid})`.execute(
        db,
      );
    }
  }

  // follow-ups: one to four each, the latest saying when to call next
  for (const [i, c] of customers.entries()) {
    const count = 1 + (i % 4);
    const author = c.consultant ?? team[i % team.length]!;
    for (let k = 0; k < count; k++) {
      const daysAgo = Math.max(0, c.created - 1 - k * Math.max(1, Math.floor(c.created / (count + 1))));
      const last = k === count - 1;
      // the latest follow-up decides: due today, overdue, soon, or long ago (about to fall into the pool, or taken back)
      const held = !!c.consultant && ['report', 'valid', 'visit', 'pledge'].includes(c.stage);
      // left unfollowed since: 13 days (about to fall into the pool) or 17 (taken back today)
      const since = held ? (i % 10 === 3 ? 13 : i === 7 || i === 17 ? 17 : 0) : 0;
      const at = since ? (last ? since : Math.max(daysAgo, since + 1)) : last && held ? Math.min(daysAgo, 9) : daysAgo;
      const next =
        !last || !c.consultant
          ? null
          : i % 5 === 0
            ? sql`current_date + time '15:00'`
            : i % 5 === 1
              ? sql`current_date - 2 + time '10:00'`
              : i % 5 === 2
                ? sql`current_date + 3 + time '10:30'`
                : null;
      await db
        .insertInto('crm_followups')
        .values({
          rid,
          customer_id: c.id,
          kind: (['phone', 'wechat', 'phone', 'sms', 'wechat'] as const)[(i + k) % 5]!,
          content: NOTES[(i * 3 + k) % NOTES.length]!,
          next_contact_at: next as never,
          operator: author.name,
          created_by: author.accountId,
          created_at: ago(at, 9 + k),
          updated_at: ago(at, 9 + k),
        })
        .execute();
    }
  }

  // invitations: the visits of those who came, one missed, one cancelled, and visits booked for the coming days
  for (const [i, c] of customers.entries()) {
    const consultant = c.consultant ?? team[i % team.length]!;
    const came = ['visit', 'pledge', 'subscribe', 'sign'].includes(c.stage);
    const base = { rid, customer_id: c.id, consultant_id: consultant.accountId!, created_by: consultant.accountId, visitors: 1 + (i % 3) };
    if (came)
      await db
        .insertInto('crm_invites')
        .values({
          ...base,
          invite_at: ago(Math.max(1, c.created - 3), 14),
          purpose: 'view',
          outcome: 'V',
          arrived_at: ago(Math.max(1, c.created - 3), 14),
          result: '看了样板间和 5 号楼实景，对三房比较满意',
        })
        .execute();
    if (c.stage === 'valid' && c.consultant && i % 3 !== 2)
      await db
        .insertInto('crm_invites')
        .values({
          ...base,
          invite_at: sql`current_date + ${sql.lit(1 + (i % 4))} + time '14:30'`,
          purpose: i % 2 ? 'view' : 'deposit',
          outcome: 'P',
        })
        .execute();
    if (c.stage === 'report' && i % 4 === 1)
      await db
        .insertInto('crm_invites')
        .values({ ...base, invite_at: ago(2, 15), purpose: 'view', outcome: 'M', result: '客户临时有事未到' })
        .execute();
    if (c.stage === 'invalid' && i % 2 === 0)
      await db
        .insertInto('crm_invites')
        .values({ ...base, invite_at: ago(5, 10), purpose: 'view', outcome: 'C', result: '客户取消看房' })
        .execute();
  }

  // the customers' last follow-up and next contact time are those of their latest follow-up
  await sql`
    UPDATE crm_customers c SET last_follow_at = l.created_at, last_follow_text = l.text, next_contact_at = l.next_contact_at
    FROM (SELECT DISTINCT ON (customer_id) customer_id, created_at, left(content, 100) AS text, next_contact_at
          FROM crm_followups WHERE rid = ${rid} ORDER BY customer_id, created_at DESC, id DESC) l
    WHERE c.rid = ${rid} AND c.id = l.customer_id`.execute(db);

  await seedDeposits(db, rid, customers, by);
  // the pool's run of today: the two left unfollowed go back, the consultants of those due soon are warned
  await reclaimCommunity(db, rid, await poolRules(db, rid), today());
}

/** The ctx of `who` (the demo's consultant, cashier or finance), inside the seed's transaction. */
const as = (db: Kysely<DB>, rid: number, who: Actor, roles: string[]): CommunityCtx =>
  seedCtxOf(db, rid, { id: who.accountId!, name: who.name }, roles);

/**
 * Deposits: the 认筹 customers' paid at the cashier (one refund waiting for finance), two waiting at
 * the cashier, one refunded (the customer back at 来访) and one cancelled. Each on its own unit
 * (the bills' key is one bill of an item a room and month).
 */
async function seedDeposits(db: Kysely<DB>, rid: number, customers: Seeded[], by: (u: string) => Actor): Promise<void> {
  const cashier = by('cashier');
  const finance = by('finance');
  const free = await db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .select(['r.id', 'r.bid', 'r.tid', 'r.rid', 'r.address'])
    .where('r.rid', '=', rid)
    .where('b.title', 'in', ['4号楼', '5号楼'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('room_members as rm')
            .select('rm.id')
            .whereRef('rm.rid', '=', 'r.rid')
            .whereRef('rm.hid', '=', 'r.id')
            .where('rm.relation', '=', 'owner')
            .where('rm.status', '=', 'Y'),
        ),
      ),
    )
    .orderBy('r.id')
    .limit(12)
    .execute();
  if (cashier.accountId === null || finance.accountId === null) return;
  const byCashier = as(db, rid, cashier, ['cashier', 'fees', 'payment', 'refund']);
  let room = 0;
  const deposit = async (c: Seeded, amount: string) => {
    const unit = free[room++];
    if (!unit || !c.consultant) return null;
    // the deposit is registered while the customer stood before 认筹: paying it moves them there
    const registered = c.stage === 'pledge' ? 'visit' : c.stage;
    await db.updateTable('crm_customers').set({ stage: registered }).where('rid', '=', rid).where('id', '=', c.id).execute();
    const made = await runAs(as(db, rid, c.consultant, ['crm']), 'intentionadd', {
      customer_id: c.id,
      amount,
      hid: Number(unit.id),
      remark: '',
    });
    const intention = await db
      .selectFrom('crm_intentions')
      .select(['id', 'bill_id'])
      .where('rid', '=', rid)
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    return { unit, intention: { id: Number(intention.id), bill_id: Number(intention.bill_id) }, consultant: c.consultant };
  };
  const pay = async (d: NonNullable<Awaited<ReturnType<typeof deposit>>>, c: Seeded, key: string) =>
    payBills(byCashier, await house(byCashier, Number(d.unit.id)), {
      billIds: [d.intention.bill_id],
      payType: key.endsWith('1') ? 'wechat' : 'cash',
      useBalance: false,
      discount: '0',
      idempotencyKey: `seed-crm-${key}`,
      remark: '认筹金',
      payerName: c.name,
    });

  const pledged = customers.filter((c) => c.stage === 'pledge');
  for (const [i, c] of pledged.entries()) {
    const d = await deposit(c, i % 2 ? '20000.00' : '50000.00');
    if (!d) continue;
    await pay(d, c, `pledge-${i}`);
    // the last one's customer asks for the money back: the request waits for finance
    if (i === pledged.length - 1)
      await runAs(as(db, rid, d.consultant, ['crm']), 'intentionrefund', {
        id: d.intention.id,
        reason: '客户资金周转困难，申请退还认筹金',
      });
  }
  const visiting = customers.filter((c) => c.stage === 'visit' && c.consultant);
  // two deposits waiting at the cashier
  for (const c of visiting.slice(0, 2)) await deposit(c, '20000.00');
  // one paid and refunded: finance approved it, the customer is back at 来访
  const back = visiting[2];
  if (back) {
    const d = await deposit(back, '10000.00');
    if (d) {
      await pay(d, back, 'refunded');
      await runAs(as(db, rid, d.consultant, ['crm']), 'intentionrefund', {
        id: d.intention.id,
        reason: '客户改买其他楼盘',
      });
      const refund = await db
        .selectFrom('crm_intentions')
        .select('refund_id')
        .where('rid', '=', rid)
        .where('id', '=', d.intention.id)
        .executeTakeFirstOrThrow();
      await runAs(as(db, rid, finance, ['financecount']), 'refundapprove', {
        id: Number(refund.refund_id),
        approve: true,
        remark: '同意，原路退回',
      });
    }
  }
  // one registered and cancelled before it was paid
  const gone = visiting[3];
  if (gone) {
    const d = await deposit(gone, '20000.00');
    if (d)
      await runAs(as(db, rid, d.consultant, ['crm']), 'intentioncancel', {
        id: d.intention.id,
        reason: '客户暂不认筹',
      });
  }
}
