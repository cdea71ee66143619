/**
 * 投诉建议 (docs/product.md#complaints): the categories as a resource, the complaints as a workflow
 * (contract/src/steward/complaints.ts). Anonymous complaints show 匿名 to handlers without the
 * desk's rights; a handler without them sees and acts on the complaints handed to them only.
 * Deadlines and the automatic rating: ./complaintsJobs.ts.
 */
import {
  enumKeys,
  COMPLAINT_CLOSE_REASON,
  COMPLAINT_HANDLERS,
  COMPLAINT_KIND,
  COMPLAINT_STATUS,
  complaintCategory,
  complaintFlow,
  complaintNo,
  enumText,
  hasAnyRole,
  type ComplaintCounts,
  type ComplaintRow,
  type ComplaintStatus,
  type ComplaintKind,
} from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { accountCodes } from '../../http/authenticate.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput, type Session } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { registerDependents } from '../../lib/dependents.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { wireTime } from '../../lib/wire.js';
import { defineWorkflow, flowLog, statusBarCounts, writeFlowLog } from '../../lib/workflow.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { notify } from '../setup/notify.js';
import { notifyText, type ComplaintFacts } from '../setup/notifyTexts.js';
import { createRepairTicket } from './repairs.js';
import { recordServiceRating } from './scores.js';

registerDependents({ complaints: '投诉' });

/** A complaint waits on the desk's to-do list while it waits for acceptance, and again once a deadline is missed. */
const complaintLink = (id: number | string) => `/steward/complaintlist?id=${id}`;

export const complaintBacklog = registerBacklogSource({ kind: 'complaint', roles: STEWARD_ROLES.desk, link: complaintLink });

/** What a complaint's messages name (docs/product.md#notifications); its contact is the 业主 they text. */
async function complaintFacts(db: Kysely<DB>, rid: number, c: Omit<ComplaintFacts, 'category'> & { category_id: number }) {
  const category = await db
    .selectFrom('complaint_categories')
    .select('name')
    .where('rid', '=', rid)
    .where('id', '=', c.category_id)
    .executeTakeFirst();
  const facts: ComplaintFacts = { ...c, category: category?.name ?? '' };
  return { facts, owner: { name: c.contact, mobile: c.phone } };
}

/** The desk (and admin) sees every complaint and the anonymous ones' names; a handler only theirs, anonymised. */
export const isComplaintDesk = (session: Pick<Session, 'roles'>) => hasAnyRole(session.roles, STEWARD_ROLES.desk);

export { complaintNo };

export const complaintCategoryMethods = defineResource(complaintCategory, {
  table: 'complaint_categories',
  query: (db, rid) =>
    db
      .selectFrom('complaint_categories as t')
      .select(['t.id', 't.name', 't.respond_hours', 't.close_hours', 't.sort', 't.status', 't.remark', 't.created_at'])
      .select(sql<number>`(SELECT count(*)::int FROM complaints c WHERE c.rid = t.rid AND c.category_id = t.id)`.as('complaint_count'))
      .where('t.rid', '=', rid),
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  unique: [{ on: ['name'], message: (v) => `投诉分类“${String(v.name)}”已存在` }],
  dependents: { complaints: '该分类下已有投诉，不能删除，可改为停用' },
  order: (p) => [sql.raw(`${p}sort`)],
  replace: {
    small: defineMethod('complaintcategory_small_list', {
      side: 'community',
      roles: COMPLAINT_HANDLERS,
      writes: false,
      summary: '投诉分类下拉：启用的分类（id、title 为名称、首次响应与办结时限小时数），按排序',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('complaint_categories')
          .select(['id', 'name', 'respond_hours', 'close_hours'])
          .where('rid', '=', ctx.rid)
          .where('status', '=', 'Y')
          .orderBy('sort')
          .orderBy('id')
          .execute();
        return {
          items: rows.map((r) => ({ id: Number(r.id), title: r.name, respond_hours: r.respond_hours, close_hours: r.close_hours })),
        };
      },
    }),
  },
  summaries: {
    list: '投诉分类列表（名称、首次响应时限、办结时限（小时）、状态、投诉数）',
    add: '新增投诉分类（名称在小区内唯一；首次响应与办结时限以小时计，登记投诉时据此算出截止时间）',
    edit: '修改投诉分类（已登记投诉的截止时间不变）',
    del: '删除投诉分类（已有投诉时拒绝，可停用）',
  },
});

export function complaintQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('complaints as c')
    .innerJoin('complaint_categories as g', (j) => j.onRef('g.rid', '=', 'c.rid').onRef('g.id', '=', 'c.category_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'c.rid').onRef('r.id', '=', 'c.hid'))
    .leftJoin('repair_tickets as t', (j) => j.onRef('t.rid', '=', 'c.rid').onRef('t.id', '=', 'c.repair_id'))
    .selectAll('c')
    .select(['g.name as category', 'r.address', 't.no as repair_no'])
    .where('c.rid', '=', rid);
}

type Raw = Awaited<ReturnType<ReturnType<typeof complaintQuery>['executeTakeFirstOrThrow']>>;

export function toComplaintRow(c: Raw, session: Pick<Session, 'roles' | 'accountId'>): ComplaintRow {
  const hidden = c.anonymous && !isComplaintDesk(session);
  const handlerId = c.handler_id === null ? null : Number(c.handler_id);
  return {
    id: Number(c.id),
    no: complaintNo(Number(c.id)),
    kind: c.kind as ComplaintKind,
    kind_ch: enumText(COMPLAINT_KIND, c.kind),
    category_id: Number(c.category_id),
    category: c.category,
    hid: c.hid === null ? null : Number(c.hid),
    address: c.address ?? '',
    contact: hidden ? '匿名' : c.contact,
    phone: hidden ? '' : c.phone,
    content: c.content,
    photos: c.photos,
    anonymous: c.anonymous,
    status: c.status as ComplaintStatus,
    status_ch: enumText(COMPLAINT_STATUS, c.status),
    handler_id: handlerId,
    handler_name: c.handler_name,
    respond_deadline: wireTime(c.respond_deadline),
    close_deadline: wireTime(c.close_deadline),
    accept_time: wireTime(c.accepted_at),
    finish_time: wireTime(c.finished_at),
    finish_note: c.finish_note,
    rating: c.rating,
    rating_text: c.rating_text,
    rated_auto: c.rated_auto,
    close_reason: c.close_reason,
    close_reason_ch: c.close_reason ? enumText(COMPLAINT_CLOSE_REASON, c.close_reason) : '',
    close_note: c.close_note,
    overdue: c.respond_overdue_at !== null || c.close_overdue_at !== null,
    respond_overdue: c.respond_overdue_at !== null,
    close_overdue: c.close_overdue_at !== null,
    repair_id: c.repair_id === null ? null : Number(c.repair_id),
    repair_no: c.repair_no ?? '',
    creator: c.creator,
    mine: handlerId !== null && handlerId === session.accountId,
    create_time: wireTime(c.created_at),
  };
}

type Filters = Omit<HandlerInput<'complaintexport'>, 'sort'>;
type CQ = ReturnType<typeof complaintQuery>;

/** What a reader may see: the desk everything, a handler the complaints handed to them. */
function visible(qb: CQ, session: Session): CQ {
  return isComplaintDesk(session) ? qb : qb.where('c.handler_id', '=', session.accountId);
}

function filtered(qb: CQ, f: Filters, session: Session, withStatus = true): CQ {
  const no = String(f.no ?? '')
    .trim()
    .toUpperCase()
    .replace(/^TS/, '');
  if (no) {
    if (!/^\d{1,10}$/.test(no)) return qb.where(sql<boolean>`false`);
    qb = qb.where('c.id', '=', Number(no));
  }
  if (f.kind) qb = qb.where('c.kind', '=', f.kind);
  if (f.category_id) qb = qb.where('c.category_id', '=', f.category_id);
  if (withStatus && f.status) qb = qb.where('c.status', '=', f.status);
  if (f.handler_id) qb = qb.where('c.handler_id', '=', f.handler_id);
  if (f.hid) qb = qb.where('c.hid', '=', f.hid);
  if (f.phone) {
    // an anonymous complaint's phone is no handle for those who may not see it
    qb = qb.where('c.phone', 'like', `%${f.phone.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    if (!isComplaintDesk(session)) qb = qb.where('c.anonymous', '=', false);
  }
  if (f.created) {
    qb = qb
      .where('c.created_at', '>=', sql<Date>`(${f.created[0]}::date)::timestamp AT TIME ZONE current_setting('TimeZone')`)
      .where('c.created_at', '<', sql<Date>`(${f.created[1]}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')`);
  }
  if (f.overdue === 'Y')
    qb = qb.where((eb) => eb.or([eb('c.respond_overdue_at', 'is not', null), eb('c.close_overdue_at', 'is not', null)]));
  if (f.overdue === 'N') qb = qb.where('c.respond_overdue_at', 'is', null).where('c.close_overdue_at', 'is', null);
  if (f.mine) qb = qb.where('c.handler_id', '=', session.accountId);
  return qb;
}

async function counts(ctx: CommunityCtx, f: Filters): Promise<ComplaintCounts> {
  const rows = await filtered(visible(complaintQuery(ctx.db, ctx.rid), ctx.session), f, ctx.session, false)
    .clearSelect()
    .select(['c.status'])
    .select(sql<number>`count(*)::int`.as('n'))
    .select(sql<number>`count(*) FILTER (WHERE c.respond_overdue_at IS NOT NULL OR c.close_overdue_at IS NOT NULL)::int`.as('late'))
    .groupBy('c.status')
    .execute();
  return statusBarCounts(rows, enumKeys(COMPLAINT_STATUS));
}

const complaintlist = defineMethod('complaintlist', {
  side: 'community',
  roles: COMPLAINT_HANDLERS,
  writes: false,
  summary:
    '投诉建议列表：编号、类型（投诉/建议/咨询）、分类、房屋、联系人、电话、内容、状态、处理人、首次响应与办结截止、超时、满意度；按编号、类型、分类、状态、处理人、房屋、电话、登记时间、超时筛选；counts 为各状态与超时的数量。处理人只看到交给自己的投诉，匿名投诉对其不显示联系人',
  async handler(ctx, input) {
    const qb = filtered(visible(complaintQuery(ctx.db, ctx.rid), ctx.session), input, ctx.session);
    const page = await listPage(qb, input, 'c.id');
    return { total: page.total, items: page.items.map((c) => toComplaintRow(c, ctx.session)), counts: await counts(ctx, input) };
  },
});

/** The complaint as the reader may see it, or 投诉不存在. */
async function readable(ctx: CommunityCtx, id: number): Promise<ComplaintRow> {
  const c = await visible(complaintQuery(ctx.db, ctx.rid), ctx.session).where('c.id', '=', id).executeTakeFirst();
  if (!c) fail('投诉不存在');
  return toComplaintRow(c, ctx.session);
}

const complaintinfo = defineMethod('complaintinfo', {
  side: 'community',
  roles: COMPLAINT_HANDLERS,
  writes: false,
  summary: '投诉详情：登记内容、图片、处理人、截止时间、办结说明、评价，以及时间线（受理、回复业主、内部备注、办结、评价、超时）',
  async handler(ctx, input) {
    const row = await readable(ctx, input.id);
    return { ...row, log: await flowLog(ctx.db, ctx.rid, complaintFlow.def, input.id) };
  },
});

const complaintadd = defineMethod('complaintadd', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: true,
  summary:
    '登记投诉建议（类型、分类、房屋可选、联系人、电话、内容、最多 9 张图片、匿名）：按分类的时限算出首次响应与办结截止时间，状态为待受理，并加入管家的待办',
  async handler(ctx, input) {
    const category = await ctx.db
      .selectFrom('complaint_categories')
      .select(['id', 'name', 'status', 'respond_hours', 'close_hours'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.category_id)
      .executeTakeFirst();
    if (!category) fail('投诉分类不存在');
    if (category.status !== 'Y') fail(`投诉分类“${category.name}”已停用，请选择其他分类`);
    if (input.hid) {
      const room = await ctx.db.selectFrom('rooms').select('id').where('rid', '=', ctx.rid).where('id', '=', input.hid).executeTakeFirst();
      if (!room) fail('所选房屋不存在或不属于当前小区');
    }
    const row = await ctx.db
      .insertInto('complaints')
      .values({
        rid: ctx.rid,
        kind: input.kind,
        category_id: category.id,
        hid: input.hid ?? null,
        contact: input.contact,
        phone: input.phone,
        content: input.content,
        photos: input.photos,
        anonymous: input.anonymous,
        respond_deadline: sql<Date>`now() + make_interval(hours => ${category.respond_hours})`,
        close_deadline: sql<Date>`now() + make_interval(hours => ${category.close_hours})`,
        creator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning(['id', 'respond_deadline'])
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await writeFlowLog(ctx, complaintFlow.def, id, {
      transition: 'create',
      from: '',
      to: 'W',
      input: { kind: enumText(COMPLAINT_KIND, input.kind), category: category.name },
    });
    await complaintBacklog.raise(ctx.db, ctx.rid, {
      sourceId: id,
      title: `${enumText(COMPLAINT_KIND, input.kind)}待受理：${complaintNo(id)} ${category.name}`,
      content: input.content.slice(0, 100),
      submitter: ctx.session,
      deadline: row.respond_deadline,
    });
    const { facts, owner } = await complaintFacts(ctx.db, ctx.rid, { ...input, id });
    await notify(
      ctx.db,
      ctx.rid,
      'complaint_submit',
      { owner, hid: input.hid ?? null, staffCodes: STEWARD_ROLES.desk, actor: ctx.session.accountId },
      { ...notifyText.complaint_submit(facts), link: complaintLink(id), refId: id },
    );
    return reply({ id, no: complaintNo(id) }, `已登记，编号 ${complaintNo(id)}`);
  },
});

/** The staff a complaint may be handed to: the community's enabled staff holding the desk's or a handler's codes. */
async function handlerStaff(db: Kysely<DB>, rid: number, accountId?: number) {
  let qb = db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .select(accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`).as('codes'))
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y');
  if (accountId !== undefined) qb = qb.where('a.id', '=', accountId);
  const rows = await qb.orderBy('a.id').execute();
  return rows.filter((r) => r.codes.some((c) => c === 'admin' || (COMPLAINT_HANDLERS as readonly string[]).includes(c)));
}

const ROLE_WORDS: Record<string, string> = { admin: '管理员', steward: '管家', repairs: '维修' };

const complaintStaffSmallList = defineMethod('complaint_staff_small_list', {
  side: 'community',
  roles: COMPLAINT_HANDLERS,
  writes: false,
  summary: '可受理投诉的处理人下拉：本小区启用的、有管家或维修权限的员工（id、name、roles_ch）',
  async handler(ctx) {
    const rows = await handlerStaff(ctx.db, ctx.rid);
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        roles_ch: r.codes
          .map((c) => ROLE_WORDS[c])
          .filter(Boolean)
          .join('、'),
      })),
    };
  },
});

/* eslint-disable @typescript-eslint/no-explicit-any -- a workflow's row and input are the table's and the schema's */
type Row = Record<string, any>;

const rowFacts = (row: Row) => ({
  id: Number(row.id),
  kind: row.kind as ComplaintKind,
  category_id: Number(row.category_id),
  content: String(row.content),
  contact: String(row.contact),
  phone: String(row.phone),
  anonymous: Boolean(row.anonymous),
});

/** The desk acts on any complaint; another handler only on the ones handed to them. */
function mustHandle(ctx: CommunityCtx, row: Row) {
  if (isComplaintDesk(ctx.session)) return;
  if (row.handler_id === null || Number(row.handler_id) !== ctx.session.accountId) fail('只有该投诉的处理人或管家可以处理');
}

const complaintFlowMethods = defineWorkflow(complaintFlow, {
  table: 'complaints',
  answer: async (ctx, id) =>
    toComplaintRow(await complaintQuery(ctx.db, ctx.rid).where('c.id', '=', id).executeTakeFirstOrThrow(), ctx.session),
  transitions: {
    accept: {
      async run(ctx, row, input) {
        const staff = await handlerStaff(ctx.db, ctx.rid, Number(input.handler_id));
        if (staff.length === 0) fail('所选处理人不存在、已停用或没有处理投诉的权限');
        // the log keeps the handler's name, not the id; `set` takes the id from handler_account
        input.handler_account = Number(input.handler_id);
        input.handler_id = staff[0]!.name;
        await complaintBacklog.settle(ctx.db, ctx.rid, row.id as number, ctx.session.accountId);
        const { facts, owner } = await complaintFacts(ctx.db, ctx.rid, rowFacts(row));
        await notify(
          ctx.db,
          ctx.rid,
          'complaint_accept',
          { owner, handler: Number(input.handler_account), actor: ctx.session.accountId },
          { ...notifyText.complaint_accept({ ...facts, handler: staff[0]!.name }), link: complaintLink(row.id), refId: row.id },
        );
      },
      set: (_ctx, input) => ({ handler_id: input.handler_account, handler_name: input.handler_id, accepted_at: sql<Date>`now()` }),
      message: '已受理',
    },
    reply: {
      async run(ctx, row, input) {
        mustHandle(ctx, row);
        const { facts, owner } = await complaintFacts(ctx.db, ctx.rid, rowFacts(row));
        await notify(
          ctx.db,
          ctx.rid,
          'complaint_reply',
          { owner, actor: ctx.session.accountId },
          { ...notifyText.complaint_reply({ ...facts, reply: String(input.content) }), link: complaintLink(row.id), refId: row.id },
        );
      },
      message: '已回复业主',
    },
    note: { run: async (ctx, row) => mustHandle(ctx, row), message: '已添加内部备注' },
    finish: {
      async run(ctx, row, input) {
        mustHandle(ctx, row);
        await complaintBacklog.settle(ctx.db, ctx.rid, row.id as number, ctx.session.accountId);
        const { facts, owner } = await complaintFacts(ctx.db, ctx.rid, rowFacts(row));
        await notify(
          ctx.db,
          ctx.rid,
          'complaint_finish',
          { owner, hid: row.hid === null ? null : Number(row.hid), actor: ctx.session.accountId },
          {
            ...notifyText.complaint_finish({ ...facts, by: ctx.session.name, note: String(input.note) }),
            link: complaintLink(row.id),
            refId: row.id,
          },
        );
      },
      set: (_ctx, input) => ({ finish_note: input.note, finished_at: sql<Date>`now()` }),
      message: '已办结，等待业主评价',
    },
    rate: {
      async run(ctx, row, input) {
        // the rating counts in the handler's service score (docs/product.md#complaints)
        if (row.handler_id !== null)
          await recordServiceRating(ctx.db, {
            rid: ctx.rid,
            staffId: Number(row.handler_id),
            source: 'complaint',
            sourceId: Number(row.id),
            score: Number(input.rating),
            ratedAt: new Date(),
          });
      },
      set: (_ctx, input) => ({ rating: input.rating, rating_text: input.rating_text ?? '', rated_at: sql<Date>`now()`, rated_auto: false }),
      message: '已评价',
    },
    close: {
      async run(ctx, row) {
        await complaintBacklog.settle(ctx.db, ctx.rid, row.id as number, ctx.session.accountId);
      },
      set: (_ctx, input) => ({ close_reason: input.reason, close_note: input.note ?? '', closed_at: sql<Date>`now()` }),
      message: '已关闭',
    },
  },
  logRoles: COMPLAINT_HANDLERS,
  summaries: {
    complaintaccept: '受理投诉（待受理 → 处理中）：指定处理人（有管家或维修权限的本小区员工），受理时间即首次响应',
    complaintreply: '回复业主（处理中，时间线上的一条事件，状态不变）：管家或该投诉的处理人',
    complaintnote: '内部备注（处理中，业主不可见，状态不变）：管家或该投诉的处理人',
    complaintfinish: '办结投诉（处理中 → 待评价），须填写办结说明：管家或该投诉的处理人',
    complaintrate: `登记业主评价（待评价 → 已完成）：满意度 1–5 与评价内容；${48} 小时未评价由系统默认好评`,
    complaintclose: '关闭投诉（待受理或处理中 → 已关闭）：原因为无效或重复，可附说明',
    complaintlog: '一条投诉的时间线：登记、受理、回复业主、内部备注、办结、评价、超时，谁、何时、内容',
  },
});

const complainttorepair = defineMethod('complainttorepair', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: true,
  summary:
    '投诉转为报修单（待受理或处理中，每条投诉只能转一次）：按报修登记的内容新建报修工单（关联本投诉），投诉记下工单号；待受理的投诉随之受理，处理人为操作的管家',
  async handler(ctx, input) {
    const c = await ctx.db
      .selectFrom('complaints')
      .select(['id', 'status', 'repair_id', 'handler_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!c) fail('投诉不存在');
    if (c.repair_id !== null) {
      const t = await ctx.db
        .selectFrom('repair_tickets')
        .select('no')
        .where('rid', '=', ctx.rid)
        .where('id', '=', c.repair_id)
        .executeTakeFirst();
      fail(`该投诉已转为报修单${t ? ` ${t.no}` : ''}，不能重复转`);
    }
    if (c.status !== 'W' && c.status !== 'D') fail(`投诉${enumText(COMPLAINT_STATUS, c.status)}，只有待受理或处理中的投诉可以转为报修单`);
    const ticket = await createRepairTicket(ctx, input.repair, { complaintId: Number(c.id) });
    const accepting = c.status === 'W';
    await ctx.db
      .updateTable('complaints')
      .set({
        repair_id: ticket.id,
        ...(accepting
          ? { status: 'D', handler_id: ctx.session.accountId, handler_name: ctx.session.name, accepted_at: sql<Date>`now()` }
          : {}),
      })
      .where('rid', '=', ctx.rid)
      .where('id', '=', c.id)
      .execute();
    if (accepting) await complaintBacklog.settle(ctx.db, ctx.rid, Number(c.id), ctx.session.accountId);
    await writeFlowLog(ctx, complaintFlow.def, Number(c.id), {
      transition: 'torepair',
      from: c.status,
      to: accepting ? 'D' : c.status,
      input: { repair_no: ticket.no },
    });
    const row = toComplaintRow(await complaintQuery(ctx.db, ctx.rid).where('c.id', '=', c.id).executeTakeFirstOrThrow(), ctx.session);
    return reply(row, `已转为报修单 ${ticket.no}`);
  },
});

const complaintexport = defineExport('complaintexport', {
  roles: STEWARD_ROLES.desk,
  summary: '导出投诉建议（管家；与列表相同的筛选，含匿名投诉的联系人）',
  filename: () => '投诉建议.xlsx',
  async sheet(scope, input) {
    // only the desk exports: the rows as the desk sees them
    const rows = await filtered(complaintQuery(scope.db, scope.rid), input, { roles: ['steward'], accountId: 0 } as Session)
      .orderBy('c.id', input.sort)
      .limit(100_000)
      .execute();
    const data = rows.map((c) => toComplaintRow(c, { roles: ['steward'], accountId: 0 }));
    return sheetOf<ComplaintRow>(
      '投诉建议',
      [
        { header: '编号', value: (r) => r.no, width: 12 },
        { header: '类型', value: (r) => r.kind_ch, width: 8 },
        { header: '分类', value: (r) => r.category },
        { header: '房屋', value: (r) => r.address, width: 20 },
        { header: '联系人', value: (r) => (r.anonymous ? `${r.contact}（匿名）` : r.contact) },
        { header: '联系电话', value: (r) => r.phone, width: 14, contact: 'mobile' },
        { header: '内容', value: (r) => r.content, width: 40 },
        { header: '状态', value: (r) => r.status_ch, width: 8 },
        { header: '处理人', value: (r) => r.handler_name },
        { header: '首次响应截止', value: (r) => r.respond_deadline, width: 20 },
        { header: '办结截止', value: (r) => r.close_deadline, width: 20 },
        { header: '受理时间', value: (r) => r.accept_time, width: 20 },
        { header: '办结时间', value: (r) => r.finish_time, width: 20 },
        { header: '超时', value: (r) => (r.overdue ? '是' : '否'), width: 6 },
        { header: '满意度', value: (r) => r.rating ?? '', width: 8 },
        { header: '评价', value: (r) => r.rating_text, width: 20 },
        { header: '关闭原因', value: (r) => r.close_reason_ch, width: 10 },
        { header: '登记人', value: (r) => r.creator },
        { header: '登记时间', value: (r) => r.create_time, width: 20 },
      ],
      data,
    );
  },
});

export const complaintMethods = [
  ...complaintCategoryMethods,
  complaintlist,
  complaintinfo,
  complaintadd,
  complaintStaffSmallList,
  complainttorepair,
  ...complaintFlowMethods,
  complaintexport,
];
