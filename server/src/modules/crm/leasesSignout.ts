/**
 * A lease's check-out (退租 /crm/signout; docs/product.md#crm-leases): one settlement, previewed
 * (`signoutpreview`) and confirmed (`signout`) from the same plan. Up to the check-out day every
 * period is owed: what was billed and not paid stays for the cashier, what was not billed yet is
 * billed now, the period holding the day pro rata (an overstay after the end at the last rent);
 * after it nothing is owed: unpaid bills are deleted, paid ones refunded for those days. Damages and
 * penalties are billed; the deposit is refunded but for what is kept, through the fees area's refund
 * flow (nothing when it was not paid). The lease ends and its tenant moves out of every room (which
 * revokes their door access), all in the call's one transaction.
 */
import {
  addDays,
  enumText,
  fenToYuan,
  LEASE_BILL_KIND,
  LEASE_ROLES,
  LEASE_STATUS,
  leaseFlow,
  leaseRangeAmounts,
  leaseSchedule,
  SIGNOUT_KIND,
  toFen,
  type LeaseSettlement,
  type SettlementBill,
  type SettlementLine,
  type SettlementRefund,
} from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { applyRefund } from '../fees/refunds.js';
import { moveOutLink } from '../owners/members.js';
import { insertLeaseBill, leaseItemTitle } from './leasesBilling.js';
import { leaseAuditBacklog, leaseExpiringBacklog, leaseRooms, lockLease, money2, termsOf, type LeaseTableRow } from './leasesCore.js';

type Input = HandlerInput<'signout'>;
type BillKind = 'rent' | 'charge' | 'deposit' | 'damage' | 'penalty';

interface NewBill {
  seq: number;
  kind: BillKind;
  name: string;
  start: string;
  end: string;
  fee: string;
  due: string;
}

interface Plan {
  settlement: Omit<LeaseSettlement, 'refund_ids' | 'operator' | 'create_time'>;
  deletes: number[];
  creates: NewBill[];
  refunds: Map<number, { bill_ids: number[]; fen: bigint }>;
}

/** The lease's bills with their payments (the receipt, whether its line was refunded). */
function leaseBillsOf(db: Kysely<DB>, rid: number, leaseId: number) {
  return db
    .selectFrom('lease_bills as lb')
    .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'lb.rid').onRef('b.id', '=', 'lb.bill_id'))
    .leftJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'b.rid').onRef('p.id', '=', 'b.payment_id'))
    .select([
      'lb.seq',
      'lb.kind',
      'lb.name',
      'b.id',
      'b.title',
      'b.period',
      'b.daterange',
      'b.fee',
      'b.due_date',
      'b.status',
      'b.payment_id',
      'p.receipt_no',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('fee_payment_items as pi')
            .select('pi.id')
            .whereRef('pi.rid', '=', 'b.rid')
            .whereRef('pi.bill_id', '=', 'b.id')
            .whereRef('pi.payment_id', '=', 'b.payment_id')
            .where('pi.refunded', '=', 'Y'),
        )
        .as('refunded'),
    )
    .where('lb.rid', '=', rid)
    .where('lb.lease_id', '=', leaseId)
    .orderBy('b.id');
}
type BillRow = Awaited<ReturnType<ReturnType<typeof leaseBillsOf>['execute']>>[number];

const asBill = (b: BillRow): SettlementBill => ({
  bill_id: Number(b.id),
  title: b.title,
  period: b.period,
  daterange: b.daterange,
  fee: money2(b.fee),
  due_date: b.due_date,
});

const kindLabel = (kind: BillKind, name: string) => (kind === 'charge' ? name : enumText(LEASE_BILL_KIND, kind));

/** The refusals of a check-out's request, each saying why. */
async function refuse(ctx: CommunityCtx, l: LeaseTableRow, input: Input) {
  if (l.status === 'F') fail('该租约已退租');
  if (l.status === 'R') fail('该租约已续租，请对续租后的租约办理退租');
  if (!(['Y', 'X', 'O'] as string[]).includes(l.status)) fail(`该租约${enumText(LEASE_STATUS, l.status)}，不能退租`);
  const renewal = await ctx.db
    .selectFrom('leases')
    .select('lease_no')
    .where('rid', '=', ctx.rid)
    .where('renew_of', '=', l.id)
    .where('status', '<>', 'C')
    .executeTakeFirst();
  if (renewal) fail(`该租约已有续租租约 ${renewal.lease_no}，请先将其作废再办理退租`);
  if (input.date < l.start_date) fail(`退租日期不能早于租约开始日期 ${l.start_date}`);
  if (input.kind === 'N' && input.date !== l.end_date) fail(`正常退租的退租日期应为租约到期日 ${l.end_date}，否则请选择提前或逾期退租`);
  if (input.kind === 'E' && input.date >= l.end_date) fail(`提前退租的退租日期应早于租约到期日 ${l.end_date}`);
  if (input.kind === 'O' && input.date <= l.end_date) fail(`逾期退租的退租日期应晚于租约到期日 ${l.end_date}`);
  if (toFen(input.deposit_kept) > 0n && !input.kept_reason) fail('请填写扣留押金的原因');
}

/** What the check-out does, worked out before anything is written (the preview shows it as it is). */
async function planSignout(ctx: CommunityCtx, l: LeaseTableRow, input: Input): Promise<Plan> {
  await refuse(ctx, l, input);
  const rooms = await leaseRooms(ctx.db, ctx.rid, Number(l.id));
  const terms = termsOf(l);
  const schedule = leaseSchedule(terms);
  const bills = await leaseBillsOf(ctx.db, ctx.rid, Number(l.id)).execute();
  const billOf = (seq: number, kind: string, name: string) => bills.find((b) => b.seq === seq && b.kind === kind && b.name === name);
  const paidLive = (b: BillRow) => b.status === 'Y' && !b.refunded;
  const cut = input.date < l.end_date ? input.date : l.end_date;

  const unpaid: SettlementBill[] = [];
  const cancelled: SettlementBill[] = [];
  const prepaid: SettlementRefund[] = [];
  const creates: NewBill[] = [];
  const refunds = new Map<number, { bill_ids: number[]; fen: bigint }>();
  const refund = (b: BillRow, fen: bigint) => {
    if (fen <= 0n) return;
    prepaid.push({ bill_id: Number(b.id), title: b.title, receipt_no: b.receipt_no ?? '', paid: money2(b.fee), refund: fenToYuan(fen) });
    const g = refunds.get(Number(b.payment_id)) ?? { bill_ids: [], fen: 0n };
    g.bill_ids.push(Number(b.id));
    g.fen += fen;
    refunds.set(Number(b.payment_id), g);
  };

  for (const p of schedule.periods) {
    const own = p.start <= cut && cut < p.end ? leaseRangeAmounts(terms, p.start, cut) : null;
    const lines = [
      { kind: 'rent' as const, name: '', full: p.rent, part: own?.rent },
      ...p.charges.map((c, i) => ({ kind: 'charge' as const, name: c.name, full: c.amount, part: own?.charges[i]!.amount })),
    ];
    for (const x of lines) {
      const b = billOf(p.seq, x.kind, x.name);
      if (p.start > cut) {
        // after the check-out: nothing owed
        if (b && b.status !== 'Y') cancelled.push(asBill(b));
        else if (b && paidLive(b)) refund(b, toFen(b.fee));
        continue;
      }
      const owed = x.part ?? x.full;
      const end = x.part === undefined ? p.end : cut;
      if (!b) {
        if (toFen(owed) > 0n) creates.push({ seq: p.seq, kind: x.kind, name: x.name, start: p.start, end, fee: owed, due: p.due_date });
      } else if (x.part === undefined) {
        if (b.status !== 'Y') unpaid.push(asBill(b));
      } else if (b.status !== 'Y') {
        // the period's bill gives way to one for its days up to the check-out
        cancelled.push(asBill(b));
        if (toFen(owed) > 0n) creates.push({ seq: p.seq, kind: x.kind, name: x.name, start: p.start, end, fee: owed, due: p.due_date });
      } else if (paidLive(b)) refund(b, toFen(b.fee) - toFen(owed));
    }
  }
  if (input.date > l.end_date) {
    // an overstay: the days after the end at the last rent, as one more period
    const from = addDays(l.end_date, 1);
    const extra = leaseRangeAmounts(terms, from, input.date);
    const seq = schedule.periods.length + 1;
    const lines = [
      { kind: 'rent' as const, name: '', fee: extra.rent },
      ...extra.charges.map((c) => ({ kind: 'charge' as const, name: c.name, fee: c.amount })),
    ];
    for (const x of lines)
      if (toFen(x.fee) > 0n) creates.push({ seq, kind: x.kind, name: x.name, start: from, end: input.date, fee: x.fee, due: from });
  }
  const sum = (lines: Array<{ amount: string }>) => lines.reduce((s, x) => s + toFen(x.amount), 0n);
  const damages = input.damages.map((d): SettlementLine => ({
    kind: 'damage',
    kind_ch: '损坏赔偿',
    title: d.name,
    daterange: '',
    amount: d.amount,
  }));
  const penalties = input.penalties.map((d): SettlementLine => ({
    kind: 'penalty',
    kind_ch: '违约金',
    title: d.name,
    daterange: '',
    amount: d.amount,
  }));
  for (const [kind, list] of [
    ['damage', damages],
    ['penalty', penalties],
  ] as const) {
    if (list.length)
      creates.push({ seq: 0, kind, name: '', start: input.date, end: input.date, fee: fenToYuan(sum(list)), due: input.date });
  }

  // the deposit: refunded but for what is kept, when it was paid
  const dep =
    bills.find((b) => l.deposit_bill_id !== null && Number(b.id) === Number(l.deposit_bill_id)) ??
    (l.deposit_bill_id === null ? undefined : await depositBill(ctx.db, ctx.rid, Number(l.deposit_bill_id)));
  const kept = toFen(input.deposit_kept);
  const paid = !!dep && paidLive(dep);
  if (!paid && kept > 0n) fail('押金未缴，不能扣留');
  if (dep && paid && kept > toFen(dep.fee)) fail(`扣留押金不能超过已缴押金 ${money2(dep.fee)} 元`);
  const depositRefund = paid ? toFen(dep.fee) - kept : 0n;
  if (dep && dep.status !== 'Y') cancelled.push(asBill(dep));
  if (dep && depositRefund > 0n) {
    const g = refunds.get(Number(dep.payment_id)) ?? { bill_ids: [], fen: 0n };
    g.bill_ids.push(Number(dep.id));
    g.fen += depositRefund;
    refunds.set(Number(dep.payment_id), g);
  }

  const last = creates
    .filter((c) => c.seq > 0)
    .map((c): SettlementLine => ({
      kind: c.kind,
      kind_ch: enumText(LEASE_BILL_KIND, c.kind),
      title: kindLabel(c.kind, c.name),
      daterange: `${c.start} ~ ${c.end}`,
      amount: c.fee,
    }));
  const owed = unpaid.reduce((s, b) => s + toFen(b.fee), 0n) + sum(last) + sum(damages) + sum(penalties);
  const back = prepaid.reduce((s, r) => s + toFen(r.refund), 0n) + depositRefund;
  return {
    deletes: cancelled.map((b) => b.bill_id),
    creates,
    refunds,
    settlement: {
      lease_id: Number(l.id),
      lease_no: l.lease_no,
      tenant_name: l.tenant_name,
      address: rooms.map((r) => r.address).join('、'),
      kind: input.kind,
      kind_ch: enumText(SIGNOUT_KIND, input.kind),
      date: input.date,
      reason: input.reason,
      readings: input.readings,
      unpaid,
      last,
      cancelled,
      prepaid,
      damages,
      penalties,
      deposit: {
        amount: dep ? money2(dep.fee) : money2(l.deposit),
        paid,
        receipt_no: paid ? (dep.receipt_no ?? '') : '',
        kept: fenToYuan(paid ? kept : 0n),
        kept_reason: input.kept_reason,
        refund: fenToYuan(depositRefund),
      },
      sums: { owed: fenToYuan(owed), refund: fenToYuan(back), net: fenToYuan(owed - back) },
    },
  };
}

/** A renewal's deposit bill belongs to the lease it renewed. */
async function depositBill(db: Kysely<DB>, rid: number, billId: number): Promise<BillRow | undefined> {
  const row = await db.selectFrom('lease_bills').select('lease_id').where('rid', '=', rid).where('bill_id', '=', billId).executeTakeFirst();
  if (!row) return undefined;
  return (await leaseBillsOf(db, rid, Number(row.lease_id)).execute()).find((b) => Number(b.id) === billId);
}

const signoutpreview = defineMethod('signoutpreview', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: false,
  summary:
    '退租结算预览：截至退租日未缴的账单、按天计的最后几天（或逾期天数）、退租日后作废的未缴账单与退还的已缴部分、损坏赔偿、违约金、押金扣留与退还，以及应收、应退和净额',
  async handler(ctx, input) {
    const l = await ctx.db.selectFrom('leases').selectAll().where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (!l) fail('租约不存在');
    const plan = await planSignout(ctx, l, input);
    return { ...plan.settlement, refund_ids: [], operator: ctx.session.name, create_time: '' };
  },
});

const signout = defineMethod('signout', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary:
    '确认退租（一个事务）：出最后的账单（按天计的租金和其他费用、损坏赔偿、违约金），删除退租日后未缴的账单，已缴部分和押金（扣除扣留部分）申请退款，租约结束，租户从各房屋迁出（门禁权限随之注销）',
  async handler(ctx, input) {
    const l = await lockLease(ctx, input.id);
    // the bills locked before the plan reads them: a payment at the cashier meanwhile waits, or is seen
    await ctx.db
      .selectFrom('fee_bills')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', 'in', ctx.db.selectFrom('lease_bills').select('bill_id').where('rid', '=', ctx.rid).where('lease_id', '=', input.id))
      .orderBy('id')
      .forUpdate()
      .execute();
    const plan = await planSignout(ctx, l, input);
    const [first] = await leaseRooms(ctx.db, ctx.rid, input.id);
    if (plan.deletes.length) {
      await ctx.db.deleteFrom('lease_bills').where('rid', '=', ctx.rid).where('bill_id', 'in', plan.deletes).execute();
      await ctx.db
        .updateTable('leases')
        .set({ deposit_bill_id: null })
        .where('rid', '=', ctx.rid)
        .where('deposit_bill_id', 'in', plan.deletes)
        .execute();
      await ctx.db.deleteFrom('fee_bill_adjustments').where('rid', '=', ctx.rid).where('bill_id', 'in', plan.deletes).execute();
      await ctx.db.deleteFrom('fee_bills').where('rid', '=', ctx.rid).where('id', 'in', plan.deletes).where('status', '<>', 'Y').execute();
    }
    for (const c of plan.creates) {
      const id = await insertLeaseBill(ctx.db, ctx.rid, {
        leaseId: input.id,
        leaseNo: l.lease_no,
        hid: Number(first!.hid),
        seq: c.seq,
        kind: c.kind,
        name: c.name,
        start: c.start,
        end: c.end,
        fee: c.fee,
        due: c.due,
        by: ctx.session.accountId,
      });
      if (id === null)
        fail(`房屋 ${first!.address} 在 ${c.start.slice(0, 7)} 已有「${leaseItemTitle(c.kind, c.name)}」账单，请先处理该账单`);
    }
    const refundIds: number[] = [];
    for (const [paymentId, g] of plan.refunds) {
      const r = await applyRefund(ctx, { payment_id: paymentId, bill_ids: g.bill_ids, reason: `租约 ${l.lease_no} 退租结算退款` }, g.fen);
      refundIds.push(r.id);
    }
    await ctx.db
      .updateTable('leases')
      .set({ status: 'F', ended_on: input.date, deposit_kept: plan.settlement.deposit.kept, next_bill_date: null })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    const settlement: LeaseSettlement = {
      ...plan.settlement,
      refund_ids: refundIds,
      operator: ctx.session.name,
      create_time: wireTime(new Date()),
    };
    await ctx.db
      .insertInto('lease_signouts')
      .values({
        rid: ctx.rid,
        lease_id: input.id,
        kind: input.kind,
        signout_date: input.date,
        deposit_kept: settlement.deposit.kept,
        deposit_refund: settlement.deposit.refund,
        settlement: JSON.stringify(settlement),
        refund_ids: refundIds,
        operator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .execute();
    await writeFlowLog(ctx, leaseFlow.def, input.id, {
      transition: 'signout',
      from: l.status,
      to: 'F',
      input: { kind: settlement.kind_ch, date: input.date, reason: input.reason },
    });
    // the tenant leaves every room of the lease on the day (their door access revoked with it)
    if (l.member_id !== null) {
      const links = await ctx.db
        .selectFrom('room_members')
        .select(['id', 'hid', 'member_id', 'move_in_date'])
        .where('rid', '=', ctx.rid)
        .where('member_id', '=', l.member_id)
        .where('relation', '=', 'tenant')
        .where('status', '=', 'Y')
        .where('hid', 'in', ctx.db.selectFrom('lease_rooms').select('hid').where('rid', '=', ctx.rid).where('lease_id', '=', input.id))
        .execute();
      for (const link of links) await moveOutLink(ctx, link, input.date);
    }
    await leaseExpiringBacklog.settle(ctx.db, ctx.rid, input.id, ctx.session.accountId);
    await leaseAuditBacklog.settle(ctx.db, ctx.rid, input.id, ctx.session.accountId);
    const net = toFen(settlement.sums.net);
    const words = net > 0n ? `租户还应缴 ${fenToYuan(net)} 元` : net < 0n ? `应退租户 ${fenToYuan(-net)} 元（已提交退款申请）` : '收支两清';
    return reply(settlement, `退租完成，${words}`);
  },
});

export const leaseSignoutMethods = [signoutpreview, signout];
