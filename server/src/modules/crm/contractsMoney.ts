/**
 * A contract's money (docs/product.md#crm-contracts): the payment plan becomes fee bills on the
 * contract's room as instalments fall due (the daily job `contract_instalments`, never twice:
 * the instalment keeps its bill, and the bills' own key holds), the bill paid at the cashier marks
 * its instalment paid (a bill-paid listener), a refund approved reopens it, or closes it when the
 * contract has ended. contractcolprogress sets the plan against what was paid and what is overdue;
 * the refunds of contracts' receipts are the fees area's, listed per contract. The daily job
 * `contract_expiry` moves contracts past their end to 到期, and tells of those entering the
 * settings' 即将到期 window (合同到期提醒, once a contract). Both take an as-of day.
 */
import {
  CONTRACT_KIND,
  CONTRACT_READERS,
  CONTRACT_STATUS,
  CRM_ROLES,
  INSTALMENT_STATE,
  REFUND_STATUS,
  addDays,
  contractFlow,
  daysBetween,
  enumText,
  fenToYuan,
  mulDivRoundHalfUp,
  toFen,
  type ContractKind,
  type ContractProgressRow,
  type ContractRefundRow,
  type ContractSettings,
  type ContractStatus,
  type InstalmentName,
  type InstalmentRow,
  type InstalmentState,
} from '@wuye/contract';
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { registerBillPaidListener, registerRefundCloser } from '../fees/billPaid.js';
import { ensureOwnItem, insertOwnBill } from '../fees/ownBills.js';
import { notify } from '../setup/notify.js';
import { notifyText } from '../setup/notifyTexts.js';
import { syncUnitStates } from './contractsUnits.js';

export const CONTRACT_DEFAULTS: ContractSettings = { bill_days_ahead: 7, expiring_days: 30 };

export async function contractSettings(db: Kysely<DB>, rid: number): Promise<ContractSettings> {
  const row = await db
    .selectFrom('contract_settings')
    .select(['bill_days_ahead', 'expiring_days'])
    .where('rid', '=', rid)
    .executeTakeFirst();
  return row ?? { ...CONTRACT_DEFAULTS };
}

const contractsettings = defineMethod('contractsettings', {
  side: 'community',
  roles: [...CONTRACT_READERS, ...CRM_ROLES.settings],
  writes: false,
  summary: '合同设置：账单提前生成天数、即将到期天数',
  handler: (ctx) => contractSettings(ctx.db, ctx.rid),
});

const contractsettingsedit = defineMethod('contractsettingsedit', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary: '保存合同设置：收款计划的账单在到期前几天生成（0 为当天），合同到期前几天列入续签提醒',
  async handler(ctx, input) {
    await ctx.db
      .insertInto('contract_settings')
      .values({ rid: ctx.rid, ...input, updated_by: ctx.session.accountId })
      .onConflict((oc) => oc.column('rid').doUpdateSet({ ...input, updated_by: ctx.session.accountId, updated_at: sql`now()` }))
      .execute();
    return reply(input, '保存成功');
  },
});

// ---- instalments as the pages show them ------------------------------------------------------

/** An instalment's collection on `day`: 已退款, 已收款, else 已逾期 past its due date, 待收款 once billed, 未出账. */
export function instalmentState(
  i: { refunded: string; paid_at: unknown; bill_id: unknown; due_date: string },
  day: string,
): InstalmentState {
  if (i.refunded === 'Y') return 'refunded';
  if (i.paid_at) return 'paid';
  if (i.due_date < day) return 'overdue';
  return i.bill_id ? 'billed' : 'planned';
}

/** The plans of these contracts with their bills' receipts and refunds, by contract. */
export async function instalmentRows(db: Kysely<DB>, rid: number, contractIds: readonly number[]): Promise<Map<number, InstalmentRow[]>> {
  const out = new Map<number, InstalmentRow[]>();
  if (contractIds.length === 0) return out;
  const day = today();
  const rows = await db
    .selectFrom('contract_instalments as i')
    .leftJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'i.rid').onRef('b.id', '=', 'i.bill_id'))
    .select([
      'i.id',
      'i.contract_id',
      'i.seq',
      'i.name',
      'i.amount',
      sql<string>`i.due_date::text`.as('due_date'),
      'i.bill_id',
      'i.billed_at',
      'i.bill_note',
      'i.paid_at',
      'i.receipt_no',
      'i.refunded',
      'b.payment_id',
      sql<
        string | null
      >`(SELECT f.status FROM fee_refunds f WHERE f.rid = i.rid AND i.bill_id = ANY(f.bill_ids) ORDER BY f.id DESC LIMIT 1)`.as(
        'refund_status',
      ),
    ])
    .where('i.rid', '=', rid)
    .where(sql<SqlBool>`i.contract_id = ANY(${[...contractIds]}::bigint[])`)
    .orderBy('i.contract_id')
    .orderBy('i.due_date')
    .orderBy('i.seq')
    .execute();
  for (const i of rows) {
    const state = instalmentState(i, day);
    const list = out.get(Number(i.contract_id)) ?? [];
    list.push({
      id: Number(i.id),
      seq: i.seq,
      name: i.name as InstalmentName,
      amount: fenToYuan(toFen(i.amount)),
      due_date: i.due_date,
      bill_id: i.bill_id === null ? null : Number(i.bill_id),
      billed_at: wireTime(i.billed_at),
      bill_note: i.bill_note,
      paid_at: wireTime(i.paid_at),
      receipt_no: i.receipt_no,
      payment_id: i.paid_at && i.payment_id !== null ? Number(i.payment_id) : null,
      state,
      state_ch: enumText(INSTALMENT_STATE, state),
      overdue_days: state === 'overdue' ? daysBetween(i.due_date, day) : 0,
      refund_status: i.refund_status ?? '',
      refund_status_ch: i.refund_status ? enumText(REFUND_STATUS, i.refund_status) : '',
    });
    out.set(Number(i.contract_id), list);
  }
  return out;
}

// ---- the bills of instalments falling due ----------------------------------------------------

/** Runs `fn` in a transaction of its own, or in the caller's (contractjobrun runs in the call's). */
const inTransaction = <T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute((trx: Transaction<DB>) => fn(trx));

/** The fee item of an instalment's name, under the cost type 销售收入 (made once per community). */
export const instalmentItem = (db: Kysely<DB>, rid: number, name: string) =>
  ensureOwnItem(db, rid, { cost: { code: 'sales', title: '销售收入', sort: 92 }, title: `合同${name}`, remark: '合同收款计划自动生成' });

/**
 * Bills the instalments of contracts in effect that fall due within the community's lead days of
 * `asOf` (each in a transaction, under its row's lock): on the contract's first room (a space's
 * room for a parking contract), one bill an instalment, never a second. A contract without a room
 * is tracked without bills. Answers how many bills were made.
 */
export async function billDueInstalments(db: Kysely<DB>, asOf: string, rid?: number): Promise<number> {
  const due = await db
    .selectFrom('contract_instalments as i')
    .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.contract_id'))
    .leftJoin('contract_settings as s', 's.rid', 'i.rid')
    .select(['i.rid', 'i.id'])
    .where('c.status', '=', 'Y')
    .where('i.bill_id', 'is', null)
    .where('i.bill_note', '=', '')
    .where(sql<SqlBool>`i.due_date <= ${asOf}::date + coalesce(s.bill_days_ahead, ${CONTRACT_DEFAULTS.bill_days_ahead})`)
    .$if(rid !== undefined, (q) => q.where('i.rid', '=', rid!))
    .orderBy('i.rid')
    .orderBy('i.contract_id')
    .orderBy('i.seq')
    .execute();
  let made = 0;
  for (const d of due) {
    const billed = await inTransaction(db, async (trx) => {
      const i = await trx
        .selectFrom('contract_instalments as i')
        .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.contract_id'))
        .select([
          'i.id',
          'i.contract_id',
          'i.name',
          'i.amount',
          sql<string>`i.due_date::text`.as('due_date'),
          'i.bill_id',
          'c.contract_no',
          'c.status',
        ])
        .where('i.rid', '=', d.rid)
        .where('i.id', '=', d.id)
        .forUpdate(['i'])
        .executeTakeFirst();
      if (!i || i.bill_id !== null || i.status !== 'Y') return false;
      const room = await trx
        .selectFrom('contract_units as u')
        .leftJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 'u.rid').onRef('s.id', '=', 'u.space_id'))
        .select(sql<number | null>`coalesce(u.hid, s.hid)`.as('hid'))
        .where('u.rid', '=', d.rid)
        .where('u.contract_id', '=', i.contract_id)
        .where(sql<SqlBool>`coalesce(u.hid, s.hid) IS NOT NULL`)
        .orderBy('u.unit_kind')
        .orderBy('u.sort')
        .orderBy('u.id')
        .executeTakeFirst();
      if (!room?.hid) {
        await trx
          .updateTable('contract_instalments')
          .set({ bill_note: '合同未关联房屋，不生成账单' })
          .where('rid', '=', d.rid)
          .where('id', '=', d.id)
          .execute();
        return false;
      }
      const item = await instalmentItem(trx, d.rid, i.name);
      const period = i.due_date.slice(0, 7);
      const bill = await insertOwnBill(trx, d.rid, {
        hid: Number(room.hid),
        item,
        title: `${i.contract_no} ${i.name}`,
        period,
        daterange: `${i.due_date}~${i.due_date}`,
        fee: fenToYuan(toFen(i.amount)),
        due_date: i.due_date,
        source: 'contract',
      });
      await trx
        .updateTable('contract_instalments')
        .set(
          bill === null
            ? { bill_note: `该房屋 ${period} 已有「合同${i.name}」账单，未重复生成` }
            : { bill_id: bill, billed_at: sql<Date>`now()`, bill_note: '' },
        )
        .where('rid', '=', d.rid)
        .where('id', '=', d.id)
        .execute();
      return bill !== null;
    });
    if (billed) made++;
  }
  return made;
}

/** A step the system takes on a contract (no account): written as a workflow log row. */
async function systemLog(db: Kysely<DB>, rid: number, id: number, step: { transition: string; from: string; to: string; input?: object }) {
  await db
    .insertInto('workflow_logs')
    .values({
      rid,
      flow: contractFlow.def.name,
      row_id: id,
      transition: step.transition,
      from_state: step.from,
      to_state: step.to,
      input: JSON.stringify(step.input ?? {}),
      operator: '系统',
      created_by: null,
    })
    .execute();
}

/** Contracts in effect whose end is before `asOf` become 到期 (a lease's units are free again). Answers how many. */
export async function expireContracts(db: Kysely<DB>, asOf: string, rid?: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    const ended = await trx
      .updateTable('contracts')
      .set({ status: 'E', updated_at: sql`now()` })
      .where('status', '=', 'Y')
      .where('end_date', '<', asOf)
      .$if(rid !== undefined, (q) => q.where('rid', '=', rid!))
      .returning(['rid', 'id', sql<string>`end_date::text`.as('end_date')])
      .execute();
    const byRid = new Map<number, number[]>();
    for (const c of ended) {
      await systemLog(trx, c.rid, Number(c.id), { transition: 'expire', from: 'Y', to: 'E', input: { end_date: c.end_date } });
      byRid.set(c.rid, [...(byRid.get(c.rid) ?? []), Number(c.id)]);
    }
    for (const [r, ids] of byRid) await syncUnitStates(trx, r, ids);
    return ended.length;
  });
}

/**
 * 合同到期提醒 (docs/product.md#notifications): contracts in effect whose end falls within the
 * community's 即将到期 days of `asOf` tell their party and the contract staff, as the group's message
 * settings say; once a contract (it keeps the day). Answers how many were reminded.
 */
export async function remindExpiringContracts(db: Kysely<DB>, asOf: string, rid?: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { rows } = await sql<{
      rid: number;
      id: string;
      contract_no: string;
      name: string;
      party_name: string;
      party_mobile: string;
      end_date: string;
      days_left: number;
    }>`
      UPDATE contracts c SET expiry_reminded_on = ${asOf}::date
      FROM regions g LEFT JOIN contract_settings s ON s.rid = g.id
      WHERE g.id = c.rid AND c.status = 'Y' AND c.expiry_reminded_on IS NULL AND c.end_date IS NOT NULL
        AND c.end_date >= ${asOf}::date
        AND c.end_date <= ${asOf}::date + coalesce(s.expiring_days, ${CONTRACT_DEFAULTS.expiring_days})
        ${rid === undefined ? sql`` : sql`AND c.rid = ${rid}`}
      RETURNING c.rid, c.id, c.contract_no, c.name, c.party_name, c.party_mobile, c.end_date::text AS end_date,
        (c.end_date - ${asOf}::date) AS days_left`.execute(trx);
    for (const c of rows)
      await notify(
        trx,
        c.rid,
        'contract_expiring',
        { party: { name: c.party_name, mobile: c.party_mobile }, staffCodes: CRM_ROLES.contracts },
        {
          ...notifyText.contract_expiring({
            no: c.contract_no,
            name: c.name,
            party: c.party_name,
            mobile: c.party_mobile,
            endDate: c.end_date,
            daysLeft: Number(c.days_left),
          }),
          link: `/crm/roomshow?id=${c.id}`,
          refId: c.id,
        },
      );
    return rows.length;
  });
}

/** A contract's end of term as of a day (the daily job and 运行合同作业): past their end → 到期, then the 即将到期 reminders. */
async function endOfTerm(db: Kysely<DB>, asOf: string, rid?: number): Promise<{ expired: number; reminded: number }> {
  const expired = await expireContracts(db, asOf, rid);
  return { expired, reminded: await remindExpiringContracts(db, asOf, rid) };
}

/** Writes a parent's 已续签 step (its renewal took effect). */
export const logRenewed = (db: Kysely<DB>, rid: number, id: number, from: string, renewalNo: string) =>
  systemLog(db, rid, id, { transition: 'renewed', from, to: 'R', input: { renewal_no: renewalNo } });

export const CONTRACT_INSTALMENTS_JOB = 'contract_instalments';
export const CONTRACT_EXPIRY_JOB = 'contract_expiry';
const asOfOf = (payload: Record<string, unknown>) => (typeof payload.as_of === 'string' ? payload.as_of : today());
registerJobKind(CONTRACT_INSTALMENTS_JOB, async (ctx) => ({ billed: await billDueInstalments(ctx.db, asOfOf(ctx.payload)) }));
registerDailyJob(CONTRACT_INSTALMENTS_JOB, {});
registerJobKind(CONTRACT_EXPIRY_JOB, (ctx) => endOfTerm(ctx.db, asOfOf(ctx.payload)));
registerDailyJob(CONTRACT_EXPIRY_JOB, {});

const contractjobrun = defineMethod('contractjobrun', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '按给定日期运行本小区的合同作业（管理员）：生成到期前应出的收款计划账单、将已过结束日期的合同置为到期；用于演练与验收',
  async handler(ctx, input) {
    const billed = await billDueInstalments(ctx.db, input.as_of, ctx.rid);
    const { expired, reminded } = await endOfTerm(ctx.db, input.as_of, ctx.rid);
    return reply({ billed, expired, reminded }, `已生成 ${billed} 张账单，${expired} 份合同到期，${reminded} 份即将到期已提醒`);
  },
});

// ---- the cashier and refunds tell the instalments ---------------------------------------------

registerBillPaidListener(async (ctx, billIds, receiptNo) => {
  await ctx.db
    .updateTable('contract_instalments')
    .set({ paid_at: sql<Date>`now()`, receipt_no: receiptNo })
    .where('rid', '=', ctx.rid)
    .where(sql<SqlBool>`bill_id = ANY(${[...billIds]}::bigint[])`)
    .execute();
});

/**
 * A refund approved of an instalment's bill: while the contract runs the bill is owed again (the
 * fees area reopens it, the instalment unpaid); once the contract has ended (终止, 作废) the money
 * goes back for good: the bill stays closed, the instalment 已退款.
 */
registerRefundCloser(async (ctx: CommunityCtx, billIds) => {
  const rows = await ctx.db
    .selectFrom('contract_instalments as i')
    .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.contract_id'))
    .select(['i.id', 'i.bill_id', 'c.status'])
    .where('i.rid', '=', ctx.rid)
    .where(sql<SqlBool>`i.bill_id = ANY(${[...billIds]}::bigint[])`)
    .execute();
  const closed = rows.filter((r) => r.status === 'T' || r.status === 'V');
  const reopened = rows.filter((r) => r.status !== 'T' && r.status !== 'V');
  if (closed.length)
    await ctx.db
      .updateTable('contract_instalments')
      .set({ refunded: 'Y' })
      .where('rid', '=', ctx.rid)
      .where(
        'id',
        'in',
        closed.map((r) => r.id),
      )
      .execute();
  if (reopened.length)
    await ctx.db
      .updateTable('contract_instalments')
      .set({ paid_at: null, receipt_no: '' })
      .where('rid', '=', ctx.rid)
      .where(
        'id',
        'in',
        reopened.map((r) => r.id),
      )
      .execute();
  return closed.map((r) => Number(r.bill_id));
});

// ---- contractcolprogress: the plan against what was paid -------------------------------------

type ProgressFilters = Omit<HandlerInput<'contractcolprogress'>, 'page' | 'limit' | 'sort'>;

/** The contracts of the progress page (alias t), with a plan that runs or ran, by every filter but the collection. */
function progressBase(db: Kysely<DB>, rid: number, f: ProgressFilters) {
  let qb = db
    .selectFrom('contracts as t')
    .innerJoin('contract_types as ty', (j) => j.onRef('ty.rid', '=', 't.rid').onRef('ty.id', '=', 't.type_id'))
    .where('t.rid', '=', rid)
    // the plans that run or ran: in effect, expired, renewed, terminated
    .where('t.status', 'in', ['Y', 'E', 'R', 'T'])
    .where(sql<SqlBool>`EXISTS (SELECT 1 FROM contract_instalments x WHERE x.rid = t.rid AND x.contract_id = t.id)`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    qb = qb.where(sql<SqlBool>`(t.contract_no LIKE ${k} OR t.name LIKE ${k} OR t.party_name LIKE ${k} OR t.party_mobile LIKE ${k})`);
  }
  if (f.type_id) qb = qb.where('t.type_id', '=', f.type_id);
  if (f.kind) qb = qb.where('t.kind', '=', f.kind);
  if (f.due) {
    const [from, to] = f.due;
    qb = qb.where(
      sql<SqlBool>`EXISTS (SELECT 1 FROM contract_instalments i WHERE i.rid = t.rid AND i.contract_id = t.id AND i.due_date BETWEEN ${from}::date AND ${to}::date)`,
    );
  }
  return qb;
}

/** Each contract with its plan's figures (a lateral aggregate of its own instalments, alias m). */
function progressQuery(db: Kysely<DB>, rid: number, f: ProgressFilters) {
  const day = today();
  let qb = progressBase(db, rid, f)
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('contract_instalments as i')
          .select([
            sql<string | null>`sum(i.amount) FILTER (WHERE i.due_date <= ${day}::date)`.as('due_amount'),
            sql<string | null>`sum(i.amount) FILTER (WHERE i.paid_at IS NOT NULL AND i.refunded = 'N')`.as('paid_amount'),
            sql<string | null>`sum(i.amount) FILTER (WHERE i.paid_at IS NULL AND i.refunded = 'N' AND i.due_date < ${day}::date)`.as(
              'overdue_amount',
            ),
            sql<
              string | null
            >`(min(i.due_date) FILTER (WHERE i.paid_at IS NULL AND i.refunded = 'N' AND i.due_date < ${day}::date))::text`.as(
              'first_overdue',
            ),
            sql<string | null>`(min(i.due_date) FILTER (WHERE i.paid_at IS NULL AND i.refunded = 'N'))::text`.as('next_due_date'),
            sql<boolean>`bool_or(i.bill_note LIKE '合同未关联房屋%')`.as('no_room'),
          ])
          .whereRef('i.rid', '=', 't.rid')
          .whereRef('i.contract_id', '=', 't.id')
          .as('m'),
      (j) => j.onTrue(),
    )
    .select([
      't.id',
      't.contract_no',
      't.name',
      't.kind',
      't.status',
      't.party_name',
      't.party_mobile',
      't.total_amount',
      'ty.name as type_name',
      sql<string | null>`m.due_amount::text`.as('due_amount'),
      sql<string | null>`m.paid_amount::text`.as('paid_amount'),
      sql<string | null>`m.overdue_amount::text`.as('overdue_amount'),
      'm.first_overdue',
      'm.next_due_date',
      'm.no_room',
      sql<string>`coalesce((SELECT string_agg(CASE WHEN u.unit_kind = 'room' THEN r.address ELSE l.title || '-' || s.title END, '、' ORDER BY u.sort, u.id)
        FROM contract_units u LEFT JOIN rooms r ON r.rid = u.rid AND r.id = u.hid
        LEFT JOIN parking_spaces s ON s.rid = u.rid AND s.id = u.space_id LEFT JOIN parking_lots l ON l.rid = s.rid AND l.id = s.lot_id
        WHERE u.rid = t.rid AND u.contract_id = t.id), '')`.as('units_text'),
    ]);
  if (f.collection === 'overdue') qb = qb.where(sql<SqlBool>`m.overdue_amount IS NOT NULL`);
  if (f.collection === 'unpaid') qb = qb.where(sql<SqlBool>`coalesce(m.paid_amount, 0) < t.total_amount`);
  if (f.collection === 'paid') qb = qb.where(sql<SqlBool>`coalesce(m.paid_amount, 0) >= t.total_amount`);
  return qb;
}

type ProgressRaw = Awaited<ReturnType<ReturnType<typeof progressQuery>['executeTakeFirstOrThrow']>>;

const fen = (v: string | null | undefined) => (v ? toFen(v) : 0n);

function toProgressRow(r: ProgressRaw, plan: InstalmentRow[]): ContractProgressRow {
  const total = fen(r.total_amount);
  const paid = fen(r.paid_amount);
  const next = plan.find((i) => i.state !== 'paid' && i.state !== 'refunded');
  const day = today();
  return {
    id: Number(r.id),
    contract_no: r.contract_no,
    name: r.name,
    type_name: r.type_name,
    kind: r.kind as ContractKind,
    kind_ch: enumText(CONTRACT_KIND, r.kind),
    status: r.status as ContractStatus,
    status_ch: enumText(CONTRACT_STATUS, r.status),
    party_name: r.party_name,
    party_mobile: r.party_mobile,
    units_text: r.units_text,
    total_amount: fenToYuan(total),
    due_amount: fenToYuan(fen(r.due_amount)),
    paid_amount: fenToYuan(paid),
    outstanding: fenToYuan(total - paid),
    overdue_amount: fenToYuan(fen(r.overdue_amount)),
    overdue_days: r.first_overdue ? daysBetween(r.first_overdue, day) : 0,
    next_due_date: r.next_due_date,
    next_due_amount: next ? next.amount : '0.00',
    // one decimal of a percent: paid × 1000 ÷ total, rounded half up
    paid_percent: total > 0n ? (Number(mulDivRoundHalfUp(paid, 1000n, total)) / 10).toFixed(1) : '0.0',
    no_room: !!r.no_room,
    instalments: plan,
  };
}

const contractcolprogress = defineMethod('contractcolprogress', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary:
    '回款进度：每份合同的收款计划对比已收与逾期（应收至今、已收、未收、逾期金额与天数、下次收款），各期明细；合计；筛选关键字、类型、类别、收款情况、计划日期',
  async handler(ctx, input) {
    const qb = progressQuery(ctx.db, ctx.rid, input);
    const [page, sums] = await Promise.all([
      // without a collection filter the count needs no plan's figures
      listPage(qb, input, 't.id', input.collection ? undefined : progressBase(ctx.db, ctx.rid, input)),
      progressQuery(ctx.db, ctx.rid, input)
        .clearSelect()
        .select([
          sql<string>`coalesce(sum(t.total_amount), 0)::text`.as('total_amount'),
          sql<string>`coalesce(sum(m.due_amount), 0)::text`.as('due_amount'),
          sql<string>`coalesce(sum(m.paid_amount), 0)::text`.as('paid_amount'),
          sql<string>`coalesce(sum(m.overdue_amount), 0)::text`.as('overdue_amount'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    const plans = await instalmentRows(
      ctx.db,
      ctx.rid,
      page.items.map((r) => Number(r.id)),
    );
    return {
      items: page.items.map((r) => toProgressRow(r, plans.get(Number(r.id)) ?? [])),
      total: page.total,
      sums: {
        total_amount: fenToYuan(fen(sums.total_amount)),
        due_amount: fenToYuan(fen(sums.due_amount)),
        paid_amount: fenToYuan(fen(sums.paid_amount)),
        outstanding: fenToYuan(fen(sums.total_amount) - fen(sums.paid_amount)),
        overdue_amount: fenToYuan(fen(sums.overdue_amount)),
      },
    };
  },
});

const contractcolprogressexport = defineExport('contractcolprogressexport', {
  roles: CONTRACT_READERS,
  summary: '导出回款进度（当前筛选，每期一行）',
  filename: () => `回款进度_${today()}.xlsx`,
  async sheet({ db, rid }, input) {
    const rows = await progressQuery(db, rid, input).orderBy('t.id', 'desc').limit(20_000).execute();
    const plans = await instalmentRows(
      db,
      rid,
      rows.map((r) => Number(r.id)),
    );
    const lines = rows.flatMap((r) => {
      const row = toProgressRow(r, plans.get(Number(r.id)) ?? []);
      return row.instalments.map((i) => ({ row, i }));
    });
    return sheetOf(
      '回款进度',
      [
        { header: '合同编号', value: (l) => l.row.contract_no, width: 20 },
        { header: '合同名称', value: (l) => l.row.name, width: 20 },
        { header: '乙方', value: (l) => l.row.party_name },
        { header: '房源', value: (l) => l.row.units_text, width: 22 },
        { header: '合同总额', value: (l) => Number(l.row.total_amount) },
        { header: '期数', value: (l) => l.i.seq },
        { header: '款项', value: (l) => l.i.name },
        { header: '计划日期', value: (l) => l.i.due_date, width: 12 },
        { header: '计划金额', value: (l) => Number(l.i.amount) },
        { header: '状态', value: (l) => l.i.state_ch },
        { header: '逾期天数', value: (l) => l.i.overdue_days },
        { header: '收据号', value: (l) => l.i.receipt_no, width: 16 },
        { header: '收款时间', value: (l) => l.i.paid_at, width: 20 },
      ],
      lines,
    );
  },
});

// ---- refund_list: refunds of contracts' receipts ---------------------------------------------

const contractrefundlist = defineMethod('contractrefundlist', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '合同退款：退款流程中涉及合同款项的退款申请（合同、款项、收据、金额、原因、审批状态），按合同筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('fee_refunds as f')
      .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'f.rid').onRef('p.id', '=', 'f.payment_id'))
      .innerJoin(
        (eb) =>
          eb
            .selectFrom('contract_instalments as i')
            .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.contract_id'))
            .select([
              'i.rid',
              'i.bill_id',
              'c.id as contract_id',
              'c.contract_no',
              'c.name as contract_name',
              'c.party_name',
              'i.name as instalment',
            ])
            .where('i.rid', '=', ctx.rid)
            .where('i.bill_id', 'is not', null)
            .as('k'),
        (j) => j.onRef('k.rid', '=', 'f.rid').on(sql<SqlBool>`k.bill_id = ANY(f.bill_ids)`),
      )
      .select([
        'f.id',
        'f.payment_id',
        'f.amount',
        'f.reason',
        'f.status',
        'f.applicant',
        'f.approver',
        'f.approve_remark',
        'f.created_at',
        'f.approved_at',
        'p.receipt_no',
        sql<number>`min(k.contract_id)`.as('contract_id'),
        sql<string>`min(k.contract_no)`.as('contract_no'),
        sql<string>`min(k.contract_name)`.as('contract_name'),
        sql<string>`min(k.party_name)`.as('party_name'),
        sql<string>`string_agg(k.instalment, '、')`.as('instalments'),
      ])
      .where('f.rid', '=', ctx.rid)
      .groupBy(['f.id', 'f.rid', 'p.receipt_no']);
    if (input.contract_id) qb = qb.having(sql<SqlBool>`min(k.contract_id) = ${input.contract_id}`);
    if (input.status) qb = qb.where('f.status', '=', input.status);
    if (input.keyword) {
      const k = likePattern(input.keyword);
      qb = qb.having(sql<SqlBool>`(min(k.contract_no) LIKE ${k} OR min(k.party_name) LIKE ${k} OR p.receipt_no LIKE ${k})`);
    }
    const page = await listPage(qb, input, 'f.id', async () => {
      const n = await ctx.db
        .selectFrom(
          qb
            .clearSelect()
            .select(sql`1`.as('x'))
            .as('q'),
        )
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      return Number(n.n);
    });
    return {
      total: page.total,
      items: page.items.map((f): ContractRefundRow => ({
        id: Number(f.id),
        contract_id: Number(f.contract_id),
        contract_no: f.contract_no,
        contract_name: f.contract_name,
        party_name: f.party_name,
        instalments: f.instalments,
        receipt_no: f.receipt_no,
        payment_id: Number(f.payment_id),
        amount: fenToYuan(toFen(f.amount)),
        reason: f.reason,
        status: f.status,
        status_ch: enumText(REFUND_STATUS, f.status),
        applicant: f.applicant,
        approver: f.approver,
        approve_remark: f.approve_remark,
        create_time: wireTime(f.created_at),
        approve_time: wireTime(f.approved_at),
      })),
    };
  },
});

export { addDays };
export const moneyMethods = [
  contractsettings,
  contractsettingsedit,
  contractjobrun,
  contractcolprogress,
  contractcolprogressexport,
  contractrefundlist,
];
