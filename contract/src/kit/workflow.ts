/**
 * One description of a workflow: its states (a valueEnum, also the list's status column) and
 * its transitions. The server expands each transition into a step of one method (defineWorkflow:
 * lock the row, refuse when it has moved on, update, log, hook); the web shows only the
 * transitions allowed from a row's state for the user's roles (WorkflowActions). See docs/resources.md.
 */
import { z } from 'zod';
import { id } from '../common.js';
import type { Roles, ValueEnum } from './resource.js';

export interface TransitionDef {
  /** the wire method; several transitions may share one, told apart by `fixed` */
  method: string;
  /** the button's text (同意, 驳回, 派单) */
  label: string;
  from: readonly string[];
  to: string;
  roles: Roles;
  /** payload values that choose this transition when transitions share a method, e.g. { approve: true } */
  fixed?: Readonly<Record<string, string | number | boolean>>;
  /** the inputs the user gives (besides the row's id), as zod fields */
  input?: Readonly<Record<string, z.ZodType>>;
  /** labels of those inputs for the web form */
  inputLabels?: Readonly<Record<string, string>>;
  /** the words of the coded inputs (a close reason's key, a Y/N), so the log reads 关闭原因：重复, not duplicate */
  inputEnums?: Readonly<Record<string, ValueEnum>>;
  /** asks for confirmation before it runs */
  confirm?: string;
  /** a red button */
  danger?: boolean;
}

export interface WorkflowDef {
  /** lower-case name: test ids (`refund-approve-7`), log rows */
  name: string;
  /** what one row is called: 退款申请 → 该退款申请已处理 */
  label: string;
  states: ValueEnum;
  /** the row column holding the state (default status) */
  stateField?: string;
  transitions: Readonly<Record<string, TransitionDef>>;
  /**
   * labels of the steps logged outside the transitions: a row created is 提交 unless named here, and
   * a row may be moved by other work (a discount used by a payment: { use: '收款使用' })
   */
  steps?: Readonly<Record<string, string>>;
  /** the method answering a row's log (the timeline of the detail) */
  logMethod?: string;
  /** labels of the inputs a log row keeps that no transition names (those given when the row was created) */
  fieldLabels?: Readonly<Record<string, string>>;
}

type TransitionMethods<W extends WorkflowDef> = W['transitions'][keyof W['transitions']]['method'];
/** A transition's payload: the row id, the fixed values that choose it, its inputs. */
export type TransitionSchema = z.ZodObject<{ id: typeof id } & Record<string, z.ZodType>>;
export type WorkflowSchemas<W extends WorkflowDef> = { [M in TransitionMethods<W>]: TransitionSchema } & (W['logMethod'] extends string
  ? { [L in W['logMethod']]: z.ZodObject<{ id: typeof id }> }
  : unknown);

export interface Workflow<W extends WorkflowDef = WorkflowDef> {
  readonly def: W;
  /** the schema of each transition method (and of the log method), keyed by their literal names */
  readonly schemas: WorkflowSchemas<W>;
}

function fixedSchema(v: string | number | boolean): z.ZodType {
  if (typeof v === 'boolean') return z.boolean();
  if (typeof v === 'number') return z.number();
  return z.string();
}

export function workflow<const W extends WorkflowDef>(def: W): Workflow<W> {
  const byMethod = new Map<string, TransitionDef[]>();
  for (const t of Object.values(def.transitions)) {
    if (!(t.to in def.states)) throw new Error(`workflow ${def.name}: unknown state ${t.to}`);
    for (const f of t.from) if (!(f in def.states)) throw new Error(`workflow ${def.name}: unknown state ${f}`);
    byMethod.set(t.method, [...(byMethod.get(t.method) ?? []), t]);
  }
  const schemas: Record<string, z.ZodType> = {};
  for (const [method, ts] of byMethod) {
    const shape: Record<string, z.ZodType> = { id };
    for (const t of ts) {
      for (const [k, v] of Object.entries(t.fixed ?? {})) shape[k] = fixedSchema(v);
      Object.assign(shape, t.input ?? {});
    }
    schemas[method] = z.object(shape);
  }
  if (def.logMethod) schemas[def.logMethod] = z.object({ id });
  return { def, schemas: schemas as WorkflowSchemas<W> };
}

/** The transitions a user may take from a state. */
export function allowedTransitions(def: WorkflowDef, state: string, can: (roles: Roles) => boolean): Array<[string, TransitionDef]> {
  return Object.entries(def.transitions).filter(([, t]) => t.from.includes(state) && can(t.roles));
}

/** The transition a call of a shared method means: the one whose fixed values the payload carries. */
export function transitionOf(def: WorkflowDef, method: string, payload: Record<string, unknown>): [string, TransitionDef] | undefined {
  return Object.entries(def.transitions).find(
    ([, t]) => t.method === method && Object.entries(t.fixed ?? {}).every(([k, v]) => payload[k] === v),
  );
}

/** One row of a workflow's log: who moved it, when, from which state to which, with what input. */
export interface WorkflowLogItem {
  id: number;
  transition: string;
  transition_ch: string;
  from_state: string;
  from_state_ch: string;
  to_state: string;
  to_state_ch: string;
  input: Record<string, unknown>;
  operator: string;
  create_time: string;
}
