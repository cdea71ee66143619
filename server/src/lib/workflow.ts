/**
 * defineWorkflow: a contract workflow expanded into its transition methods. Each call locks the row,
 * refuses when it has moved on (该…已处理), runs the transition's hook, sets the new state and
 * writes a log row (who, when, from, to, input), all in the dispatcher's transaction; the log method
 * answers a row's log for the detail's timeline. See docs/resources.md.
 */
import {
  enumText,
  hasAnyRole,
  RC,
  transitionOf,
  type MethodName,
  type Roles,
  type WorkflowDef,
  type WorkflowLogItem,
} from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { BizError, fail, MESSAGES } from '../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type MethodDef } from '../http/registry.js';
import { wireTime } from './wire.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- a workflow's table is a name known at run time */
type Row = Record<string, any>;

export interface TransitionImpl {
  /** the work of the transition besides the state (money, other tables); runs after the checks */
  run?: (ctx: CommunityCtx, row: Row, input: Row) => Promise<void>;
  /** columns set with the state (who decided, when) */
  set?: (ctx: CommunityCtx, input: Row) => Row;
  /** the success message (default 操作成功) */
  message?: string;
  /**
   * the state reached when it depends on the row (a repair finished into 待支付, 待评价 or 待回访);
   * one of the workflow's states, default the transition's `to`
   */
  to?: (ctx: CommunityCtx, row: Row, input: Row) => string | Promise<string>;
}

export interface WorkflowImpl {
  /** the community table of the rows, keyed (rid, id) */
  table: string;
  /** what a transition answers: the row as its list shows it (default null) */
  answer?: (ctx: CommunityCtx, id: number) => Promise<unknown>;
  transitions: Record<string, TransitionImpl>;
  /** the methods' summaries in /api-docs */
  summaries?: Record<string, string>;
  /** who may read a row's log (default: the roles of its transitions) */
  logRoles?: readonly string[];
}

/** The input a log row keeps: what the user gave, without the row id and the values choosing the transition. */
function loggedInput(def: WorkflowDef, name: string, input: Row): Row {
  const t = def.transitions[name]!;
  const out: Row = {};
  for (const key of Object.keys(t.input ?? {})) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

/** Writes one log row of a workflow; creating a row into a workflow logs its first state with it. */
export async function writeFlowLog(
  ctx: CommunityCtx,
  def: WorkflowDef,
  rowId: number,
  step: { transition: string; from: string; to: string; input?: Row },
): Promise<void> {
  await ctx.db
    .insertInto('workflow_logs')
    .values({
      rid: ctx.rid,
      flow: def.name,
      row_id: rowId,
      transition: step.transition,
      from_state: step.from,
      to_state: step.to,
      input: JSON.stringify(step.input ?? {}),
      operator: ctx.session.name,
      created_by: ctx.session.accountId,
    })
    .execute();
}

/** The log of one row, oldest first. */
export async function flowLog(db: Kysely<DB>, rid: number, def: WorkflowDef, rowId: number): Promise<WorkflowLogItem[]> {
  const rows = await db
    .selectFrom('workflow_logs')
    .selectAll()
    .where('rid', '=', rid)
    .where('flow', '=', def.name)
    .where('row_id', '=', rowId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    transition: r.transition,
    transition_ch: def.transitions[r.transition]?.label ?? def.steps?.[r.transition] ?? (r.transition === 'create' ? '提交' : r.transition),
    from_state: r.from_state,
    from_state_ch: enumText(def.states, r.from_state),
    to_state: r.to_state,
    to_state_ch: enumText(def.states, r.to_state),
    input: (typeof r.input === 'string' ? JSON.parse(r.input) : r.input) as Record<string, unknown>,
    operator: r.operator,
    create_time: wireTime(r.created_at),
  }));
}

/** Everyone some of the lists let in: 'any' when one of them is. */
function unionRoles(lists: ReadonlyArray<Roles>): Roles {
  return lists.includes('any') ? 'any' : [...new Set(lists.flatMap((r) => (r === 'any' ? [] : [...r])))];
}

export function defineWorkflow(flow: { readonly def: WorkflowDef }, impl: WorkflowImpl): MethodDef[] {
  const { def } = flow;
  const stateColumn = def.stateField ?? 'status';
  const db = (ctx: CommunityCtx) => ctx.db as unknown as Kysely<any>;
  const methods = new Map<string, string[]>();
  for (const [name, t] of Object.entries(def.transitions)) methods.set(t.method, [...(methods.get(t.method) ?? []), name]);

  const defs: MethodDef[] = [];
  for (const [method, names] of methods) {
    const roles = unionRoles(names.map((n) => def.transitions[n]!.roles));
    defs.push(
      defineMethod(method as MethodName, {
        side: 'community',
        roles,
        writes: true,
        summary: impl.summaries?.[method] ?? `${def.label}：${names.map((n) => def.transitions[n]!.label).join('、')}`,
        async handler(ctx, payload) {
          const input = payload as Row;
          const found = transitionOf(def, method, input);
          if (!found) return fail('参数不正确');
          const [name, t] = found;
          if (!hasAnyRole(ctx.session.roles, t.roles === 'any' ? undefined : t.roles)) {
            throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
          }
          const row = (await db(ctx)
            .selectFrom(impl.table)
            .selectAll()
            .where('rid', '=', ctx.rid)
            .where('id', '=', input.id)
            .forUpdate()
            .executeTakeFirst()) as Row | undefined;
          if (!row) return fail(`${def.label}不存在`);
          const from = String(row[stateColumn]);
          if (!t.from.includes(from)) return fail(`该${def.label}已处理`);
          const step = impl.transitions[name] ?? {};
          await step.run?.(ctx, row, input);
          const to = step.to ? await step.to(ctx, row, input) : t.to;
          if (!(to in def.states)) throw new Error(`workflow ${def.name}: unknown state ${to}`);
          await db(ctx)
            .updateTable(impl.table)
            .set({ ...(step.set?.(ctx, input) ?? {}), [stateColumn]: to })
            .where('rid', '=', ctx.rid)
            .where('id', '=', input.id)
            .execute();
          await writeFlowLog(ctx, def, row.id as number, { transition: name, from, to, input: loggedInput(def, name, input) });
          const answer = impl.answer ? await impl.answer(ctx, row.id as number) : null;
          return reply(answer, step.message ?? '操作成功') as never;
        },
      }),
    );
  }
  if (def.logMethod) {
    const readRoles = unionRoles(Object.values(def.transitions).map((t) => t.roles));
    defs.push(
      defineMethod(def.logMethod as MethodName, {
        side: 'community',
        roles: impl.logRoles ?? readRoles,
        writes: false,
        summary: impl.summaries?.[def.logMethod] ?? `${def.label}的处理记录（时间线）`,
        async handler(ctx, payload) {
          const id = (payload as Row).id as number;
          const exists = await db(ctx)
            .selectFrom(impl.table)
            .select('id')
            .where('rid', '=', ctx.rid)
            .where('id', '=', id)
            .executeTakeFirst();
          if (!exists) return fail(`${def.label}不存在`);
          return { items: await flowLog(ctx.db, ctx.rid, def, id) } as never;
        },
      }),
    );
  }
  return defs;
}

/** One state's row of a list's status bar: how many, and how many of them are past due. */
export interface StateCount {
  status: string;
  n: number;
  late: number;
}

/**
 * A workflow list's status bar (web/src/components/StatusBar.tsx): every state's count (0 when
 * none), `all`, and `overdue`: the rows past due, counted in the states that can be late (all of
 * them unless `lateIn` says which).
 */
export function statusBarCounts<S extends string>(
  rows: readonly StateCount[],
  states: readonly S[],
  lateIn?: readonly string[],
): Record<S | 'all' | 'overdue', number> {
  const out = { all: 0, overdue: 0 } as Record<S | 'all' | 'overdue', number>;
  for (const s of states) out[s] = 0;
  for (const r of rows) {
    out[r.status as S] = r.n;
    out.all += r.n;
    if (!lateIn || lateIn.includes(r.status)) out.overdue += r.late;
  }
  return out;
}
