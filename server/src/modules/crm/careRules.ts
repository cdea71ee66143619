/**
 * Care's recurring rules (关怀规则 /crm/setaffair, setgroupaffair; docs/product.md#crm-care): the
 * resource, and the daily job `care_affairs` that turns each enabled rule's occurrences due within
 * its days ahead into affairs: 每年生日 and 入住周年 by each customer's own day, 每月, 每季 and 节日 by
 * the calendar, for the customers in care with the rule's tag. An occurrence is made once for a
 * customer (the unique rule, customer and occurrence), however often the job runs; each affair
 * made goes to its assignee's to-do list. The job takes an "as of" day, so tests and a drill
 * (affairrulerun) run it on a day of their choosing.
 */
import {
  addDays,
  addMonths,
  AFFAIR_KIND,
  affairRule,
  ASSIGN_MODE,
  CALENDAR_CYCLES,
  CARE_ROLES,
  enumText,
  PERSONAL_CYCLES,
  RULE_CYCLE,
  ruleScheduleText,
  type AffairRuleItem,
  type RuleCycle,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { defineResource } from '../../lib/resource.js';
import { today } from '../../lib/wire.js';
import { careStaff, refuseNonStaff } from './care.js';
import { raiseAffairsById } from './careAffairs.js';

type Raw = Record<string, unknown>;

const ruleQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('care_affair_rules as t')
    .leftJoin('accounts as ac', 'ac.id', 't.assignee_id')
    .selectAll('t')
    .select(sql<string>`coalesce(ac.name, '')`.as('assignee_name'))
    .select(sql<number>`(SELECT count(*)::int FROM care_affairs a WHERE a.rid = t.rid AND a.rule_id = t.id)`.as('made'))
    .select(sql<number>`(SELECT count(*)::int FROM care_affairs a WHERE a.rid = t.rid AND a.rule_id = t.id AND a.status = 'P')`.as('open'))
    .where('t.rid', '=', rid);

function toRule(r: Raw): AffairRuleItem {
  const cycle = r.cycle as RuleCycle;
  const rule = {
    cycle,
    days_before: Number(r.days_before),
    day_of_month: r.day_of_month === null ? null : Number(r.day_of_month),
    festival_date: (r.festival_date as string | null) ?? null,
  };
  return {
    id: Number(r.id),
    name: String(r.name),
    ...rule,
    cycle_ch: enumText(RULE_CYCLE, cycle),
    affair_kind: r.affair_kind as AffairRuleItem['affair_kind'],
    affair_kind_ch: enumText(AFFAIR_KIND, String(r.affair_kind)),
    tag: String(r.tag ?? ''),
    assign_mode: r.assign_mode as AffairRuleItem['assign_mode'],
    assign_mode_ch: enumText(ASSIGN_MODE, String(r.assign_mode)),
    assignee_id: Number(r.assignee_id),
    assignee_name: String(r.assignee_name ?? ''),
    content: String(r.content ?? ''),
    status: r.status as 'Y' | 'N',
    status_ch: String(r.status_ch ?? ''),
    schedule_text: ruleScheduleText(rule),
    made: Number(r.made ?? 0),
    open: Number(r.open ?? 0),
    create_time: String(r.create_time ?? ''),
  };
}

const resourceMethods = defineResource(affairRule, {
  table: 'care_affair_rules',
  query: (db, rid) => ruleQuery(db as Kysely<DB>, rid),
  row: toRule,
  // the rules' names are the care staff's words, not every account's (a merchant's) dropdown
  replace: {
    small: defineMethod('affairrule_small_list', {
      side: 'community',
      roles: CARE_ROLES,
      writes: false,
      summary: '关怀规则下拉：id、title（规则名称）',
      async handler(ctx) {
        const rows = await ctx.db.selectFrom('care_affair_rules').select(['id', 'name']).where('rid', '=', ctx.rid).orderBy('id').execute();
        return { items: rows.map((r) => ({ id: Number(r.id), title: r.name })) };
      },
    }),
  },
  unique: [{ on: ['name'], message: (v) => `规则名称「${String(v.name)}」已存在` }],
  where: {
    scope: (qb, value) => qb.where('t.cycle', 'in', value === 'personal' ? [...PERSONAL_CYCLES] : [...CALENDAR_CYCLES]),
  },
  async values(input, ctx, before) {
    const cycle = String(input.cycle);
    if (!before || Number(before.assignee_id) !== Number(input.assignee_id))
      await refuseNonStaff(ctx.db, ctx.rid, Number(input.assignee_id), '负责人');
    // only the chosen cycle's fields are kept
    const values = {
      ...input,
      day_of_month: cycle === 'monthly' || cycle === 'quarterly' ? input.day_of_month : null,
      festival_date: cycle === 'festival' ? input.festival_date : null,
    };
    return before ? values : { ...values, created_by: ctx.session.accountId };
  },
  dependents: { care_affairs: '该规则已生成关怀事务，不能删除；不再需要时请停用' },
  summaries: {
    list: '关怀规则列表：周期（每年生日、入住周年、每月、每季、节日）、提前天数、适用客户（标签或特别关注）、负责人、已生成与待办数',
    add: '新增关怀规则：每天的作业 care_affairs 按规则为关怀中的客户生成事务，同一客户同一期只生成一次',
    edit: '修改关怀规则：已生成的事务不变，之后按新规则生成（同一期不重复）',
    del: '删除关怀规则：已生成事务的规则不能删除（停用）',
  },
});

/** A day of a month, the last day of the month when it has fewer days (02-29 in another year). */
function dayOf(year: number, month: number, day: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}

/** The occurrences of a calendar rule due within [asOf, asOf + days ahead]: their key and day. */
export function calendarOccurrences(
  rule: { cycle: RuleCycle; days_before: number; day_of_month: number | null; festival_date: string | null },
  asOf: string,
): Array<{ occurrence: string; due: string }> {
  const until = addDays(asOf, rule.days_before);
  const out: Array<{ occurrence: string; due: string }> = [];
  const within = (due: string) => due >= asOf && due <= until;
  if (rule.cycle === 'festival') {
    const [m, d] = rule.festival_date!.split('-').map(Number);
    for (const year of [Number(asOf.slice(0, 4)), Number(asOf.slice(0, 4)) + 1]) {
      const due = dayOf(year, m!, d!);
      if (within(due)) out.push({ occurrence: String(year), due });
    }
    return out;
  }
  const step = rule.cycle === 'quarterly' ? 3 : 1;
  // the period holding asOf, then the next ones while they can fall within the days ahead
  const month0 = Number(asOf.slice(5, 7));
  let first = `${asOf.slice(0, 4)}-${String(month0 - ((month0 - 1) % step)).padStart(2, '0')}-01`;
  while (first <= until) {
    const year = Number(first.slice(0, 4));
    const month = Number(first.slice(5, 7));
    const due = dayOf(year, month, rule.day_of_month!);
    const occurrence = step === 3 ? `${year}-Q${(month + 2) / 3}` : first.slice(0, 7);
    if (within(due)) out.push({ occurrence, due });
    first = addMonths(first, step);
  }
  return out;
}

type RuleRow = Selectable<DB['care_affair_rules']>;

/**
 * Makes a rule's affairs due as of a day, for the customers in care it covers; answers how many.
 * An occurrence already made for a customer is left alone (ON CONFLICT on the unique key).
 */
async function runRule(db: Kysely<DB>, rule: RuleRow, asOf: string): Promise<number> {
  const rid = rule.rid;
  const stewards = rule.assign_mode === 'steward' ? (await careStaff(db, rid)).map((s) => Number(s.id)) : [];
  const assignee = sql`CASE WHEN c.steward_id = ANY(${stewards}::bigint[]) THEN c.steward_id ELSE ${rule.assignee_id}::bigint END`;
  const tag = rule.tag ? sql`AND (c.tags @> ARRAY[${rule.tag}]::text[] OR c.attention @> ARRAY[${rule.tag}]::text[])` : sql``;
  const content = (years: ReturnType<typeof sql>) =>
    rule.content
      ? sql`replace(replace(${rule.content}::text, '{姓名}', c.realname), '{周年}', ${years})`
      : sql`${rule.name}::text || '：' || c.realname`;
  let made: Array<{ id: number }>;
  if (rule.cycle === 'birthday' || rule.cycle === 'anniversary') {
    const day = sql.ref(rule.cycle === 'birthday' ? 'c.birthday' : 'c.move_in_date');
    const year0 = Number(asOf.slice(0, 4));
    // this year's and next year's day (a window at the year's end reaches into the next)
    const result = await sql<{ id: number }>`
      WITH cand AS (
        SELECT c.id, c.realname, c.steward_id, y.y, ${day} AS origin,
          least(make_date(y.y, extract(month FROM ${day})::int, 1) + (extract(day FROM ${day})::int - 1),
                (make_date(y.y, extract(month FROM ${day})::int, 1) + interval '1 month - 1 day')::date) AS due
        FROM care_customers c CROSS JOIN (VALUES (${year0}::int), (${year0 + 1}::int)) AS y(y)
        WHERE c.rid = ${rid} AND c.status = 'Y' AND ${day} IS NOT NULL ${tag}
      )
      INSERT INTO care_affairs (rid, customer_id, kind, content, assignee_id, due_date, rule_id, occurrence)
      SELECT ${rid}, c.id, ${rule.affair_kind}, ${content(sql`(c.y - extract(year FROM c.origin)::int)::text`)}, ${assignee}, c.due,
        ${rule.id}::bigint, c.y::text
      FROM cand c
      WHERE c.due BETWEEN ${asOf}::date AND ${asOf}::date + ${rule.days_before}::int
        AND c.y > extract(year FROM c.origin)::int
      ORDER BY c.id
      ON CONFLICT (rid, rule_id, customer_id, occurrence) DO NOTHING
      RETURNING id`.execute(db);
    made = result.rows;
  } else {
    const occurrences = calendarOccurrences(
      { cycle: rule.cycle, days_before: rule.days_before, day_of_month: rule.day_of_month, festival_date: rule.festival_date },
      asOf,
    );
    if (!occurrences.length) return 0;
    const result = await sql<{ id: number }>`
      INSERT INTO care_affairs (rid, customer_id, kind, content, assignee_id, due_date, rule_id, occurrence)
      SELECT ${rid}, c.id, ${rule.affair_kind}, ${content(sql`''`)}, ${assignee}, o.due::date, ${rule.id}::bigint, o.occurrence
      FROM care_customers c
      CROSS JOIN unnest(${occurrences.map((o) => o.occurrence)}::text[], ${occurrences.map((o) => o.due)}::text[]) AS o(occurrence, due)
      WHERE c.rid = ${rid} AND c.status = 'Y' ${tag}
      ORDER BY c.id, o.due
      ON CONFLICT (rid, rule_id, customer_id, occurrence) DO NOTHING
      RETURNING id`.execute(db);
    made = result.rows;
  }
  await raiseAffairsById(
    db,
    rid,
    made.map((m) => Number(m.id)),
  );
  return made.length;
}

/**
 * The job's work as of a day: every enabled rule (of one community, or one rule), each in a
 * transaction of its own unless `inCaller` (a call's transaction holds them all).
 */
export async function runCareRules(
  db: Kysely<DB>,
  asOf: string,
  only: { rid?: number; ruleId?: number; inCaller?: boolean } = {},
): Promise<number> {
  let qb = db.selectFrom('care_affair_rules').selectAll().where('status', '=', 'Y');
  if (only.rid) qb = qb.where('rid', '=', only.rid);
  if (only.ruleId) qb = qb.where('id', '=', only.ruleId);
  const rules = await qb.orderBy('rid').orderBy('id').execute();
  let made = 0;
  for (const rule of rules)
    made += only.inCaller ? await runRule(db, rule, asOf) : await db.transaction().execute((trx) => runRule(trx, rule, asOf));
  return made;
}

export const CARE_AFFAIRS_JOB = 'care_affairs';
registerJobKind(
  CARE_AFFAIRS_JOB,
  async (ctx) => {
    const asOf = typeof ctx.payload.as_of === 'string' ? ctx.payload.as_of : today();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf)) throw new Error('as_of 应为 YYYY-MM-DD');
    return { made: await runCareRules(ctx.db, asOf), as_of: asOf };
  },
  { viewers: CARE_ROLES },
);
registerDailyJob(CARE_AFFAIRS_JOB);

const affairrulerun = defineMethod('affairrulerun', {
  side: 'community',
  roles: CARE_ROLES,
  writes: true,
  summary: '立即按关怀规则生成本小区今天应生成的事务（可只运行一条规则）；按指定日期运行（演练、验收）仅限管理员；同一客户同一期不重复生成',
  async handler(ctx, input) {
    const day = today();
    const asOf = input.as_of ?? day;
    if (asOf !== day && !ctx.session.roles.includes('admin')) fail('只有管理员可以按指定日期运行关怀规则');
    if (input.rule_id) {
      const rule = await ctx.db
        .selectFrom('care_affair_rules')
        .select('status')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.rule_id)
        .executeTakeFirst();
      if (!rule) fail('关怀规则不存在');
      if (rule.status !== 'Y') fail('该关怀规则已停用');
    }
    const made = await runCareRules(ctx.db, asOf, { rid: ctx.rid, ruleId: input.rule_id, inCaller: true });
    return reply({ made, as_of: asOf }, made ? `已按规则生成 ${made} 条关怀事务` : '没有需要生成的关怀事务（同一客户同一期不会重复生成）');
  },
});

export const careRuleMethods = [...resourceMethods, affairrulerun];
