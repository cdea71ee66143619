/**
 * A contract's life and approvals (docs/product.md#crm-contracts): submitted (a type without
 * approval takes effect at once), approved or returned by `contractaudit` with an opinion (never by
 * who submitted it), terminated with a reason and a date, voided before it takes effect; renewed
 * (xzroomsales) as a new draft linked to it, which makes it 已续签 once in effect; changed after
 * approval only through an approved change request. Waiting approvals are to-dos (kind
 * contractaudit) until decided. contract_audit_list lists submissions and change requests alike;
 * contract_audit_info shows the whole trail.
 */
import {
  AUDIT_KIND,
  CHANGE_STATUS,
  CONTRACT_READERS,
  CONTRACT_STATUS,
  CRM_ROLES,
  addDays,
  contractChangeFlow,
  contractFlow,
  enumText,
  fenToYuan,
  hasAnyRole,
  toFen,
  type ChangeStatus,
  type ContractAuditRow,
  type ContractChangeRow,
  type ContractChangeValues,
  type ContractKind,
  type ContractStatus,
  type ContractTrailItem,
  type ValueEnum,
  type WorkflowDef,
  type InstalmentName,
} from '@wuye/contract';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { checkPlan, contractItem, contractUnits, insertDraft, loadType, refuseTaken } from './contracts.js';
import { logRenewed } from './contractsMoney.js';
import { syncUnitStates } from './contractsUnits.js';
import { markCustomerSigned } from './salesCustomers.js';

/** Approvals waiting: a contract submitted (its id) or a change request (change-<id>). */
const auditBacklog = registerBacklogSource({
  kind: 'contractaudit',
  roles: CRM_ROLES.contractAudit,
  link: (sourceId) =>
    sourceId.startsWith('change-') ? `/crm/contract_audit?change=${sourceId.slice(7)}` : `/crm/contract_audit?id=${sourceId}`,
  hours: 48,
});

/* eslint-disable @typescript-eslint/no-explicit-any -- a workflow's row is the table's row */
type Row = Record<string, any>;

/** An approver never decides what they submitted: a second person approves every contract and change. */
function notOwn(ctx: CommunityCtx, submitter: unknown, what: string): void {
  if (submitter !== null && submitter !== undefined && Number(submitter) === ctx.session.accountId) {
    fail(`不能审批自己提交的${what}，请由其他有审批权限的人员处理`);
  }
}

/** The contract's state and its units' states together: the units follow the contract at once. */
async function moveContract(ctx: CommunityCtx, id: number, to: ContractStatus): Promise<void> {
  await ctx.db
    .updateTable('contracts')
    .set({ status: to, updated_at: sql`now()` })
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .execute();
  await syncUnitStates(ctx.db, ctx.rid, [id]);
}

/** The units of a contract as unitTaken takes them. */
async function unitKeys(ctx: CommunityCtx, id: number) {
  return (await contractUnits(ctx.db, ctx.rid, id)).map((u) => ({ unit_kind: u.unit_kind, unit_id: u.unit_id }));
}

const asOfRow = (row: Row) => ({
  id: Number(row.id),
  kind: row.kind as ContractKind,
  parent_id: row.parent_id === null ? null : Number(row.parent_id),
  start_date: String(row.start_date),
  end_date: row.end_date === null ? null : String(row.end_date),
});

/**
 * A contract taking effect: its units are its own now (checked again), its renewal's parent
 * becomes 已续签, its sales customer moves to 签约, and the party is linked to the owner record of its mobile when none was chosen
 * (the owners area adds the buyer as the room's owner; the detail says when they are not yet).
 */
async function takeEffect(ctx: CommunityCtx, row: Row): Promise<void> {
  const id = Number(row.id);
  await refuseTaken(ctx.db, ctx.rid, asOfRow(row), await unitKeys(ctx, id));
  if (row.parent_id !== null) {
    const parent = await ctx.db
      .selectFrom('contracts')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(row.parent_id))
      .forUpdate()
      .executeTakeFirst();
    if (parent && (parent.status === 'Y' || parent.status === 'E')) {
      await moveContract(ctx, Number(parent.id), 'R');
      await logRenewed(ctx.db, ctx.rid, Number(parent.id), parent.status, String(row.contract_no));
    }
  }
  // the sales customer signs: the one drafted for, else the one of the party's mobile (the CRM's duplicate key)
  const customer =
    row.customer_id !== null
      ? { id: row.customer_id }
      : await ctx.db
          .selectFrom('crm_customers')
          .select('id')
          .where('rid', '=', ctx.rid)
          .where('mobile', '=', String(row.party_mobile))
          .executeTakeFirst();
  if (customer) {
    await ctx.db
      .updateTable('contracts')
      .set({ customer_id: Number(customer.id) })
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .execute();
    await markCustomerSigned(ctx.db, ctx.rid, Number(customer.id), String(row.contract_no), {
      accountId: ctx.session.accountId,
      name: ctx.session.name,
    });
  }
  if (row.member_id === null && row.party_mobile) {
    const m = await ctx.db
      .selectFrom('members')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('mobile', '=', String(row.party_mobile))
      .executeTakeFirst();
    if (m) await ctx.db.updateTable('contracts').set({ member_id: m.id }).where('rid', '=', ctx.rid).where('id', '=', id).execute();
  }
  await moveContract(ctx, id, 'Y');
}

const decided = (ctx: CommunityCtx) => ({ approved_by: ctx.session.accountId, approved_at: sql<Date>`now()` });

const flowMethods = defineWorkflow(contractFlow, {
  table: 'contracts',
  answer: contractItem,
  transitions: {
    submit: {
      async run(ctx, row) {
        const type = await loadType(ctx.db, ctx.rid, Number(row.type_id));
        await refuseTaken(ctx.db, ctx.rid, asOfRow(row), await unitKeys(ctx, Number(row.id)));
        if (type.need_audit === 'N') {
          await takeEffect(ctx, row);
          return;
        }
        await moveContract(ctx, Number(row.id), 'A');
        await auditBacklog.raise(ctx.db, ctx.rid, {
          sourceId: Number(row.id),
          title: `审批合同：${String(row.contract_no)} ${String(row.name)}`,
          content: `乙方 ${String(row.party_name)}，合同总额 ${fenToYuan(toFen(String(row.total_amount)))} 元`,
          submitter: ctx.session,
        });
      },
      to: async (ctx, row) => ((await loadType(ctx.db, ctx.rid, Number(row.type_id))).need_audit === 'N' ? 'Y' : 'A'),
      set: (ctx) => ({ submitted_by: ctx.session.accountId, submitted_at: sql<Date>`now()` }),
      message: '已提交审批',
    },
    approve: {
      async run(ctx, row) {
        notOwn(ctx, row.submitted_by, '合同');
        await takeEffect(ctx, row);
        await auditBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: decided,
      message: '审批通过，合同已生效',
    },
    reject: {
      async run(ctx, row, input) {
        notOwn(ctx, row.submitted_by, '合同');
        if (!String(input.opinion ?? '').trim()) fail('请填写退回意见');
        await moveContract(ctx, Number(row.id), 'D');
        await auditBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      message: '已退回，合同回到草稿',
    },
    terminate: {
      async run(ctx, row, input) {
        const date = String(input.date);
        if (date < String(row.start_date)) fail(`终止日期不能早于生效日期 ${String(row.start_date)}`);
        if (date > addDays(today(), 365)) fail('终止日期不能晚于一年以后');
        const pending = await ctx.db
          .selectFrom('contract_changes')
          .select('id')
          .where('rid', '=', ctx.rid)
          .where('contract_id', '=', Number(row.id))
          .where('status', '=', 'A')
          .executeTakeFirst();
        if (pending) fail('该合同有待审批的变更申请，请先处理');
        await moveContract(ctx, Number(row.id), 'T');
      },
      set: (_ctx, input) => ({ end_reason: String(input.reason), ended_on: String(input.date) }),
      message: '合同已终止',
    },
    void: {
      async run(ctx, row) {
        await moveContract(ctx, Number(row.id), 'V');
        if (row.status === 'A') await auditBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: (_ctx, input) => ({ end_reason: String(input.reason), ended_on: today() }),
      message: '合同已作废',
    },
  },
  logRoles: CONTRACT_READERS,
  summaries: {
    contractsubmit: '提交合同审批（草稿 → 审批中，生成审批待办）；类型无需审批时直接生效',
    contractaudit: '审批合同（contractaudit，不能审批自己提交的）：通过则生效（续签合同生效时原合同为已续签），或退回草稿（须填写意见）',
    contractterminate: '终止合同（生效或到期）：原因与日期；尚未出账的款项不再生成账单',
    contractvoid: '作废合同（草稿或审批中）：原因；房源释放',
    contractlog: '合同的处理记录：起草、提交、通过、退回、到期、续签、变更、终止、作废',
  },
});

// ---- renewal (xzroomsales) ------------------------------------------------------------------

const contractrenew = defineMethod('contractrenew', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary:
    '续签：以生效或到期的合同为模板起草新合同（草稿，关联原合同）：同乙方、房源与价格，生效日期为原结束日次日；新合同生效时原合同为已续签',
  async handler(ctx, input) {
    const c = await ctx.db
      .selectFrom('contracts')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!c) return fail('合同不存在');
    if (c.status !== 'Y' && c.status !== 'E') fail('只有生效或到期的合同可以续签');
    const open = await ctx.db
      .selectFrom('contracts')
      .select('contract_no')
      .where('rid', '=', ctx.rid)
      .where('parent_id', '=', c.id)
      .where('status', 'in', ['D', 'A', 'Y'])
      .executeTakeFirst();
    if (open) fail(`该合同已有续签合同 ${open.contract_no}`);
    const type = await loadType(ctx.db, ctx.rid, Number(c.type_id));
    const units = await contractUnits(ctx.db, ctx.rid, Number(c.id));
    const start = c.end_date ? addDays(c.end_date, 1) : today();
    // the new term as long as the old one; the plan one instalment of the total at the start, to be edited
    const end = c.end_date
      ? addDays(start, Math.max(0, Math.round((Date.parse(c.end_date) - Date.parse(c.start_date)) / 86_400_000)))
      : null;
    const total = fenToYuan(toFen(c.total_amount));
    const made = await insertDraft(
      ctx,
      {
        contract_no: '',
        name: `${c.name}（续签）`.slice(0, 64),
        type_id: type.status === 'Y' ? type.id : fail(`合同类型「${type.name}」已停用，不能续签`),
        party_name: c.party_name,
        party_mobile: c.party_mobile,
        party_id_card: c.party_id_card,
        member_id: c.member_id === null ? undefined : Number(c.member_id),
        customer_id: c.customer_id === null ? undefined : Number(c.customer_id),
        units: units.map((u) => ({ unit_kind: u.unit_kind, unit_id: u.unit_id, area: u.area, price: u.price })),
        total_amount: total,
        instalments: toFen(total) > 0n ? [{ id: undefined, name: '其他', amount: total, due_date: start }] : [],
        sign_date: today(),
        start_date: start,
        end_date: end,
        custom: c.custom as Record<string, string | number>,
        remark: '',
      },
      { parent_id: Number(c.id), step: 'renew', log: { from_no: c.contract_no } },
    );
    return reply(made, `已起草续签合同 ${made.contract_no}，请核对条款与收款计划后提交审批`);
  },
});

// ---- change requests --------------------------------------------------------------------------

const CHANGE_LABELS: Record<Exclude<keyof ContractChangeValues, 'instalments'>, string> = {
  party_name: '乙方',
  party_mobile: '联系电话',
  party_id_card: '证件号码',
  total_amount: '合同总额',
  sign_date: '签订日期',
  start_date: '生效日期',
  end_date: '结束日期',
};

const planText = (plan: ContractChangeValues['instalments']) =>
  plan.map((i) => `${i.name} ${fenToYuan(toFen(i.amount))} 元（${i.due_date}）`).join('；');

/** The changed items in words. */
function diffOf(before: ContractChangeValues, after: ContractChangeValues): ContractChangeRow['diff'] {
  const out: ContractChangeRow['diff'] = [];
  for (const [key, label] of Object.entries(CHANGE_LABELS) as Array<[keyof typeof CHANGE_LABELS, string]>) {
    const [b, a] = [before[key] ?? '', after[key] ?? ''];
    if (String(b) !== String(a)) out.push({ label, before: String(b) || '（空）', after: String(a) || '（空）' });
  }
  const [pb, pa] = [planText(before.instalments), planText(after.instalments)];
  if (pb !== pa) out.push({ label: '收款计划', before: pb || '（无）', after: pa || '（无）' });
  return out;
}

/** What a contract holds now of what a change may change. */
async function currentValues(
  db: Kysely<DB>,
  rid: number,
  id: number,
): Promise<ContractChangeValues & { status: string; kind: ContractKind }> {
  const c = await db.selectFrom('contracts').selectAll().where('rid', '=', rid).where('id', '=', id).executeTakeFirst();
  if (!c) return fail('合同不存在');
  const plan = await db
    .selectFrom('contract_instalments')
    .select(['id', 'name', 'amount', sql<string>`due_date::text`.as('due_date')])
    .where('rid', '=', rid)
    .where('contract_id', '=', id)
    .orderBy('due_date')
    .orderBy('seq')
    .execute();
  return {
    status: c.status,
    kind: c.kind,
    party_name: c.party_name,
    party_mobile: c.party_mobile,
    party_id_card: c.party_id_card,
    total_amount: fenToYuan(toFen(c.total_amount)),
    sign_date: c.sign_date,
    start_date: c.start_date,
    end_date: c.end_date,
    instalments: plan.map((i) => ({
      id: Number(i.id),
      name: i.name as InstalmentName,
      amount: fenToYuan(toFen(i.amount)),
      due_date: i.due_date,
    })),
  };
}

/**
 * A billed instalment stays as it is: it keeps its name, amount and due date in the new plan.
 * Answers the new plan's instalments that replace unbilled ones or are new.
 */
async function checkBilledKept(db: Kysely<DB>, rid: number, contractId: number, after: ContractChangeValues['instalments']): Promise<void> {
  const plan = await db
    .selectFrom('contract_instalments')
    .select(['id', 'seq', 'name', 'amount', sql<string>`due_date::text`.as('due_date'), 'bill_id'])
    .where('rid', '=', rid)
    .where('contract_id', '=', contractId)
    .execute();
  const byId = new Map(plan.map((i) => [Number(i.id), i]));
  for (const a of after) if (a.id !== undefined && !byId.has(a.id)) fail('收款计划中的款项不存在，请刷新后重试');
  for (const i of plan) {
    if (i.bill_id === null) continue;
    const kept = after.find((a) => a.id === Number(i.id));
    if (!kept || kept.name !== i.name || toFen(kept.amount) !== toFen(i.amount) || kept.due_date !== i.due_date) {
      fail(`第 ${i.seq} 期（${i.name}）已出账，不能修改或删除`);
    }
  }
}

const contractchangeadd = defineMethod('contractchangeadd', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary: '提交合同变更（生效或到期的合同）：乙方、金额、收款计划（合计须等于总额，已出账的款项不能改）、日期；审批通过后才写入合同',
  async handler(ctx, input) {
    const { id, reason, ...values } = input;
    const c = await ctx.db
      .selectFrom('contracts')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!c) return fail('合同不存在');
    if (c.status !== 'Y' && c.status !== 'E') fail('只有生效或到期的合同可以变更；草稿请直接修改');
    const pending = await ctx.db
      .selectFrom('contract_changes')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('contract_id', '=', id)
      .where('status', '=', 'A')
      .executeTakeFirst();
    if (pending) fail('该合同已有待审批的变更申请');
    const before = await currentValues(ctx.db, ctx.rid, id);
    const after: ContractChangeValues = {
      ...values,
      instalments: [...values.instalments].sort((a, b) => a.due_date.localeCompare(b.due_date)),
    };
    checkPlan(before.kind, after.total_amount, after.instalments);
    await checkBilledKept(ctx.db, ctx.rid, id, after.instalments);
    const { status: _s, kind: _k, ...was } = before;
    if (diffOf(was, after).length === 0) fail('变更内容与合同现状相同');
    const row = await ctx.db
      .insertInto('contract_changes')
      .values({
        rid: ctx.rid,
        contract_id: id,
        reason,
        before: JSON.stringify(was),
        after: JSON.stringify(after),
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const changeId = Number(row.id);
    await writeFlowLog(ctx, contractChangeFlow.def, changeId, { transition: 'create', from: '', to: 'A', input: { reason } });
    const no = await ctx.db
      .selectFrom('contracts')
      .select(['contract_no', 'name'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await auditBacklog.raise(ctx.db, ctx.rid, {
      sourceId: `change-${changeId}`,
      title: `审批合同变更：${no.contract_no} ${no.name}`,
      content: reason,
      submitter: ctx.session,
    });
    return reply({ id: changeId }, '已提交变更申请，审批通过后生效');
  },
});

/** Writes an approved change into its contract: the values, and the plan (billed instalments as they were). */
async function applyChange(ctx: CommunityCtx, change: Row): Promise<void> {
  const contractId = Number(change.contract_id);
  const c = await ctx.db
    .selectFrom('contracts')
    .select(['status', 'kind'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', contractId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (c.status !== 'Y' && c.status !== 'E') fail(`合同已${enumText(CONTRACT_STATUS, c.status)}，该变更不能通过，请退回`);
  const after = (typeof change.after === 'string' ? JSON.parse(change.after) : change.after) as ContractChangeValues;
  checkPlan(c.kind, after.total_amount, after.instalments);
  // an instalment billed since the request was made is kept as billed: a change touching it is refused
  await checkBilledKept(ctx.db, ctx.rid, contractId, after.instalments);
  const { instalments, ...fields } = after;
  await ctx.db
    .updateTable('contracts')
    .set({ ...fields, updated_at: sql`now()` })
    .where('rid', '=', ctx.rid)
    .where('id', '=', contractId)
    .execute();
  const keep = instalments.filter((i) => i.id !== undefined).map((i) => i.id!);
  await ctx.db
    .deleteFrom('contract_instalments')
    .where('rid', '=', ctx.rid)
    .where('contract_id', '=', contractId)
    .where('bill_id', 'is', null)
    .$if(keep.length > 0, (q) => q.where('id', 'not in', keep))
    .execute();
  // numbered after the kept ones: seq names an instalment for good
  const last = await ctx.db
    .selectFrom('contract_instalments')
    .select(sql<number>`coalesce(max(seq), 0)::int`.as('n'))
    .where('rid', '=', ctx.rid)
    .where('contract_id', '=', contractId)
    .executeTakeFirstOrThrow();
  let seq = Number(last.n);
  for (const i of instalments) {
    if (i.id !== undefined) {
      await ctx.db
        .updateTable('contract_instalments')
        .set({ name: i.name, amount: i.amount, due_date: i.due_date, bill_note: '' })
        .where('rid', '=', ctx.rid)
        .where('id', '=', i.id)
        .where('bill_id', 'is', null)
        .execute();
    } else {
      await ctx.db
        .insertInto('contract_instalments')
        .values({
          rid: ctx.rid,
          contract_id: contractId,
          seq: ++seq,
          name: i.name,
          amount: i.amount,
          due_date: i.due_date,
          created_by: ctx.session.accountId,
        })
        .execute();
    }
  }
  await writeFlowLog(ctx, contractFlow.def, contractId, {
    transition: 'change',
    from: c.status,
    to: c.status,
    input: { change_id: Number(change.id) },
  });
}

function changeQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('contract_changes as g')
    .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'g.rid').onRef('c.id', '=', 'g.contract_id'))
    .leftJoin('accounts as a', 'a.id', 'g.created_by')
    .leftJoin('accounts as d', 'd.id', 'g.decided_by')
    .selectAll('g')
    .select(['c.contract_no', 'c.name as contract_name', 'a.name as applicant', 'd.name as decider'])
    .where('g.rid', '=', rid);
}
type ChangeRaw = Awaited<ReturnType<ReturnType<typeof changeQuery>['executeTakeFirstOrThrow']>>;

function toChangeRow(g: ChangeRaw, ctx: CommunityCtx): ContractChangeRow {
  const before = g.before as unknown as ContractChangeValues;
  const after = g.after as unknown as ContractChangeValues;
  return {
    id: Number(g.id),
    contract_id: Number(g.contract_id),
    contract_no: g.contract_no,
    contract_name: g.contract_name,
    status: g.status as ChangeStatus,
    status_ch: enumText(CHANGE_STATUS, g.status),
    reason: g.reason,
    before,
    after,
    diff: diffOf(before, after),
    applicant: g.applicant ?? '',
    mine: g.created_by !== null && Number(g.created_by) === ctx.session.accountId,
    decider: g.decider ?? '',
    opinion: g.opinion,
    create_time: wireTime(g.created_at),
    decide_time: wireTime(g.decided_at),
  };
}

async function changeRow(ctx: CommunityCtx, id: number): Promise<ContractChangeRow> {
  const g = await changeQuery(ctx.db, ctx.rid).where('g.id', '=', id).executeTakeFirst();
  if (!g) return fail('合同变更不存在');
  return toChangeRow(g, ctx);
}

const changeDecided = (ctx: CommunityCtx, input: Row) => ({
  decided_by: ctx.session.accountId,
  decided_at: sql<Date>`now()`,
  opinion: String(input.opinion ?? ''),
});

const changeMethods = defineWorkflow(contractChangeFlow, {
  table: 'contract_changes',
  answer: changeRow,
  transitions: {
    approve: {
      async run(ctx, row) {
        notOwn(ctx, row.created_by, '变更申请');
        await applyChange(ctx, row);
        await auditBacklog.settle(ctx.db, ctx.rid, `change-${Number(row.id)}`, ctx.session.accountId);
      },
      set: changeDecided,
      message: '变更已通过并写入合同',
    },
    reject: {
      async run(ctx, row, input) {
        notOwn(ctx, row.created_by, '变更申请');
        if (!String(input.opinion ?? '').trim()) fail('请填写退回意见');
        await auditBacklog.settle(ctx.db, ctx.rid, `change-${Number(row.id)}`, ctx.session.accountId);
      },
      set: changeDecided,
      message: '已退回变更申请，合同不变',
    },
  },
  logRoles: CONTRACT_READERS,
  summaries: {
    contractchangeaudit:
      '审批合同变更（contractaudit，不能审批自己提交的）：通过则写入合同（已出账的款项保持不变），或退回（须填写意见，合同不变）',
    contractchangelog: '一条合同变更的处理记录',
  },
});

const contractchangelist = defineMethod('contractchangelist', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '合同变更申请列表（某合同的或全部）：原因、变更内容前后对比、状态、申请人、审批人与意见',
  async handler(ctx, input) {
    let qb = changeQuery(ctx.db, ctx.rid);
    if (input.contract_id) qb = qb.where('g.contract_id', '=', input.contract_id);
    if (input.status) qb = qb.where('g.status', '=', input.status);
    const page = await listPage(qb, input, 'g.id');
    return { total: page.total, items: page.items.map((g) => toChangeRow(g, ctx)) };
  },
});

const contractchangeinfo = defineMethod('contractchangeinfo', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '一条合同变更申请：变更前后与差异',
  handler: (ctx, input) => changeRow(ctx, input.id),
});

// ---- contract_audit_list and contract_audit_info -----------------------------------------------

interface AuditRaw {
  kind: 'contract' | 'change';
  id: string;
  contract_id: string;
  contract_no: string;
  name: string;
  type_name: string;
  party_name: string;
  total_amount: string;
  status: string;
  submitter_id: string | null;
  submitter: string | null;
  submit_time: Date;
  decider: string | null;
  decider_id: string | null;
  decide_time: Date | null;
  opinion: string | null;
}

/** Contracts submitted and change requests as one list (alias a), each with its last decision. */
function auditRows(db: Kysely<DB>, rid: number) {
  const decision = (flow: string, rowId: string) => sql`LEFT JOIN LATERAL (
      SELECT w.operator, w.created_by, w.created_at, w.input->>'opinion' AS opinion FROM workflow_logs w
      WHERE w.rid = ${rid} AND w.flow = ${flow} AND w.row_id = ${sql.raw(rowId)} AND w.transition IN ('approve', 'reject')
      ORDER BY w.id DESC LIMIT 1) d ON true`;
  const rows = sql<AuditRaw>`(
    SELECT 'contract'::text AS kind, c.id, c.id AS contract_id, c.contract_no, c.name, ty.name AS type_name, c.party_name,
      c.total_amount::text AS total_amount, c.status::text AS status, c.submitted_by AS submitter_id, sa.name AS submitter,
      c.submitted_at AS submit_time, d.operator AS decider, d.created_by AS decider_id, d.created_at AS decide_time, d.opinion
    FROM contracts c JOIN contract_types ty ON ty.rid = c.rid AND ty.id = c.type_id
    LEFT JOIN accounts sa ON sa.id = c.submitted_by
    ${decision('contract', 'c.id')}
    WHERE c.rid = ${rid} AND c.submitted_at IS NOT NULL
    UNION ALL
    SELECT 'change', g.id, g.contract_id, c.contract_no, c.name, ty.name, g.after->>'party_name',
      (g.after->>'total_amount'), g.status::text, g.created_by, sa.name,
      g.created_at, d.operator, d.created_by, d.created_at, d.opinion
    FROM contract_changes g JOIN contracts c ON c.rid = g.rid AND c.id = g.contract_id
    JOIN contract_types ty ON ty.rid = c.rid AND ty.id = c.type_id
    LEFT JOIN accounts sa ON sa.id = g.created_by
    ${decision('contractchange', 'g.id')}
    WHERE g.rid = ${rid}
  )`;
  return db.selectFrom(rows.as('a')).selectAll('a');
}

const contractauditlist = defineMethod('contractauditlist', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '合同审批列表：提交的合同与变更申请；待我审批（不含自己提交的）、我已审批、我发起的、全部；类型、关键字；待审批数',
  async handler(ctx, input) {
    const me = ctx.session.accountId;
    const approver = hasAnyRole(ctx.session.roles, CRM_ROLES.contractAudit);
    const waitingSql = sql<SqlBool>`a.status = 'A' AND (a.submitter_id IS NULL OR a.submitter_id <> ${me})`;
    let qb = auditRows(ctx.db, ctx.rid);
    if (input.tab === 'todo') qb = approver ? qb.where(waitingSql) : qb.where(sql<SqlBool>`false`);
    if (input.tab === 'done') qb = qb.where(sql<SqlBool>`a.decider_id = ${me}`);
    if (input.tab === 'mine') qb = qb.where(sql<SqlBool>`a.submitter_id = ${me}`);
    if (input.kind) qb = qb.where(sql<SqlBool>`a.kind = ${input.kind}`);
    if (input.keyword) {
      const k = likePattern(input.keyword);
      qb = qb.where(sql<SqlBool>`(a.contract_no LIKE ${k} OR a.name LIKE ${k} OR a.party_name LIKE ${k})`);
    }
    const [page, waiting] = await Promise.all([
      listPage(qb, input, 'a.submit_time'),
      approver
        ? auditRows(ctx.db, ctx.rid)
            .clearSelect()
            .select(sql<number>`count(*)::int`.as('n'))
            .where(waitingSql)
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.n))
        : Promise.resolve(0),
    ]);
    return {
      total: page.total,
      waiting,
      items: page.items.map((a): ContractAuditRow => {
        const states: ValueEnum = a.kind === 'contract' ? CONTRACT_STATUS : CHANGE_STATUS;
        const mine = a.submitter_id !== null && Number(a.submitter_id) === me;
        return {
          key: `${a.kind}-${a.id}`,
          kind: a.kind,
          kind_ch: enumText(AUDIT_KIND, a.kind),
          id: Number(a.id),
          contract_id: Number(a.contract_id),
          contract_no: a.contract_no,
          name: a.name,
          type_name: a.type_name,
          party_name: a.party_name ?? '',
          total_amount: fenToYuan(toFen(a.total_amount)),
          status: a.status,
          status_ch: enumText(states, a.status),
          submitter: a.submitter ?? '',
          submit_time: wireTime(a.submit_time),
          decider: a.decider ?? '',
          decide_time: wireTime(a.decide_time),
          opinion: a.opinion ?? '',
          waiting: approver && a.status === 'A' && !mine,
          mine,
        };
      }),
    };
  },
});

const contractauditinfo = defineMethod('contractauditinfo', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '合同审批记录：合同与其变更申请的全部步骤（起草、提交、通过、退回、变更、到期、续签、终止、作废），谁、何时、意见',
  async handler(ctx, input) {
    const contract = await contractItem(ctx, input.id);
    const changes = await changeQuery(ctx.db, ctx.rid).where('g.contract_id', '=', input.id).orderBy('g.id').execute();
    const changeIds = changes.map((g) => Number(g.id));
    const logs = await ctx.db
      .selectFrom('workflow_logs')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where((eb) =>
        eb.or([
          eb.and([eb('flow', '=', contractFlow.def.name), eb('row_id', '=', input.id)]),
          ...(changeIds.length ? [eb.and([eb('flow', '=', contractChangeFlow.def.name), eb('row_id', 'in', changeIds)])] : []),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const trail = logs.map((w): ContractTrailItem => {
      const def: WorkflowDef = w.flow === contractFlow.def.name ? contractFlow.def : contractChangeFlow.def;
      const input = (typeof w.input === 'string' ? JSON.parse(w.input) : w.input) as Record<string, unknown>;
      const label = def.transitions[w.transition]?.label ?? def.steps?.[w.transition] ?? w.transition;
      return {
        id: Number(w.id),
        flow: w.flow as ContractTrailItem['flow'],
        change_id: w.flow === contractChangeFlow.def.name ? Number(w.row_id) : null,
        transition: w.transition,
        transition_ch: w.flow === contractChangeFlow.def.name ? `变更：${label}` : label,
        from_state: w.from_state,
        from_state_ch: enumText(def.states, w.from_state),
        to_state: w.to_state,
        to_state_ch: enumText(def.states, w.to_state),
        input,
        opinion: String(input.opinion ?? input.reason ?? ''),
        operator: w.operator,
        create_time: wireTime(w.created_at),
      };
    });
    return { contract, trail, changes: changes.map((g) => toChangeRow(g, ctx)) };
  },
});

export const flowMethodList = [
  ...flowMethods,
  contractrenew,
  contractchangeadd,
  ...changeMethods,
  contractchangelist,
  contractchangeinfo,
  contractauditlist,
  contractauditinfo,
];
