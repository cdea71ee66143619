/**
 * Tenant leases (租赁合同 /crm/leaselist, leaseadd, leaseedit, rerent, lease_approval; docs/product.md#crm-leases):
 * the list and its export, the form's save with its rules (rooms of the community never leased twice
 * at once, the terms the schedule can draw), the approval (a workflow over approval_status; the
 * activation is leasesBilling.ts), the void, the log, the schedule with each period's bills, the
 * renewal, the settings (a tab of setcrmsys) and the form's pickers.
 */
import {
  enumText,
  fenToYuan,
  isValidIdCard,
  LEASE_APPROVAL,
  LEASE_BILL_KIND,
  LEASE_CYCLE,
  LEASE_DEPOSIT_STATE,
  LEASE_ESCALATION,
  LEASE_RENT_MODE,
  LEASE_ROLES,
  LEASE_STATUS,
  LEASE_TENANT_KIND,
  leaseFlow,
  leaseNumber,
  leaseSchedule,
  leaseTermsProblem,
  monthlyRentOf,
  addDays,
  BILL_STATUS,
  toFen,
  usccValid,
  type LeaseDetail,
  type LeaseRoom,
  type LeaseRow,
  type LeaseSettings,
  type LeaseSettlement,
  type LeaseStatus,
  type LeaseTerms,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { LeaseSettingsTable } from '../../db/types.generated.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { daysLeft, today, wireTime, withinDays } from '../../lib/wire.js';
import { defineWorkflow, flowLog, writeFlowLog } from '../../lib/workflow.js';
import { unmasked } from '../owners/members.js';
import { keywordCondition } from '../owners/search.js';
import { activateLease, billKeyClash } from './leasesBilling.js';
import {
  json,
  leaseAuditBacklog,
  leaseRooms,
  leaseSettingsOf,
  lockedRooms,
  lockLeaseSettings,
  lockLease,
  money2,
  refuseOverlap,
  termsOf,
  type LeaseTableRow,
} from './leasesCore.js';

/* ---------- settings ---------- */

const settingsAnswer = (s: Omit<Selectable<LeaseSettingsTable>, 'created_at' | 'created_by'>): LeaseSettings => ({
  number_prefix: s.number_prefix,
  next_seq: s.next_seq,
  next_no: leaseNumber(s.number_prefix, s.next_seq),
  expiring_days: s.expiring_days,
  deposit_months: s.deposit_months,
  bill_ahead_days: s.bill_ahead_days,
  cycle_months: s.cycle_months,
});

/** The next lease number of the community (the settings row locked: two saves never take one number). */
async function nextLeaseNo(db: Kysely<DB>, rid: number): Promise<string> {
  const s = await lockLeaseSettings(db, rid);
  let seq = s.next_seq;
  // a number typed by hand into the sequence may have been used: skip it
  for (;;) {
    const no = leaseNumber(s.number_prefix, seq);
    const used = await db.selectFrom('leases').select('id').where('rid', '=', rid).where('lease_no', '=', no).executeTakeFirst();
    seq++;
    if (!used) {
      await db.updateTable('lease_settings').set({ next_seq: seq }).where('rid', '=', rid).execute();
      return no;
    }
  }
}

/* ---------- terms ---------- */

/* ---------- rows ---------- */

function leaseQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('leases as l')
    .leftJoin('leases as o', (j) => j.onRef('o.rid', '=', 'l.rid').onRef('o.id', '=', 'l.renew_of'))
    .leftJoin('fee_bills as d', (j) => j.onRef('d.rid', '=', 'l.rid').onRef('d.id', '=', 'l.deposit_bill_id'))
    .selectAll('l')
    .select([
      'o.lease_no as renew_of_no',
      'd.status as deposit_bill_status',
      sql<
        LeaseRoom[]
      >`(SELECT coalesce(json_agg(json_build_object('hid', lr.hid, 'address', r.address, 'area', lr.area::text) ORDER BY lr.sort, lr.id), '[]')
        FROM lease_rooms lr JOIN rooms r ON r.rid = lr.rid AND r.id = lr.hid WHERE lr.rid = l.rid AND lr.lease_id = l.id)`.as('rooms'),
      sql<
        string | null
      >`(SELECT n.id::text || ' ' || n.lease_no FROM leases n WHERE n.rid = l.rid AND n.renew_of = l.id AND n.status <> 'C' ORDER BY n.id DESC LIMIT 1)`.as(
        'renewal',
      ),
      sql<string>`(SELECT coalesce(sum(b.fee), 0)::numeric(14,2)::text FROM lease_bills lb JOIN fee_bills b ON b.rid = lb.rid AND b.id = lb.bill_id
        WHERE lb.rid = l.rid AND lb.lease_id = l.id AND b.status <> 'Y' AND b.due_date < current_date)`.as('overdue'),
      sql<string | null>`(SELECT s.deposit_refund::text FROM lease_signouts s WHERE s.rid = l.rid AND s.lease_id = l.id)`.as(
        'signout_refund',
      ),
    ])
    .where('l.rid', '=', rid);
}

type LeaseRaw = Awaited<ReturnType<ReturnType<typeof leaseQuery>['executeTakeFirstOrThrow']>>;

function depositState(l: LeaseRaw): string {
  if (toFen(l.deposit) === 0n || !l.deposit_bill_id) return '';
  if (l.deposit_bill_status !== 'Y') return l.deposit_bill_status ? 'E' : '';
  if (l.signout_refund === null) return 'Y';
  return toFen(l.signout_refund) > 0n ? 'R' : 'K';
}

function toRow(l: LeaseRaw, ctx: CommunityCtx): LeaseRow {
  const rooms = json<LeaseRoom[]>(l.rooms).map((r) => ({ ...r, hid: Number(r.hid), area: money2(r.area) }));
  const [renewalId, renewalNo] = l.renewal ? l.renewal.split(' ') : [null, ''];
  const deposit = depositState(l);
  return {
    id: Number(l.id),
    lease_no: l.lease_no,
    tenant_kind: l.tenant_kind as 'P' | 'C',
    tenant_kind_ch: enumText(LEASE_TENANT_KIND, l.tenant_kind),
    tenant_name: l.tenant_name,
    contact: l.contact,
    mobile: l.mobile,
    id_card: l.id_card,
    member_id: l.member_id === null ? null : Number(l.member_id),
    rooms,
    address: rooms.map((r) => r.address).join('、'),
    start_date: l.start_date,
    end_date: l.end_date,
    days_left: daysLeft(l.end_date),
    rent_mode: l.rent_mode as 'M' | 'A',
    rent_mode_ch: enumText(LEASE_RENT_MODE, l.rent_mode),
    rent_price: money2(l.rent_price),
    rent_area: money2(l.rent_area),
    monthly_rent: money2(l.monthly_rent),
    deposit: money2(l.deposit),
    deposit_state: deposit,
    deposit_state_ch: enumText(LEASE_DEPOSIT_STATE, deposit),
    cycle_months: l.cycle_months,
    cycle_months_ch: enumText(LEASE_CYCLE, String(l.cycle_months)),
    total_amount: money2(l.total_amount),
    overdue: money2(l.overdue),
    status: l.status as LeaseStatus,
    status_ch: enumText(LEASE_STATUS, l.status),
    approval_status: l.approval_status as LeaseRow['approval_status'],
    approval_status_ch: enumText(LEASE_APPROVAL, l.approval_status),
    renew_of: l.renew_of === null ? null : Number(l.renew_of),
    renew_of_no: l.renew_of_no ?? '',
    renewal_id: renewalId ? Number(renewalId) : null,
    renewal_no: renewalNo ?? '',
    ended_on: l.ended_on,
    creator: l.creator,
    mine: [l.created_by, l.submitted_by].some((a) => a !== null && Number(a) === ctx.session.accountId),
    approver: l.approver,
    approve_remark: l.approve_remark,
    approve_time: wireTime(l.approved_at),
    create_time: wireTime(l.created_at),
  };
}

/** A lease as its list shows it (the workflow's and the void's answer). */
export async function leaseRow(ctx: CommunityCtx, id: number): Promise<LeaseRow> {
  const l = await leaseQuery(ctx.db, ctx.rid).where('l.id', '=', id).executeTakeFirst();
  if (!l) fail('租约不存在');
  return toRow(l, ctx);
}

/* ---------- the list ---------- */

type Filters = HandlerInput<'leaseexport'>;

function filtered(ctx: { db: Kysely<DB>; rid: number; accountId: number }, f: Filters) {
  let qb = leaseQuery(ctx.db, ctx.rid);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    qb = qb.where((eb) =>
      eb.or([eb('l.lease_no', 'ilike', k), eb('l.tenant_name', 'ilike', k), eb('l.contact', 'ilike', k), eb('l.mobile', 'like', k)]),
    );
  }
  if (f.status) qb = qb.where('l.status', '=', f.status);
  if (f.approval_status) qb = qb.where('l.approval_status', '=', f.approval_status);
  if (f.hid || f.bid) {
    qb = qb.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('lease_rooms as lr')
          .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'lr.rid').onRef('r.id', '=', 'lr.hid'))
          .select(sql`1`.as('x'))
          .whereRef('lr.rid', '=', 'l.rid')
          .whereRef('lr.lease_id', '=', 'l.id')
          .$if(!!f.hid, (q) => q.where('lr.hid', '=', f.hid!))
          .$if(!!f.bid, (q) => q.where('r.bid', '=', f.bid!)),
      ),
    );
  }
  if (f.expiring) {
    const day = today();
    qb = qb.where('l.status', 'in', ['Y', 'X']).where('l.end_date', '>=', day).where('l.end_date', '<=', addDays(day, f.expiring));
  }
  if (f.end_date) qb = qb.where(withinDays('l.end_date', f.end_date));
  if (f.view === 'todo') {
    qb = qb.where('l.approval_status', '=', 'P').where(sql<boolean>`coalesce(l.submitted_by, l.created_by, 0) <> ${ctx.accountId}`);
  } else if (f.view === 'decided') qb = qb.where('l.approval_status', 'in', ['Y', 'B']).where('l.approver', '<>', '');
  else if (f.view === 'mine')
    qb = qb.where((eb) => eb.or([eb('l.created_by', '=', ctx.accountId), eb('l.submitted_by', '=', ctx.accountId)]));
  return qb;
}

const leaselist = defineMethod('leaselist', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary:
    '租约列表：编号、租户、房屋、租期与剩余天数、月租金、付款周期、押金、欠租、业务状态与审批状态；按关键字、状态、审批状态、楼栋、房屋、到期范围（30/60/90 天）、到期日期和审批视图（待我审批、已审批、我提交的）筛选',
  async handler(ctx, input) {
    const page = await listPage(filtered({ db: ctx.db, rid: ctx.rid, accountId: ctx.session.accountId }, input), input, 'l.id');
    return { total: page.total, items: page.items.map((l) => toRow(l, ctx)) };
  },
});

const leaseexport = defineExport('leaseexport', {
  roles: LEASE_ROLES.read,
  summary: '按当前筛选条件导出租约（Excel）',
  filename: () => `租约列表_${today()}.xlsx`,
  check: async (scope, input) => refuseOversizedExport(scope.db, filtered({ ...scope, accountId: 0 }, input)),
  async sheet(scope, input) {
    const rows = await filtered({ ...scope, accountId: 0 }, input)
      .orderBy('l.id', input.sort)
      .limit(EXPORT_MAX)
      .execute();
    const ctx = { session: { accountId: 0 } } as CommunityCtx;
    return sheetOf(
      '租约',
      [
        { header: '租约编号', value: (r: LeaseRow) => r.lease_no, width: 14 },
        { header: '租户', value: (r) => r.tenant_name, width: 20 },
        { header: '租户类型', value: (r) => r.tenant_kind_ch },
        { header: '联系人', value: (r) => r.contact },
        { header: '手机号', value: (r) => r.mobile, contact: 'mobile', width: 14 },
        { header: '房屋', value: (r) => r.address, width: 30 },
        { header: '开始日期', value: (r) => r.start_date, width: 12 },
        { header: '结束日期', value: (r) => r.end_date, width: 12 },
        { header: '计租方式', value: (r) => r.rent_mode_ch },
        { header: '月租金', value: (r) => r.monthly_rent },
        { header: '付款周期', value: (r) => r.cycle_months_ch },
        { header: '押金', value: (r) => r.deposit },
        { header: '押金状态', value: (r) => r.deposit_state_ch },
        { header: '租期总额', value: (r) => r.total_amount },
        { header: '欠租', value: (r) => r.overdue },
        { header: '业务状态', value: (r) => r.status_ch },
        { header: '审批状态', value: (r) => r.approval_status_ch },
        { header: '续租自', value: (r) => r.renew_of_no },
        { header: '创建人', value: (r) => r.creator },
        { header: '创建时间', value: (r) => r.create_time, width: 20 },
      ],
      rows.map((l) => toRow(l, ctx)),
    );
  },
});

const leaseinfo = defineMethod('leaseinfo', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '租约详情：租户、房屋、租期、租金与递增、免租期、其他费用、押金（已收、扣留、退还）、审批与退租结算',
  async handler(ctx, input): Promise<LeaseDetail> {
    const l = await leaseQuery(ctx.db, ctx.rid).where('l.id', '=', input.id).executeTakeFirst();
    if (!l) fail('租约不存在');
    const t = termsOf(l as unknown as LeaseTableRow);
    const signout = await ctx.db
      .selectFrom('lease_signouts')
      .select('settlement')
      .where('rid', '=', ctx.rid)
      .where('lease_id', '=', input.id)
      .executeTakeFirst();
    return {
      ...toRow(l, ctx),
      bill_ahead_days: l.bill_ahead_days,
      free_periods: [...t.free_periods],
      escalation_kind: t.escalation.kind,
      escalation_kind_ch: enumText(LEASE_ESCALATION, t.escalation.kind),
      escalation_value: t.escalation.value,
      escalation_years: t.escalation.every_years,
      charges: [...t.charges],
      remark: l.remark,
      deposit_kept: money2(l.deposit_kept),
      signout: signout ? json<LeaseSettlement>(signout.settlement) : null,
    };
  },
});

/* ---------- saving a lease: the rules ---------- */

type LeaseInput = HandlerInput<'leaseadd'>;

/** The tenant's identity checked: a person's ID number, a company's credit code; masked values kept from `before`. */
function tenantIdentity(input: LeaseInput, before?: LeaseTableRow) {
  const mobile = before
    ? unmasked('mobile', input.mobile, before.mobile, '手机号码格式不正确，应为11位手机号')
    : input.mobile.includes('*')
      ? fail('手机号码格式不正确，应为11位手机号')
      : input.mobile;
  let idCard = input.id_card;
  if (idCard.includes('*')) idCard = before ? unmasked('id_card', idCard, before.id_card, '证件号码不正确') : fail('证件号码不正确');
  else if (idCard && input.tenant_kind === 'P' && !isValidIdCard(idCard)) fail('身份证号码不正确');
  else if (idCard && input.tenant_kind === 'C' && !usccValid(idCard)) fail('统一社会信用代码不正确（18位，核对校验位）');
  return { mobile, id_card: idCard };
}

/**
 * The columns of a lease from its form, with every rule checked: the tenant, the rooms (locked, of
 * the community, not leased to anyone else over the term), the terms the schedule can draw.
 */
async function leaseValues(ctx: CommunityCtx, input: LeaseInput, before?: LeaseTableRow) {
  const identity = tenantIdentity(input, before);
  if (input.member_id) {
    const m = await ctx.db
      .selectFrom('members')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.member_id)
      .executeTakeFirst();
    if (!m) fail('所选住户不存在');
  }
  const rooms = await lockedRooms(ctx, input.hids);
  const areaFen = rooms.reduce((s, r) => s + toFen(String(r.built_area)), 0n);
  const area = fenToYuan(areaFen);
  if (input.rent_mode === 'A' && areaFen === 0n) fail('所选房屋没有建筑面积，不能按面积计租');
  const terms: LeaseTerms = {
    start: input.start_date,
    end: input.end_date,
    cycle_months: input.cycle_months,
    monthly_rent: monthlyRentOf(input.rent_mode, input.rent_price, area),
    bill_ahead_days: input.bill_ahead_days,
    free_periods: input.free_periods,
    escalation: { kind: input.escalation_kind, value: input.escalation_value, every_years: input.escalation_years },
    charges: input.charges,
  };
  const problem = leaseTermsProblem(terms);
  if (problem) fail(problem);
  await refuseOverlap(ctx, input.hids, input.start_date, input.end_date, before ? Number(before.id) : undefined);
  const schedule = leaseSchedule(terms);
  return {
    rooms,
    values: {
      tenant_kind: input.tenant_kind,
      tenant_name: input.tenant_name,
      contact: input.contact,
      ...identity,
      member_id: input.member_id ?? null,
      start_date: input.start_date,
      end_date: input.end_date,
      rent_mode: input.rent_mode,
      rent_price: input.rent_price,
      rent_area: area,
      monthly_rent: terms.monthly_rent,
      deposit: input.deposit,
      cycle_months: input.cycle_months as LeaseTableRow['cycle_months'],
      bill_ahead_days: input.bill_ahead_days,
      free_periods: JSON.stringify(input.free_periods),
      escalation_kind: input.escalation_kind,
      escalation_value: input.escalation_kind === 'none' ? '0.00' : input.escalation_value,
      escalation_years: input.escalation_years,
      charges: JSON.stringify(input.charges),
      total_amount: schedule.totals.all,
      remark: input.remark,
    },
  };
}

async function writeRooms(ctx: CommunityCtx, leaseId: number, rooms: Array<{ id: number; built_area: string }>) {
  await ctx.db.deleteFrom('lease_rooms').where('rid', '=', ctx.rid).where('lease_id', '=', leaseId).execute();
  await ctx.db
    .insertInto('lease_rooms')
    .values(
      rooms.map((r, i) => ({
        rid: ctx.rid,
        lease_id: leaseId,
        hid: r.id,
        sort: i,
        area: money2(r.built_area),
        created_by: ctx.session.accountId,
      })),
    )
    .execute();
}

/** Inserts a draft lease; answers its id and number. */
async function insertLease(ctx: CommunityCtx, input: LeaseInput, extra: { renew_of?: number; deposit_bill_id?: number | null } = {}) {
  const { rooms, values } = await leaseValues(ctx, input);
  const leaseNo = await nextLeaseNo(ctx.db, ctx.rid);
  const { id } = await ctx.db
    .insertInto('leases')
    .values({
      rid: ctx.rid,
      lease_no: leaseNo,
      ...values,
      renew_of: extra.renew_of ?? null,
      deposit_bill_id: extra.deposit_bill_id ?? null,
      creator: ctx.session.name,
      created_by: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeRooms(ctx, Number(id), rooms);
  return { id: Number(id), lease_no: leaseNo };
}

const leaseadd = defineMethod('leaseadd', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary:
    '新增租约（草稿）：租户（个人或企业，可选已登记住户）、一个或多个房屋（租期不能与房屋的其他租约重叠）、租期、租金（按月或按面积）、押金、付款周期与提前出账天数、免租期、递增、其他费用；编号由前缀和序号生成',
  async handler(ctx, input) {
    const lease = await insertLease(ctx, input);
    await writeFlowLog(ctx, leaseFlow.def, lease.id, { transition: 'create', from: '', to: 'N', input: { lease_no: lease.lease_no } });
    return reply(lease, `添加成功，租约编号 ${lease.lease_no}`);
  },
});

/** A draft may change; a lease in approval, in force or void may not (each says why). */
function refuseUnlessDraft(l: LeaseTableRow, doing: string) {
  if (l.status === 'C') fail('该租约已作废');
  if (l.status !== 'D') fail(`该租约已生效，不能${doing}`);
  if (l.approval_status === 'P') fail(`该租约正在审批中，不能${doing}`);
}

/** A renewal keeps the old lease's tenant, rooms and deposit, and starts the day after it ends. */
async function renewalInput(ctx: CommunityCtx, old: LeaseTableRow, input: LeaseInput): Promise<LeaseInput> {
  const start = addDays(old.end_date, 1);
  if (input.start_date !== start) fail(`续租租约须从原租约到期次日 ${start} 开始`);
  const rooms = await leaseRooms(ctx.db, ctx.rid, Number(old.id));
  return {
    ...input,
    tenant_kind: old.tenant_kind as LeaseInput['tenant_kind'],
    tenant_name: old.tenant_name,
    contact: old.contact,
    mobile: old.mobile,
    id_card: old.id_card,
    member_id: old.member_id === null ? undefined : Number(old.member_id),
    hids: rooms.map((r) => Number(r.hid)),
    deposit: money2(old.deposit),
  };
}

const leaseedit = defineMethod('leaseedit', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary: '修改租约：草稿或被退回的租约；审批中、已生效或已作废的拒绝（续租租约的租户、房屋、开始日期和押金沿用原租约）',
  async handler(ctx, { id, ...input }) {
    const before = await lockLease(ctx, id);
    refuseUnlessDraft(before, '修改');
    let payload: LeaseInput = input;
    if (before.renew_of !== null) {
      const old = await ctx.db
        .selectFrom('leases')
        .selectAll()
        .where('rid', '=', ctx.rid)
        .where('id', '=', before.renew_of)
        .executeTakeFirstOrThrow();
      payload = await renewalInput(ctx, old, input);
    }
    const { rooms, values } = await leaseValues(ctx, payload, before);
    await ctx.db.updateTable('leases').set(values).where('rid', '=', ctx.rid).where('id', '=', id).execute();
    await writeRooms(ctx, id, rooms);
    return reply({ id }, '保存成功');
  },
});

const rerent = defineMethod('rerent', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary:
    '续租：为生效、即将到期或已到期的租约起草一份新租约（草稿），租户、房屋和押金沿用原租约，从原租约到期次日开始；新租约审批通过后原租约为已续租，到期后结束',
  async handler(ctx, { id, ...input }) {
    const old = await lockLease(ctx, id);
    if (old.status === 'R') fail('该租约已续租');
    if (!(['Y', 'X', 'O'] as const).includes(old.status as 'Y')) fail(`该租约${enumText(LEASE_STATUS, old.status)}，不能续租`);
    const pending = await ctx.db
      .selectFrom('leases')
      .select('lease_no')
      .where('rid', '=', ctx.rid)
      .where('renew_of', '=', id)
      .where('status', '<>', 'C')
      .executeTakeFirst();
    if (pending) fail(`该租约已有续租租约 ${pending.lease_no}，请在其上修改或先作废`);
    const lease = await insertLease(ctx, await renewalInput(ctx, old, input), { renew_of: id, deposit_bill_id: old.deposit_bill_id });
    await writeFlowLog(ctx, leaseFlow.def, lease.id, { transition: 'renew', from: '', to: 'N', input: { lease_no: old.lease_no } });
    return reply(lease, `已起草续租租约 ${lease.lease_no}，请提交审批`);
  },
});

const leasevoid = defineMethod('leasevoid', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary: '作废：未生效的租约（草稿、审批中或被退回）；已生效的租约须办理退租',
  async handler(ctx, input) {
    const l = await lockLease(ctx, input.id);
    if (l.status === 'C') fail('该租约已作废');
    if (l.status !== 'D') fail('该租约已生效，不能作废，请办理退租');
    await ctx.db.updateTable('leases').set({ status: 'C' }).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    await writeFlowLog(ctx, leaseFlow.def, input.id, { transition: 'void', from: 'D', to: 'C', input: { reason: input.reason } });
    await leaseAuditBacklog.settle(ctx.db, ctx.rid, input.id, ctx.session.accountId);
    return reply(await leaseRow(ctx, input.id), '已作废');
  },
});

/* ---------- the approval ---------- */

/** Nobody approves a lease they drafted or submitted. */
function notOwnLease(ctx: CommunityCtx, l: Record<string, unknown>) {
  const own = [l.submitted_by, l.created_by].some((a) => a !== null && a !== undefined && Number(a) === ctx.session.accountId);
  if (own) fail('不能审批自己起草或提交的租约，请由其他有审批权限的人员处理');
}

const decided = (ctx: CommunityCtx, input: Record<string, unknown>) => ({
  approver: ctx.session.name,
  approve_remark: String(input.remark ?? ''),
  approved_at: sql<Date>`now()`,
});

const flowMethods = defineWorkflow(leaseFlow, {
  table: 'leases',
  answer: leaseRow,
  transitions: {
    submit: {
      run: async (ctx, row) => {
        const l = row as LeaseTableRow;
        if (l.status === 'C') fail('该租约已作废');
        const rooms = await leaseRooms(ctx.db, ctx.rid, Number(l.id));
        await lockedRooms(
          ctx,
          rooms.map((r) => Number(r.hid)),
        );
        await refuseOverlap(
          ctx,
          rooms.map((r) => Number(r.hid)),
          l.start_date,
          l.end_date,
          Number(l.id),
        );
        await billKeyClash(ctx.db, ctx.rid, l);
        await leaseAuditBacklog.raise(ctx.db, ctx.rid, {
          sourceId: Number(l.id),
          title: `审批租约 ${l.lease_no}：${l.tenant_name} ${rooms.map((r) => r.address).join('、')}`.slice(0, 100),
          content: `${l.start_date} 至 ${l.end_date}，月租金 ${money2(l.monthly_rent)} 元`,
          submitter: ctx.session,
        });
      },
      set: (ctx) => ({ submitted_by: ctx.session.accountId, approver: '', approve_remark: '', approved_at: null }),
      message: '已提交审批',
    },
    approve: {
      run: async (ctx, row) => {
        notOwnLease(ctx, row);
        await activateLease(ctx, row as LeaseTableRow);
        await leaseAuditBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: decided,
      message: '审批通过，租约已生效',
    },
    reject: {
      run: async (ctx, row, input) => {
        notOwnLease(ctx, row);
        if (!String(input.remark ?? '').trim()) fail('请填写退回原因');
        await leaseAuditBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: decided,
      message: '已退回',
    },
  },
  summaries: {
    leasesubmit: '提交租约审批（草稿或被退回的）：再查房屋租期不重叠，待办通知租赁审批人员',
    leaseapprove:
      '审批租约（不能审批自己起草或提交的）：通过则生效（租户登记为房屋的租户、押金出账、已到出账日的租金出账）；退回须填写原因，回到可修改状态',
  },
});

const leaselog = defineMethod('leaselog', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '租约的处理记录（时间线）：起草、提交、审批意见、生效、即将到期、续租、退租、作废',
  async handler(ctx, input) {
    const l = await ctx.db.selectFrom('leases').select('id').where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (!l) fail('租约不存在');
    const items = await flowLog(ctx.db, ctx.rid, leaseFlow.def, input.id);
    // the business steps move `status`: their states read in its words
    const business = new Set(['void', 'expiring', 'expired', 'renewed', 'ended', 'signout', 'activate']);
    return {
      items: items.map((i) =>
        business.has(i.transition)
          ? { ...i, from_state_ch: enumText(LEASE_STATUS, i.from_state), to_state_ch: enumText(LEASE_STATUS, i.to_state) }
          : i,
      ),
    };
  },
});

/* ---------- the schedule ---------- */

const leaseschedule = defineMethod('leaseschedule', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '一份租约的租金计划：各期起止、免租天数、递增档、租金、其他费用、出账日与应缴日，以及每期已出的账单和缴费状态',
  async handler(ctx, input) {
    const l = await ctx.db.selectFrom('leases').selectAll().where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (!l) fail('租约不存在');
    const s = leaseSchedule(termsOf(l));
    const bills = await ctx.db
      .selectFrom('lease_bills as lb')
      .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'lb.rid').onRef('b.id', '=', 'lb.bill_id'))
      .select(['lb.seq', 'lb.kind', 'lb.bill_id', 'b.title', 'b.fee', 'b.status'])
      .where('lb.rid', '=', ctx.rid)
      .where('lb.lease_id', '=', input.id)
      .where('lb.seq', '>', 0)
      .orderBy('lb.id')
      .execute();
    const ended = l.ended_on;
    return {
      ...s,
      monthly_rent: money2(l.monthly_rent),
      periods: s.periods.map((p) => {
        const own = bills
          .filter((b) => b.seq === p.seq)
          .map((b) => ({
            bill_id: Number(b.bill_id),
            kind: b.kind,
            kind_ch: enumText(LEASE_BILL_KIND, b.kind),
            title: b.title,
            fee: money2(b.fee),
            status: b.status,
            status_ch: enumText(BILL_STATUS, b.status),
          }));
        const state =
          ended && p.start > ended
            ? '已取消'
            : own.length === 0
              ? toFen(p.total) === 0n
                ? '无需缴费'
                : '未出账'
              : own.every((b) => b.status === 'Y')
                ? '已缴清'
                : '已出账';
        return { ...p, bills: own, state };
      }),
    };
  },
});

/* ---------- settings ---------- */

const leasesettings = defineMethod('leasesettings', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '租赁设置：编号前缀与下一序号、即将到期提醒天数、默认押金月数、默认提前出账天数、默认付款周期',
  async handler(ctx) {
    return settingsAnswer(await leaseSettingsOf(ctx.db, ctx.rid));
  },
});

const leasesettingsedit = defineMethod('leasesettingsedit', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: true,
  summary: '保存租赁设置；下一序号不能回到已用过的编号',
  async handler(ctx, input) {
    const used = await ctx.db
      .selectFrom('leases')
      .select('lease_no')
      .where('rid', '=', ctx.rid)
      .where('lease_no', '=', leaseNumber(input.number_prefix, input.next_seq))
      .executeTakeFirst();
    if (used) fail(`编号 ${used.lease_no} 已被使用，请调整前缀或下一序号`);
    await lockLeaseSettings(ctx.db, ctx.rid);
    await ctx.db
      .updateTable('lease_settings')
      .set({ ...input, cycle_months: input.cycle_months as LeaseTableRow['cycle_months'], created_by: ctx.session.accountId })
      .where('rid', '=', ctx.rid)
      .execute();
    return reply(settingsAnswer(await leaseSettingsOf(ctx.db, ctx.rid)), '保存成功');
  },
});

/* ---------- the form's pickers ---------- */

const leaseMemberSmallList = defineMethod('lease_member_small_list', {
  side: 'community',
  roles: LEASE_ROLES.write,
  writes: false,
  summary: '选择已登记住户作为租户：按姓名或手机号查找，最多 20 人',
  async handler(ctx, input) {
    if (!input.keyword) return { items: [] };
    const digits = input.keyword.replace(/\D/g, '');
    const rows = await ctx.db
      .selectFrom('members as m')
      .select(['m.id', 'm.realname', 'm.mobile', 'm.id_card'])
      .where('m.rid', '=', ctx.rid)
      .where((eb) =>
        digits.length >= 4 && digits === input.keyword ? eb('m.mobile', 'like', `${digits}%`) : keywordCondition(ctx.rid, input.keyword),
      )
      .orderBy('m.id')
      .limit(20)
      .execute();
    return {
      items: rows.map((m) => ({
        id: Number(m.id),
        title: `${m.realname}（${m.mobile}）`,
        realname: m.realname,
        mobile: m.mobile,
        id_card: m.id_card,
      })),
    };
  },
});

const leaseRoomSmallList = defineMethod('lease_room_small_list', {
  side: 'community',
  roles: LEASE_ROLES.read,
  writes: false,
  summary: '选择租赁房屋：按地址查找（商铺在前），含建筑面积和当前占用它的租约；hids answers those rooms',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('rooms as r')
      .leftJoin('room_categories as c', (j) => j.onRef('c.rid', '=', 'r.rid').onRef('c.id', '=', 'r.category_id'))
      .select([
        'r.id',
        'r.address',
        'r.built_area',
        sql<string>`coalesce((SELECT l.lease_no FROM lease_rooms lr JOIN leases l ON l.rid = lr.rid AND l.id = lr.lease_id
          WHERE lr.rid = r.rid AND lr.hid = r.id AND l.status IN ('D', 'Y', 'X', 'O', 'R') AND coalesce(l.ended_on, l.end_date) >= current_date
          ORDER BY l.start_date LIMIT 1), '')`.as('lease_no'),
      ])
      .where('r.rid', '=', ctx.rid);
    if (input.hids.length) qb = qb.where('r.id', 'in', input.hids);
    else if (input.keyword) qb = qb.where('r.address', 'ilike', likePattern(input.keyword));
    else qb = qb.where('c.kind', '=', 'shop');
    const rows = await qb
      .orderBy(sql`c.kind = 'shop'`, 'desc')
      .orderBy('r.building_sort')
      .orderBy('r.unit_sort')
      .orderBy('r.id')
      .limit(50)
      .execute();
    return {
      items: rows.map((r) => ({ id: Number(r.id), title: r.address, area: money2(r.built_area), lease_no: r.lease_no })),
    };
  },
});

export const leaseMethods = [
  leaselist,
  leaseexport,
  leaseinfo,
  leaseadd,
  leaseedit,
  rerent,
  leasevoid,
  ...flowMethods,
  leaselog,
  leaseschedule,
  leasesettings,
  leasesettingsedit,
  leaseMemberSmallList,
  leaseRoomSmallList,
];
