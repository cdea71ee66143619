/**
 * A lease's money and its clock (docs/product.md#crm-leases): the activation of an approved lease
 * (its tenant registered on the rooms through the owners area, its deposit billed, what is due
 * billed), the bills of the schedule's periods as their billing days come (the daily job
 * `lease_bills`, or `leasebillrun` with a simulated day), and the statuses that follow the end date
 * (the daily job `lease_expiring`, or `leaseexpirerun`). Bills are the fees area's own
 * (`ensureOwnItem`, `insertOwnBill`): the cashier, the drawer, the reports and the invoices take
 * them as any other; `lease_bills` keeps which period each one is, so none is made twice.
 */
import {
  addDays,
  daysBetween,
  enumText,
  LEASE_ROLES,
  LEASE_STATUS,
  leaseFlow,
  leaseSchedule,
  toFen,
  type LeaseStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type Session } from '../../http/registry.js';
import { registerDailyJob, registerJobKind, type JobContext } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { registerRefundCloser } from '../fees/billPaid.js';
import { ensureOwnItem, insertOwnBill, type OwnItem } from '../fees/ownBills.js';
import { linkRooms } from '../owners/members.js';
import { notify } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';
import {
  leaseExpiringBacklog,
  leaseLink,
  leaseRooms,
  leaseSettingsOf,
  liveStatusOn,
  lockedRooms,
  money2,
  refuseOverlap,
  termsOf,
  type LeaseTableRow,
} from './leasesCore.js';

/* ---------- the items bills are made under ---------- */

/**
 * Rent, charges, damages and penalties: the cost type titled 租赁收入, or else the built-in one coded
 * rent (租金, invoiced as 不动产经营租赁服务); the deposit: the built-in 押金 (never invoiced).
 */
const LEASE_COST = { code: 'rent', title: '租赁收入', sort: 6 };
const DEPOSIT_COST = { code: 'deposit', title: '押金', sort: 7 };
const REMARK = '租赁合同自动生成';

/** The item of a bill kind: 租金, 租赁押金, a charge's own (物业费（租赁）), 租赁损坏赔偿, 租赁违约金. */
export function leaseItemTitle(kind: 'rent' | 'charge' | 'deposit' | 'damage' | 'penalty', name = ''): string {
  switch (kind) {
    case 'rent':
      return '租金';
    case 'deposit':
      return '租赁押金';
    case 'damage':
      return '租赁损坏赔偿';
    case 'penalty':
      return '租赁违约金';
    default:
      // a charge's own item, apart from the community's regular 物业费 bound to every room
      return `${name}（租赁）`;
  }
}

export const leaseItem = (db: Kysely<DB>, rid: number, kind: Parameters<typeof leaseItemTitle>[0], name = ''): Promise<OwnItem> =>
  ensureOwnItem(db, rid, { cost: kind === 'deposit' ? DEPOSIT_COST : LEASE_COST, title: leaseItemTitle(kind, name), remark: REMARK });

/** Writes a lease's bill on its first room and notes it in lease_bills; null when the room's key (item, month) is taken. */
export async function insertLeaseBill(
  db: Kysely<DB>,
  rid: number,
  b: {
    leaseId: number;
    leaseNo: string;
    hid: number;
    seq: number;
    kind: Parameters<typeof leaseItemTitle>[0];
    name?: string;
    start: string;
    end: string;
    fee: string;
    due: string;
    by: number | null;
  },
): Promise<number | null> {
  const item = await leaseItem(db, rid, b.kind, b.name);
  const label = b.kind === 'charge' ? b.name! : leaseItemTitle(b.kind);
  const billId = await insertOwnBill(db, rid, {
    hid: b.hid,
    item,
    title: `${label}（${b.leaseNo}）`,
    period: b.start.slice(0, 7),
    daterange: `${b.start} ~ ${b.end}`,
    fee: b.fee,
    due_date: b.due,
    source: 'lease',
  });
  if (billId === null) return null;
  await db
    .insertInto('lease_bills')
    .values({ rid, lease_id: b.leaseId, seq: b.seq, kind: b.kind, name: b.name ?? '', bill_id: billId, created_by: b.by })
    .execute();
  return billId;
}

/* ---------- the schedule's bills ---------- */

/**
 * The first bill of the lease's schedule whose key (first room, item, month) another bill holds:
 * a bill of another lease of the room, or one made by hand. Refused at submission and approval,
 * so a period is never left unbilled by the job.
 */
export async function billKeyClash(db: Kysely<DB>, rid: number, l: LeaseTableRow): Promise<void> {
  const [room] = await leaseRooms(db, rid, Number(l.id));
  if (!room) return;
  const s = leaseSchedule(termsOf(l));
  const keys: Array<{ title: string; period: string }> = [];
  for (const p of s.periods) {
    const month = p.start.slice(0, 7);
    if (toFen(p.rent) > 0n) keys.push({ title: leaseItemTitle('rent'), period: month });
    for (const c of p.charges) if (toFen(c.amount) > 0n) keys.push({ title: leaseItemTitle('charge', c.name), period: month });
  }
  if (toFen(l.deposit) > 0n && l.deposit_bill_id === null)
    keys.push({ title: leaseItemTitle('deposit'), period: l.start_date.slice(0, 7) });
  if (keys.length === 0) return;
  const clash = await db
    .selectFrom('fee_bills as b')
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .leftJoin('lease_bills as lb', (j) => j.onRef('lb.rid', '=', 'b.rid').onRef('lb.bill_id', '=', 'b.id'))
    .leftJoin('leases as o', (j) => j.onRef('o.rid', '=', 'lb.rid').onRef('o.id', '=', 'lb.lease_id'))
    .select(['i.title', 'b.period', 'o.lease_no'])
    .where('b.rid', '=', rid)
    .where('b.hid', '=', Number(room.hid))
    .where('b.space_id', '=', 0)
    .where('b.car_id', '=', 0)
    .where(
      sql<boolean>`(i.title, b.period) IN (SELECT * FROM json_to_recordset(${JSON.stringify(keys)}::json) AS k(title text, period text))`,
    )
    .where((eb) => eb.or([eb('lb.lease_id', 'is', null), eb('lb.lease_id', '<>', Number(l.id))]))
    .orderBy('b.period')
    .executeTakeFirst();
  if (clash) {
    const owner = clash.lease_no ? `租约 ${clash.lease_no} 的` : '';
    fail(
      `房屋 ${room.address} 在 ${clash.period} 已有${owner}「${clash.title}」账单，本租约同月的账单无法出账；请把租期调整到下月开始，或先处理该账单`,
    );
  }
}

/**
 * Bills every period of a lease in force whose billing day has come by `asOf` (rent and each
 * charge, each its own bill on the first room), skipping what lease_bills already holds; keeps the
 * next billing day on the lease. Answers how many bills it made.
 */
export async function billLease(db: Kysely<DB>, rid: number, leaseId: number, asOf: string, by: number | null): Promise<number> {
  const l = await db.selectFrom('leases').selectAll().where('rid', '=', rid).where('id', '=', leaseId).forUpdate().executeTakeFirst();
  if (!l || !(['Y', 'X', 'O', 'R'] as string[]).includes(l.status)) return 0;
  const [room] = await leaseRooms(db, rid, leaseId);
  if (!room) return 0;
  const made = new Set(
    (
      await db.selectFrom('lease_bills').select(['seq', 'kind', 'name']).where('rid', '=', rid).where('lease_id', '=', leaseId).execute()
    ).map((b) => `${b.seq}|${b.kind}|${b.name}`),
  );
  let count = 0;
  let next: string | null = null;
  for (const p of leaseSchedule(termsOf(l)).periods) {
    const lines = [
      { kind: 'rent' as const, name: '', amount: p.rent },
      ...p.charges.map((c) => ({ kind: 'charge' as const, name: c.name, amount: c.amount })),
    ].filter((x) => toFen(x.amount) > 0n && !made.has(`${p.seq}|${x.kind}|${x.name}`));
    if (lines.length === 0) continue;
    if (p.bill_date > asOf) {
      next ??= p.bill_date;
      continue;
    }
    for (const x of lines) {
      const id = await insertLeaseBill(db, rid, {
        leaseId,
        leaseNo: l.lease_no,
        hid: Number(room.hid),
        seq: p.seq,
        kind: x.kind,
        name: x.name,
        start: p.start,
        end: p.end,
        fee: x.amount,
        due: p.due_date,
        by,
      });
      if (id === null)
        fail(
          `房屋 ${room.address} 在 ${p.start.slice(0, 7)} 已有「${leaseItemTitle(x.kind, x.name)}」账单，租约 ${l.lease_no} 第 ${p.seq} 期无法出账`,
        );
      count++;
    }
  }
  await db.updateTable('leases').set({ next_bill_date: next }).where('rid', '=', rid).where('id', '=', leaseId).execute();
  return count;
}

/**
 * Bills every lease of the community due by `asOf`: in the caller's transaction (the method: a
 * refusal refuses the run), or each lease in its own (the job: a lease refused, its month taken by a
 * bill made by hand, leaves the others billed and is logged).
 */
async function billCommunity(db: Kysely<DB>, rid: number, asOf: string, by: number | null, job?: JobContext) {
  const due = await db
    .selectFrom('leases')
    .select('id')
    .where('rid', '=', rid)
    .where('status', 'in', ['Y', 'X', 'O', 'R'])
    .where('next_bill_date', '<=', asOf)
    .orderBy('id')
    .execute();
  let bills = 0;
  for (const { id } of due) {
    if (!job) {
      bills += await billLease(db, rid, Number(id), asOf, by);
      continue;
    }
    try {
      bills += await db.transaction().execute((trx) => billLease(trx, rid, Number(id), asOf, by));
    } catch (err) {
      job.log.warn({ err, rid, lease: Number(id) }, 'lease bills: a lease could not be billed');
    }
  }
  return { leases: due.length, bills };
}

export const LEASE_BILLS_JOB = 'lease_bills';
registerJobKind(LEASE_BILLS_JOB, async (ctx) => {
  const day = today();
  const rids = await ctx.db.selectFrom('leases').select('rid').distinct().where('next_bill_date', '<=', day).execute();
  let bills = 0;
  for (const { rid } of rids) bills += (await billCommunity(ctx.db, rid, day, null, ctx)).bills;
  return { bills };
});
registerDailyJob(LEASE_BILLS_JOB, {});

const leasebillrun = defineMethod('leasebillrun', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '按指定日期出账（模拟时钟，仅管理员）：生效租约中出账日已到的各期租金和其他费用生成账单，已出的不再重复',
  async handler(ctx, input) {
    const r = await billCommunity(ctx.db, ctx.rid, input.as_of, ctx.session.accountId);
    return reply(r, `已出账 ${r.bills} 张（${r.leases} 份租约）`);
  },
});

/* ---------- activation ---------- */

/** The resident who becomes the rooms' tenant: the one picked, or the one with the mobile, or a new one. */
async function tenantMember(ctx: CommunityCtx, l: LeaseTableRow): Promise<number> {
  if (l.member_id !== null) {
    const m = await ctx.db.selectFrom('members').select('id').where('rid', '=', ctx.rid).where('id', '=', l.member_id).executeTakeFirst();
    if (m) return Number(m.id);
  }
  const byMobile = await ctx.db
    .selectFrom('members')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('mobile', '=', l.mobile)
    .executeTakeFirst();
  if (byMobile) return Number(byMobile.id);
  const { id } = await ctx.db
    .insertInto('members')
    .values({
      rid: ctx.rid,
      realname: l.tenant_name.slice(0, 30),
      mobile: l.mobile,
      // a company's credit code is not an ID number
      id_card: l.tenant_kind === 'P' ? l.id_card : '',
      remark:
        l.tenant_kind === 'C' ? `企业租户${l.contact ? `，联系人 ${l.contact}` : ''}（租约 ${l.lease_no}）` : `租户（租约 ${l.lease_no}）`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/**
 * Puts an approved lease in force, in the approval's transaction: the rooms checked again, the
 * tenant registered on each room as its tenant (the owners area's linkRooms), the deposit billed,
 * the status set by the end date, the old lease of a renewal marked 已续租, and what is due billed.
 */
export async function activateLease(ctx: CommunityCtx, l: LeaseTableRow, day = today()): Promise<void> {
  if (l.status === 'C') fail('该租约已作废');
  const rooms = await leaseRooms(ctx.db, ctx.rid, Number(l.id));
  const hids = rooms.map((r) => Number(r.hid));
  await lockedRooms(ctx, hids);
  await refuseOverlap(ctx, hids, l.start_date, l.end_date, Number(l.id));
  await billKeyClash(ctx.db, ctx.rid, l);
  const memberId = await tenantMember(ctx, l);
  // an owner or a family member of a room cannot be its tenant too (linkRooms would change their relation)
  const other = await ctx.db
    .selectFrom('room_members as rm')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['r.address', 'm.realname', 'rm.relation'])
    .where('rm.rid', '=', ctx.rid)
    .where('rm.member_id', '=', memberId)
    .where('rm.hid', 'in', hids)
    .where('rm.status', '=', 'Y')
    .where('rm.relation', '<>', 'tenant')
    .executeTakeFirst();
  if (other) fail(`${other.realname} 已是房屋 ${other.address} 的${other.relation === 'owner' ? '业主' : '家属'}，不能作为该房屋的租户`);
  // a renewal's tenant lives there already: their move-in day stays the first lease's
  await linkRooms(
    ctx,
    memberId,
    hids.map((hid) => ({ hid, relation: 'tenant' as const, move_in_date: l.renew_of === null ? l.start_date : undefined })),
  );
  const settings = await leaseSettingsOf(ctx.db, ctx.rid);
  const status = liveStatusOn(l.end_date, day, settings.expiring_days);
  let depositBill = l.deposit_bill_id;
  if (toFen(l.deposit) > 0n && depositBill === null) {
    depositBill = await insertLeaseBill(ctx.db, ctx.rid, {
      leaseId: Number(l.id),
      leaseNo: l.lease_no,
      hid: hids[0]!,
      seq: 0,
      kind: 'deposit',
      start: l.start_date,
      end: l.end_date,
      fee: money2(l.deposit),
      due: l.start_date < day ? day : l.start_date,
      by: ctx.session.accountId,
    });
    if (depositBill === null) fail(`房屋 ${rooms[0]!.address} 在 ${l.start_date.slice(0, 7)} 已有「租赁押金」账单，请先处理该账单`);
  }
  // approval and status in one statement: the table keeps them in step
  await ctx.db
    .updateTable('leases')
    .set({ approval_status: 'Y', status, member_id: memberId, deposit_bill_id: depositBill, next_bill_date: l.start_date })
    .where('rid', '=', ctx.rid)
    .where('id', '=', l.id)
    .execute();
  await writeFlowLog(ctx, leaseFlow.def, Number(l.id), { transition: 'activate', from: 'D', to: status });
  if (status === 'X') await raiseExpiring(ctx.db, ctx.rid, l, day);
  if (l.renew_of !== null) {
    const old = await ctx.db
      .selectFrom('leases')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', l.renew_of)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!(['Y', 'X', 'O'] as string[]).includes(old.status)) fail(`原租约${enumText(LEASE_STATUS, old.status)}，不能续租`);
    await ctx.db.updateTable('leases').set({ status: 'R' }).where('rid', '=', ctx.rid).where('id', '=', old.id).execute();
    await writeFlowLog(ctx, leaseFlow.def, Number(old.id), {
      transition: 'renewed',
      from: old.status,
      to: 'R',
      input: { lease_no: l.lease_no },
    });
    await leaseExpiringBacklog.settle(ctx.db, ctx.rid, Number(old.id), ctx.session.accountId);
  }
  await billLease(ctx.db, ctx.rid, Number(l.id), day, ctx.session.accountId);
}

/* ---------- the end date's statuses ---------- */

/**
 * A lease reaching its end on `asOf`: on the leasing staff's list, and, while its end is still
 * ahead, the 租约到期提醒 the group's message settings ask for (the tenant as 合同乙方, the leasing
 * staff); once a lease, as it enters 即将到期 once.
 */
async function raiseExpiring(
  db: Kysely<DB>,
  rid: number,
  l: Pick<LeaseTableRow, 'id' | 'lease_no' | 'tenant_name' | 'mobile' | 'end_date'>,
  asOf: string,
) {
  const rooms = (await leaseRooms(db, rid, Number(l.id))).map((r) => r.address).join('、');
  await leaseExpiringBacklog.raise(db, rid, {
    sourceId: Number(l.id),
    title: `租约即将到期：${l.lease_no} ${l.tenant_name} ${rooms}`.slice(0, 100),
    content: `${l.end_date} 到期，请办理续租或退租`,
    deadline: new Date(`${l.end_date}T23:59:59+08:00`),
  });
  if (l.end_date < asOf) return;
  await notify(
    db,
    rid,
    'lease_expiring',
    { party: { name: l.tenant_name, mobile: l.mobile }, staffCodes: LEASE_ROLES.write },
    {
      ...notifyText.lease_expiring({
        no: l.lease_no,
        tenant: l.tenant_name,
        mobile: l.mobile,
        rooms,
        endDate: l.end_date,
        daysLeft: daysBetween(asOf, l.end_date),
      }),
      link: leaseLink(Number(l.id)),
      refId: Number(l.id),
    },
  );
}

/** The job's account in the log: nobody signed in. */
const SYSTEM = { accountId: null, name: '系统' } as unknown as Session;

/**
 * The statuses the end date moves on `asOf`: 生效 → 即将到期 within the settings' days (a to-do for
 * the leasing staff), 生效/即将到期 → 已到期 once past the end without a check-out, 已续租 → 已结束
 * once past the end (the renewal holds the rooms: nobody moves out).
 */
export async function expireLeases(db: Kysely<DB>, rid: number, asOf: string) {
  const { expiring_days: days } = await leaseSettingsOf(db, rid);
  const ctx = { db, rid, session: SYSTEM } as unknown as CommunityCtx;
  const out = { expiring: 0, expired: 0, ended: 0 };
  const rows = await db
    .selectFrom('leases')
    .select(['id', 'lease_no', 'tenant_name', 'mobile', 'end_date', 'status'])
    .where('rid', '=', rid)
    .where('status', 'in', ['Y', 'X', 'R'])
    .where('end_date', '<=', addDays(asOf, days))
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const l of rows) {
    let to: LeaseStatus | null = null;
    if (l.status === 'R') to = l.end_date < asOf ? 'F' : null;
    else to = liveStatusOn(l.end_date, asOf, days);
    if (!to || to === l.status) continue;
    await db
      .updateTable('leases')
      .set({ status: to, ...(to === 'F' ? { ended_on: l.end_date, next_bill_date: null } : {}) })
      .where('rid', '=', rid)
      .where('id', '=', l.id)
      .execute();
    const step = to === 'X' ? 'expiring' : to === 'O' ? 'expired' : 'ended';
    await writeFlowLog(ctx, leaseFlow.def, Number(l.id), { transition: step, from: l.status, to });
    if (to === 'X') {
      await raiseExpiring(db, rid, l, asOf);
      out.expiring++;
    } else if (to === 'O') {
      if (l.status === 'Y') await raiseExpiring(db, rid, l, asOf);
      out.expired++;
    } else {
      await leaseExpiringBacklog.settle(db, rid, Number(l.id));
      out.ended++;
    }
  }
  return out;
}

export const LEASE_EXPIRING_JOB = 'lease_expiring';
registerJobKind(LEASE_EXPIRING_JOB, async (ctx) => {
  const day = today();
  const rids = await ctx.db.selectFrom('leases').select('rid').distinct().where('status', 'in', ['Y', 'X', 'R']).execute();
  const total = { expiring: 0, expired: 0, ended: 0 };
  for (const { rid } of rids) {
    const r = await ctx.db.transaction().execute((trx) => expireLeases(trx, rid, day));
    total.expiring += r.expiring;
    total.expired += r.expired;
    total.ended += r.ended;
  }
  return total;
});
registerDailyJob(LEASE_EXPIRING_JOB, {});

const leaseexpirerun = defineMethod('leaseexpirerun', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '按指定日期更新租约到期状态（模拟时钟，仅管理员）：即将到期、已到期、续租后到期结束',
  async handler(ctx, input) {
    const r = await expireLeases(ctx.db, ctx.rid, input.as_of);
    return reply(r, `即将到期 ${r.expiring} 份，已到期 ${r.expired} 份，结束 ${r.ended} 份`);
  },
});

/* ---------- refunds ---------- */

/**
 * A refund approved of a lease's deposit, or of a bill of an ended lease (the days after its
 * check-out): the bill stays paid and closed, not owed again (fees/billPaid.ts).
 */
registerRefundCloser(async (ctx, billIds) => {
  if (billIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('lease_bills as lb')
    .innerJoin('leases as l', (j) => j.onRef('l.rid', '=', 'lb.rid').onRef('l.id', '=', 'lb.lease_id'))
    .select('lb.bill_id')
    .where('lb.rid', '=', ctx.rid)
    .where('lb.bill_id', 'in', [...billIds])
    .where((eb) => eb.or([eb('lb.kind', '=', 'deposit'), eb('l.status', '=', 'F')]))
    .execute();
  return rows.map((r) => Number(r.bill_id));
});

export const leaseBillingMethods = [leasebillrun, leaseexpirerun];
