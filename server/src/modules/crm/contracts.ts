/**
 * Room-sales and other contracts (docs/product.md#crm-contracts): the contract types with their
 * numbering and custom fields, and the contracts as a resource: drafted with their units, payment
 * plan and custom values, edited while a draft, deleted only as a draft. The workflow, changes and
 * renewals are contractsFlow.ts; the money contractsMoney.ts; the units' states contractsUnits.ts.
 */
import {
  CONTRACT_KIND,
  CONTRACT_READERS,
  CONTRACT_TYPE_READERS,
  CONTRACT_STATUS,
  CRM_ROLES,
  contractFlow,
  contractType,
  enumText,
  fenToYuan,
  roomSales,
  toFen,
  type ContractDetail,
  type ContractItem,
  type ContractKind,
  type ContractStatus,
  type ContractTypeItem,
  type ContractUnitInput,
  type ContractUnitRow,
  type CustomFieldDef,
  type InstalmentInput,
  type NumberDateFormat,
} from '@wuye/contract';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';
import { addDays } from '@wuye/contract';
import { today, wireTime } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { instalmentRows } from './contractsMoney.js';
import { syncUnitStates, unitTaken, unitTitle } from './contractsUnits.js';

// ---- contract types ------------------------------------------------------------------------

/** The stem of a number: prefix and the day in the type's date format. */
export function numberStem(t: { prefix: string; date_format: string }, day: string): string {
  const digits = day.replace(/-/g, '');
  const date = ({ YYYYMMDD: digits, YYYYMM: digits.slice(0, 6), YYYY: digits.slice(0, 4), none: '' } as Record<NumberDateFormat, string>)[
    t.date_format as NumberDateFormat
  ];
  return `${t.prefix}${date ?? ''}`;
}

/** The next number of a type's rule on a day: its stem and a sequence kept per type and stem, skipping numbers typed in by hand. */
export async function nextContractNo(
  db: Kysely<DB>,
  rid: number,
  t: { id: number; prefix: string; date_format: string; seq_len: number },
  day: string,
): Promise<string> {
  const stem = numberStem(t, day);
  for (let i = 0; i < 1000; i++) {
    const res = await sql<{ last_no: number }>`
      INSERT INTO contract_number_seqs (rid, type_id, stem, last_no) VALUES (${rid}, ${t.id}, ${stem}, 1)
      ON CONFLICT (rid, type_id, stem) DO UPDATE SET last_no = contract_number_seqs.last_no + 1
      RETURNING last_no`.execute(db);
    const no = `${stem}${String(res.rows[0]!.last_no).padStart(t.seq_len, '0')}`;
    const taken = await db.selectFrom('contracts').select('id').where('rid', '=', rid).where('contract_no', '=', no).executeTakeFirst();
    if (!taken) return no;
  }
  return fail('合同编号已用尽，请修改该类型的编号规则');
}

/** Gives the new fields of a type their keys (f1, f2…); a field keeps its key for good, so the answers keep their field. */
function keyFields(fields: CustomFieldDef[]): CustomFieldDef[] {
  let next = fields.reduce((max, f) => Math.max(max, f.key ? Number(f.key.slice(1)) : 0), 0);
  const seen = new Set<string>();
  return fields.map((f) => {
    const key = f.key && !seen.has(f.key) ? f.key : `f${++next}`;
    seen.add(key);
    return { key, label: f.label, type: f.type, required: f.required, options: f.type === 'select' ? f.options : [] };
  });
}

const typeMethods = defineResource(contractType, {
  table: 'contract_types',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('contract_types as t')
      .selectAll('t')
      .select(sql<number>`(SELECT count(*)::int FROM contracts c WHERE c.rid = t.rid AND c.type_id = t.id)`.as('used'))
      .where('t.rid', '=', rid),
  row: (r: Record<string, unknown>): ContractTypeItem & { fields_text: string } => {
    const fields = (r.fields ?? []) as CustomFieldDef[];
    const out = { ...(r as unknown as ContractTypeItem), id: Number(r.id), used: Number(r.used ?? 0), fields };
    delete (out as Record<string, unknown>).created_by;
    return {
      ...out,
      example_no: `${numberStem(out, today())}${'1'.padStart(out.seq_len, '0')}`,
      fields_text: fields.map((f) => `${f.label}${f.required ? '*' : ''}`).join('、'),
    };
  },
  order: (p) => [sql.ref(`${p}sort`)],
  small: { label: 'name', order: ['sort', 'id'] },
  unique: [{ on: ['name'], message: (v) => `合同类型「${String(v.name)}」已存在` }],
  values: (input, ctx, before) => {
    const fields = keyFields(input.fields as CustomFieldDef[]);
    // a field's key is the server's: one the type never had is refused rather than taken
    const had = new Set(((before?.fields ?? []) as CustomFieldDef[]).map((f) => f.key));
    for (const f of input.fields as CustomFieldDef[]) if (f.key && !had.has(f.key)) fail('自定义字段不正确，请刷新后重试');
    return { ...input, fields: JSON.stringify(fields), ...(before ? {} : { created_by: ctx.session.accountId }) };
  },
  check: async (ctx, values, before) => {
    if (before && before.kind !== values.kind) {
      const used = await ctx.db
        .selectFrom('contracts')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('type_id', '=', Number(before.id))
        .executeTakeFirst();
      if (used) fail('该类型已有合同，不能修改类别');
    }
  },
  dependents: { contracts: '该合同类型下已有合同，不能删除，可改为停用' },
  replace: {
    // the dropdown of the contract form: the running types, the kind beside the name
    small: defineMethod('contracttype_small_list', {
      side: 'community',
      roles: CONTRACT_TYPE_READERS,
      writes: false,
      summary: '启用的合同类型（下拉），带类别、是否需要审批与自定义字段',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('contract_types')
          .select(['id', 'name', 'kind', 'need_audit', 'fields'])
          .where('rid', '=', ctx.rid)
          .where('status', '=', 'Y')
          .orderBy('sort')
          .orderBy('id')
          .execute();
        return {
          items: rows.map((r) => ({
            id: Number(r.id),
            title: `${r.name}（${enumText(CONTRACT_KIND, r.kind)}）`,
            name: r.name,
            kind: r.kind,
            need_audit: r.need_audit,
            fields: r.fields as unknown as CustomFieldDef[],
          })),
        };
      },
    }),
  },
});

// ---- contracts: the list's rows --------------------------------------------------------------

/** The contracts of a community with what the list shows beside their columns (alias t). */
export function contractQuery(db: Kysely<DB>, rid: number) {
  const day = today();
  return db
    .selectFrom('contracts as t')
    .innerJoin('contract_types as ty', (j) => j.onRef('ty.rid', '=', 't.rid').onRef('ty.id', '=', 't.type_id'))
    .leftJoin('contracts as pa', (j) => j.onRef('pa.rid', '=', 't.rid').onRef('pa.id', '=', 't.parent_id'))
    .leftJoin('accounts as cr', 'cr.id', 't.created_by')
    .leftJoin('crm_customers as cu', (j) => j.onRef('cu.rid', '=', 't.rid').onRef('cu.id', '=', 't.customer_id'))
    .selectAll('t')
    .select(['ty.name as type_name', 'ty.need_audit', 'pa.contract_no as parent_no', 'cr.name as creator', 'cu.name as customer_name'])
    .select([
      sql<string>`coalesce((SELECT string_agg(CASE WHEN u.unit_kind = 'room' THEN r.address ELSE l.title || '-' || s.title END, '、' ORDER BY u.sort, u.id)
        FROM contract_units u LEFT JOIN rooms r ON r.rid = u.rid AND r.id = u.hid
        LEFT JOIN parking_spaces s ON s.rid = u.rid AND s.id = u.space_id LEFT JOIN parking_lots l ON l.rid = s.rid AND l.id = s.lot_id
        WHERE u.rid = t.rid AND u.contract_id = t.id), '')`.as('units_text'),
      sql<
        number | null
      >`(SELECT coalesce(u.hid, s.hid) FROM contract_units u LEFT JOIN parking_spaces s ON s.rid = u.rid AND s.id = u.space_id
        WHERE u.rid = t.rid AND u.contract_id = t.id AND coalesce(u.hid, s.hid) IS NOT NULL ORDER BY u.unit_kind, u.sort, u.id LIMIT 1)`.as(
        'hid',
      ),
      sql<string>`(SELECT coalesce(sum(i.amount), 0)::text FROM contract_instalments i
        WHERE i.rid = t.rid AND i.contract_id = t.id AND i.paid_at IS NOT NULL AND i.refunded = 'N')`.as('paid_amount'),
      sql<string>`(SELECT coalesce(sum(i.amount), 0)::text FROM contract_instalments i
        WHERE i.rid = t.rid AND i.contract_id = t.id AND i.paid_at IS NULL AND i.due_date < ${day}::date AND t.status IN ('Y', 'E', 'R', 'T'))`.as(
        'overdue_amount',
      ),
      sql<string | null>`(SELECT min(i.due_date)::text FROM contract_instalments i
        WHERE i.rid = t.rid AND i.contract_id = t.id AND i.paid_at IS NULL AND i.refunded = 'N')`.as('next_due_date'),
      sql<
        number | null
      >`(SELECT k.id FROM contracts k WHERE k.rid = t.rid AND k.parent_id = t.id AND k.status <> 'V' ORDER BY k.id DESC LIMIT 1)`.as(
        'renewal_id',
      ),
      sql<
        string | null
      >`(SELECT k.contract_no FROM contracts k WHERE k.rid = t.rid AND k.parent_id = t.id AND k.status <> 'V' ORDER BY k.id DESC LIMIT 1)`.as(
        'renewal_no',
      ),
      sql<boolean>`EXISTS (SELECT 1 FROM contract_changes g WHERE g.rid = t.rid AND g.contract_id = t.id AND g.status = 'A')`.as(
        'pending_change',
      ),
    ])
    .where('t.rid', '=', rid);
}

type ContractRaw = Awaited<ReturnType<ReturnType<typeof contractQuery>['executeTakeFirstOrThrow']>>;

const yuan = (v: string | number) => fenToYuan(toFen(String(v)));

export function toContractItem(r: ContractRaw): ContractItem {
  return {
    id: Number(r.id),
    contract_no: r.contract_no,
    name: r.name,
    type_id: Number(r.type_id),
    type_name: r.type_name,
    kind: r.kind,
    kind_ch: enumText(CONTRACT_KIND, r.kind),
    status: r.status as ContractStatus,
    status_ch: enumText(CONTRACT_STATUS, r.status),
    party_name: r.party_name,
    party_mobile: r.party_mobile,
    party_id_card: r.party_id_card,
    member_id: r.member_id === null ? null : Number(r.member_id),
    customer_id: r.customer_id === null ? null : Number(r.customer_id),
    customer_name: r.customer_name ?? '',
    total_amount: yuan(r.total_amount),
    paid_amount: yuan(r.paid_amount),
    overdue_amount: yuan(r.overdue_amount),
    next_due_date: r.next_due_date,
    sign_date: r.sign_date,
    start_date: r.start_date,
    end_date: r.end_date,
    units_text: r.units_text,
    hid: r.hid === null ? null : Number(r.hid),
    parent_id: r.parent_id === null ? null : Number(r.parent_id),
    parent_no: r.parent_no ?? '',
    renewal_id: r.renewal_id === null ? null : Number(r.renewal_id),
    renewal_no: r.renewal_no ?? '',
    pending_change: !!r.pending_change,
    creator: r.creator ?? '',
    end_reason: r.end_reason,
    ended_on: r.ended_on,
    custom: r.custom as Record<string, string | number>,
    remark: r.remark,
    create_time: wireTime(r.created_at),
  };
}

/** One contract as its list shows it (workflow answers). */
export async function contractItem(ctx: Pick<CommunityCtx, 'db' | 'rid'>, id: number): Promise<ContractItem> {
  const r = await contractQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) return fail('合同不存在');
  return toContractItem(r);
}

// ---- contracts: the rules of a draft --------------------------------------------------------

type ContractInput = HandlerInput<'addroomsales'>;

interface TypeRow {
  id: number;
  name: string;
  kind: ContractKind;
  prefix: string;
  date_format: string;
  seq_len: number;
  need_audit: 'Y' | 'N';
  status: 'Y' | 'N';
  fields: CustomFieldDef[];
}

export async function loadType(db: Kysely<DB>, rid: number, id: number): Promise<TypeRow> {
  const t = await db.selectFrom('contract_types').selectAll().where('rid', '=', rid).where('id', '=', id).executeTakeFirst();
  if (!t) return fail('合同类型不存在');
  return { ...t, id: Number(t.id), fields: t.fields as unknown as CustomFieldDef[] } as TypeRow;
}

/** The units chosen: of the community, each once, of the kinds the contract's type takes. */
async function checkUnits(db: Kysely<DB>, rid: number, kind: ContractKind, units: ContractUnitInput[]): Promise<void> {
  if (kind !== 'other' && units.length === 0) fail(kind === 'parking' ? '请选择车位' : '请选择房源');
  const keys = units.map((u) => `${u.unit_kind}-${u.unit_id}`);
  if (new Set(keys).size !== keys.length) fail('同一房源不能重复选择');
  if (kind === 'parking' && units.some((u) => u.unit_kind !== 'space')) fail('车位合同只能选择车位');
  const rooms = units.filter((u) => u.unit_kind === 'room').map((u) => u.unit_id);
  const spaces = units.filter((u) => u.unit_kind === 'space').map((u) => u.unit_id);
  if (rooms.length) {
    const found = await db.selectFrom('rooms').select('id').where('rid', '=', rid).where('id', 'in', rooms).execute();
    if (found.length !== rooms.length) fail('所选房屋不存在或不属于当前小区');
  }
  if (spaces.length) {
    const found = await db.selectFrom('parking_spaces').select('id').where('rid', '=', rid).where('id', 'in', spaces).execute();
    if (found.length !== spaces.length) fail('所选车位不存在或不属于当前小区');
  }
}

/**
 * The payment plan adds up to the total exactly (fen), and no two instalments of one name fall
 * in one month (an instalment's bill is keyed by its room, its item and its month). A contract of
 * units with an amount has a plan; an other contract may go without one.
 */
export function checkPlan(
  kind: ContractKind,
  total: string,
  plan: ReadonlyArray<{ name: string; amount: string; due_date: string }>,
): void {
  if (plan.length === 0) {
    if (kind !== 'other' && toFen(total) > 0n) fail('请填写收款计划');
    return;
  }
  const sum = plan.reduce((s, i) => s + toFen(i.amount), 0n);
  if (sum !== toFen(total)) fail(`收款计划合计 ${fenToYuan(sum)} 元，须等于合同总额 ${yuan(total)} 元`);
  const seen = new Set<string>();
  for (const i of plan) {
    const key = `${i.name}|${i.due_date.slice(0, 7)}`;
    if (seen.has(key)) fail(`收款计划中「${i.name}」在 ${i.due_date.slice(0, 7)} 有两期，请合并为一期`);
    seen.add(key);
  }
}

/** The custom values against the type's fields: required ones given, each of its type, none the type lacks. */
export function checkCustom(fields: CustomFieldDef[], values: Record<string, string | number>): Record<string, string | number> {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const key of Object.keys(values)) if (!byKey.has(key)) fail('自定义字段不正确，请刷新后重试');
  const out: Record<string, string | number> = {};
  for (const f of fields) {
    const raw = values[f.key];
    const v = raw === undefined || raw === null ? '' : String(raw).trim();
    if (v === '') {
      if (f.required) fail(`${f.label}不能为空`);
      continue;
    }
    if (f.type === 'number' && !/^-?\d{1,12}(\.\d{1,4})?$/.test(v)) fail(`${f.label}应为数字`);
    if (f.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) fail(`${f.label}应为日期（YYYY-MM-DD）`);
    if (f.type === 'select' && !f.options.includes(v)) fail(`${f.label}的取值不在选项中`);
    out[f.key] = f.type === 'number' ? Number(v) : v;
  }
  return out;
}

/** The party's owner record and sales customer, when given: of the community. */
async function checkParty(db: Kysely<DB>, rid: number, memberId: number | undefined, customerId: number | undefined): Promise<void> {
  if (memberId) {
    const m = await db.selectFrom('members').select('id').where('rid', '=', rid).where('id', '=', memberId).executeTakeFirst();
    if (!m) fail('所选业主不存在或不属于当前小区');
  }
  if (customerId) {
    const c = await db.selectFrom('crm_customers').select('id').where('rid', '=', rid).where('id', '=', customerId).executeTakeFirst();
    if (!c) fail('所选客户不存在或不属于当前小区');
  }
}

/** Refuses units another live contract holds (a draft reserves them too). */
export async function refuseTaken(
  db: Kysely<DB>,
  rid: number,
  c: { id: number | null; kind: ContractKind; parent_id: number | null; start_date: string; end_date: string | null },
  units: ReadonlyArray<{ unit_kind: 'room' | 'space'; unit_id: number }>,
): Promise<void> {
  const hit = await unitTaken(db, rid, c, units);
  if (hit) fail(`${hit.unit}已在合同 ${hit.contract_no}（${enumText(CONTRACT_STATUS, hit.status)}）中，不能重复签约`);
}

/** Plan rows in the order of their due dates, numbered from 1. */
const orderedPlan = (plan: InstalmentInput[]) =>
  [...plan].sort((a, b) => (a.due_date < b.due_date ? -1 : a.due_date > b.due_date ? 1 : 0)).map((i, k) => ({ ...i, seq: k + 1 }));

async function writeChildren(ctx: CommunityCtx, id: number, input: ContractInput): Promise<void> {
  if (input.units.length)
    await ctx.db
      .insertInto('contract_units')
      .values(
        input.units.map((u, sort) => ({
          rid: ctx.rid,
          contract_id: id,
          unit_kind: u.unit_kind,
          hid: u.unit_kind === 'room' ? u.unit_id : null,
          space_id: u.unit_kind === 'space' ? u.unit_id : null,
          area: u.area,
          price: u.price,
          sort,
          created_by: ctx.session.accountId,
        })),
      )
      .execute();
  const plan = orderedPlan(input.instalments);
  if (plan.length)
    await ctx.db
      .insertInto('contract_instalments')
      .values(
        plan.map((i) => ({
          rid: ctx.rid,
          contract_id: id,
          seq: i.seq,
          name: i.name,
          amount: i.amount,
          due_date: i.due_date,
          created_by: ctx.session.accountId,
        })),
      )
      .execute();
}

/** The checks of a draft's add and edit; answers the contract's number and the custom values kept. */
async function checkDraft(
  ctx: CommunityCtx,
  input: ContractInput,
  before?: { id: number | null; type_id: number; contract_no: string; parent_id: number | null },
): Promise<{ type: TypeRow; contract_no: string; custom: Record<string, string | number> }> {
  const type = await loadType(ctx.db, ctx.rid, input.type_id);
  if (type.status !== 'Y' && type.id !== before?.type_id) fail(`合同类型「${type.name}」已停用`);
  // a number typed in is checked first: a second add of the same contract says so, not that its units are taken
  if (input.contract_no) {
    const dup = await ctx.db
      .selectFrom('contracts')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('contract_no', '=', input.contract_no)
      .$if(!!before?.id, (q) => q.where('id', '<>', before!.id!))
      .executeTakeFirst();
    if (dup) fail(`合同编号 ${input.contract_no} 已存在`);
  }
  await checkUnits(ctx.db, ctx.rid, type.kind, input.units);
  checkPlan(type.kind, input.total_amount, input.instalments);
  const custom = checkCustom(type.fields, input.custom);
  await checkParty(ctx.db, ctx.rid, input.member_id, input.customer_id);
  await refuseTaken(
    ctx.db,
    ctx.rid,
    {
      id: before?.id ?? null,
      kind: type.kind,
      parent_id: before?.parent_id ?? null,
      start_date: input.start_date,
      end_date: input.end_date,
    },
    input.units,
  );
  let no = input.contract_no;
  if (!no) no = before && before.type_id === type.id ? before.contract_no : await nextContractNo(ctx.db, ctx.rid, type, input.sign_date);
  return { type, contract_no: no, custom };
}

const columnsOf = (input: ContractInput, type: TypeRow, no: string, custom: Record<string, string | number>) => ({
  contract_no: no,
  type_id: type.id,
  kind: type.kind,
  name: input.name,
  party_name: input.party_name,
  party_mobile: input.party_mobile,
  party_id_card: input.party_id_card,
  member_id: input.member_id ?? null,
  customer_id: input.customer_id ?? null,
  total_amount: input.total_amount,
  sign_date: input.sign_date,
  start_date: input.start_date,
  end_date: input.end_date,
  custom: JSON.stringify(custom),
  remark: input.remark,
});

/** Writes a new draft with its units and plan, and reserves its units. */
export async function insertDraft(
  ctx: CommunityCtx,
  input: ContractInput,
  extra: { parent_id?: number; step?: string; log?: Record<string, unknown> } = {},
): Promise<{ id: number; contract_no: string }> {
  const { type, contract_no, custom } = await checkDraft(
    ctx,
    input,
    extra.parent_id ? { id: null, type_id: 0, contract_no: '', parent_id: extra.parent_id } : undefined,
  );
  const row = await ctx.db
    .insertInto('contracts')
    .values({
      rid: ctx.rid,
      ...columnsOf(input, type, contract_no, custom),
      parent_id: extra.parent_id ?? null,
      created_by: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await writeChildren(ctx, id, input);
  await writeFlowLog(ctx, contractFlow.def, id, {
    transition: extra.step ?? 'create',
    from: '',
    to: 'D',
    input: { contract_no, ...extra.log },
  });
  await syncUnitStates(ctx.db, ctx.rid, [id]);
  return { id, contract_no };
}

const addroomsales = defineMethod('addroomsales', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary:
    '起草合同（草稿）：编号（留空按类型规则生成，唯一）、类型、名称、乙方、房源（面积与价格）、合同总额、收款计划（各期合计须等于总额，精确到分）、日期、自定义字段；房源被其他合同占用时拒绝',
  async handler(ctx, input) {
    const { id } = await insertDraft(ctx, input);
    return reply({ id }, '添加成功');
  },
});

const editroomsales = defineMethod('editroomsales', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary: '修改草稿合同（含退回的合同）：同起草的规则；生效后的修改须提交变更申请（contractchangeadd）',
  async handler(ctx, input) {
    const { id, ...rest } = input;
    const before = await ctx.db
      .selectFrom('contracts')
      .select(['id', 'status', 'type_id', 'contract_no', 'parent_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return fail('合同不存在');
    if (before.status !== 'D') fail('只有草稿可以修改；生效后的修改请提交变更申请');
    const prior = {
      id: Number(before.id),
      type_id: Number(before.type_id),
      contract_no: before.contract_no,
      parent_id: before.parent_id === null ? null : Number(before.parent_id),
    };
    const { type, contract_no, custom } = await checkDraft(ctx, rest, prior);
    await ctx.db
      .updateTable('contracts')
      .set({ ...columnsOf(rest, type, contract_no, custom), updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .execute();
    await ctx.db.deleteFrom('contract_instalments').where('rid', '=', ctx.rid).where('contract_id', '=', id).execute();
    await ctx.db.deleteFrom('contract_units').where('rid', '=', ctx.rid).where('contract_id', '=', id).execute();
    await writeChildren(ctx, id, rest);
    await syncUnitStates(ctx.db, ctx.rid, [id]);
    return reply({ id }, '保存成功');
  },
});

/** The units of a contract with their titles and price per m². */
export async function contractUnits(db: Kysely<DB>, rid: number, contractId: number): Promise<ContractUnitRow[]> {
  const rows = await db
    .selectFrom('contract_units as u')
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'u.rid').onRef('r.id', '=', 'u.hid'))
    .leftJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 'u.rid').onRef('s.id', '=', 'u.space_id'))
    .leftJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
    .select([
      'u.id',
      'u.unit_kind',
      'u.hid',
      'u.space_id',
      'u.area',
      'u.price',
      'r.address',
      'r.bid',
      sql<string | null>`l.title || '-' || s.title`.as('space_title'),
    ])
    .where('u.rid', '=', rid)
    .where('u.contract_id', '=', contractId)
    .orderBy('u.sort')
    .orderBy('u.id')
    .execute();
  return rows.map((u) => {
    const area = toFen(u.area);
    return {
      id: Number(u.id),
      unit_kind: u.unit_kind,
      unit_kind_ch: u.unit_kind === 'room' ? '房屋' : '车位',
      unit_id: Number(u.hid ?? u.space_id),
      title: (u.unit_kind === 'room' ? u.address : u.space_title) ?? '',
      bid: u.bid === null ? null : Number(u.bid),
      area: fenToYuan(area),
      price: yuan(u.price),
      unit_price: area > 0n ? fenToYuan((toFen(u.price) * 100n + area / 2n) / area) : '',
    };
  });
}

const roomsalesinfo = defineMethod('roomsalesinfo', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '合同详情：基本信息、房源、收款计划与收款情况、类型的自定义字段、附件数、关联业主',
  async handler(ctx, input): Promise<ContractDetail> {
    const r = await contractQuery(ctx.db, ctx.rid)
      .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
      .leftJoin('accounts as ap', 'ap.id', 't.approved_by')
      .select(['m.realname as member_name', 'ap.name as approver_name'])
      .select(sql<number>`(SELECT count(*)::int FROM contract_files f WHERE f.rid = t.rid AND f.contract_id = t.id)`.as('files'))
      .where('t.id', '=', input.id)
      .executeTakeFirst();
    if (!r) return fail('合同不存在');
    const item = toContractItem(r);
    const type = await loadType(ctx.db, ctx.rid, item.type_id);
    const plan = (await instalmentRows(ctx.db, ctx.rid, [item.id])).get(item.id) ?? [];
    const owns =
      item.member_id !== null && item.hid !== null
        ? await ctx.db
            .selectFrom('room_members')
            .select('id')
            .where('rid', '=', ctx.rid)
            .where('hid', '=', item.hid)
            .where('member_id', '=', item.member_id)
            .where('relation', '=', 'owner')
            .where('status', '=', 'Y')
            .executeTakeFirst()
        : undefined;
    return {
      ...item,
      units: await contractUnits(ctx.db, ctx.rid, item.id),
      instalments: plan,
      type_fields: type.fields,
      need_audit: type.need_audit,
      files: Number(r.files),
      member_name: r.member_name ?? '',
      owner_of_room: !!owns,
      mine: r.submitted_by !== null ? Number(r.submitted_by) === ctx.session.accountId : Number(r.created_by) === ctx.session.accountId,
      approved_by_name: r.approver_name ?? '',
      approve_time: wireTime(r.approved_at),
      submit_time: wireTime(r.submitted_at),
    };
  },
});

const contractMethodsOfResource = defineResource(roomSales, {
  table: 'contracts',
  query: (db, rid) => contractQuery(db as Kysely<DB>, rid),
  row: (r: ContractRaw) => toContractItem(r),
  where: {
    contract_no: (qb, v) => qb.where('t.contract_no', 'like', likePattern(String(v))),
    keyword: (qb, v) => {
      const k = likePattern(String(v));
      return qb.where(sql<SqlBool>`(t.contract_no LIKE ${k} OR t.name LIKE ${k} OR t.party_name LIKE ${k} OR t.party_mobile LIKE ${k})`);
    },
    section: (qb, v) => (v === 'other' ? qb.where('t.kind', '=', 'other') : qb.where('t.kind', '<>', 'other')),
    bid: (qb, v) =>
      qb.where(
        sql<SqlBool>`EXISTS (SELECT 1 FROM contract_units u JOIN rooms r ON r.rid = u.rid AND r.id = u.hid
          WHERE u.rid = t.rid AND u.contract_id = t.id AND r.bid = ${Number(v)})`,
      ),
    signed: (qb, v) => {
      const [from, to] = v as [string, string];
      return qb.where('t.sign_date', '>=', from).where('t.sign_date', '<=', to);
    },
    expiring: (qb, v) =>
      qb.where(
        sql<SqlBool>`((t.status = 'Y' AND t.end_date IS NOT NULL AND t.end_date <= ${addDays(today(), Number(v))}::date) OR t.status = 'E')`,
      ),
    overdue: (qb) =>
      qb.where(
        sql<SqlBool>`t.status IN ('Y', 'E', 'R', 'T') AND EXISTS (SELECT 1 FROM contract_instalments i
          WHERE i.rid = t.rid AND i.contract_id = t.id AND i.paid_at IS NULL AND i.due_date < ${today()}::date)`,
      ),
  },
  async beforeDelete(ctx, row) {
    if (row.status !== 'D') fail('只有草稿可以删除；审批中或生效的合同请作废或终止');
    const id = Number(row.id);
    await ctx.db.deleteFrom('contract_files').where('rid', '=', ctx.rid).where('contract_id', '=', id).execute();
    await ctx.db.deleteFrom('contract_instalments').where('rid', '=', ctx.rid).where('contract_id', '=', id).execute();
    await ctx.db.deleteFrom('contract_units').where('rid', '=', ctx.rid).where('contract_id', '=', id).execute();
    // the units it reserved are free again (or held by another draft)
    await syncUnitStates(ctx.db, ctx.rid, [id]);
  },
  replace: { add: addroomsales, edit: editroomsales, info: roomsalesinfo },
  summaries: {
    list: '合同列表：编号、名称、类型、类别、乙方、房源、总额、已收、逾期未收、下次收款、日期、状态；筛选关键字、类型、类别、状态、楼栋、签订日期、即将到期、有逾期；范围（房屋合同 / 其他合同）',
    del: '删除合同（仅草稿；附件、房源与收款计划一并删除）',
    export: '按当前筛选导出合同（Excel）',
  },
});

export { unitTitle };
export const contractMethods = [...typeMethods, ...contractMethodsOfResource];
