/**
 * defineResource: a contract resource description expanded into ordinary methods (list, small,
 * info, add, edit, del, export), so the dispatcher, /api-docs and the safety suite cover them as
 * any hand-written method. Defaults: every statement scoped by (rid, id), or by the session's
 * group for a resource the property company owns (`owner: 'group'`); 不存在 / 已存在 /
 * 添加成功 / 保存成功 / 删除成功; a delete refused while rows hang on the row; wire times; `*_ch`
 * texts from the enums. Business rules stay code, passed beside the description. See
 * docs/resources.md.
 */
import {
  enumText,
  isMembersWidget,
  keysIn,
  matchOf,
  type FieldDef,
  type FilterValue,
  type MethodName,
  type ResourceDef,
  type ValueEnum,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import { fail } from '../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type Ctx, type MethodDef, type Session } from '../http/registry.js';
import { defineExport } from '../jobs/exports.js';
import { firstDependent, tableLabel } from './dependents.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, type SheetColumn } from './excel.js';
import { contactKindOf } from '@wuye/contract/team/contact';
import { containsOperator, likePattern } from './like.js';
import { listPage } from './paging.js';
import { today, wireTime } from './wire.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- a resource's table is a name known at run time */
type AnyDb = Kysely<any>;
type AnySelect = SelectQueryBuilder<any, any, any>;
type Values = Record<string, unknown>;
type Input = Record<string, unknown>;

/** The ctx of a group-owned resource's handlers: either side's session; its group is `session.groupId`. */
export type GroupCtx = Ctx & { session: Session };

/** The ctx a resource's business rules get: a community's call, or (owner 'group') either side's. */
type CtxOf<D> = D extends { owner: 'group' } ? GroupCtx : CommunityCtx;

export interface ResourceImpl<C extends Ctx = CommunityCtx> {
  /** the table; a community's rows are (rid, id), a group-owned resource's carry group_id */
  table: string;
  /**
   * the resource's rows where the table holds several kinds (devices: `{ family: 'door' }`): an add
   * writes these values, an edit or a delete finds only such rows; the query filters them itself
   */
  rows?: Record<string, string>;
  /**
   * rows of the list, info and export, the table aliased t (joins welcome), of the owner `scope`
   * (the community's rid, or the group's id for `owner: 'group'`); default t.*
   */
  query?: (db: AnyDb, scope: number) => AnySelect;
  /** filters that are not a plain column of t, or match otherwise */
  where?: Record<string, (qb: AnySelect, value: FilterValue) => AnySelect>;
  /** a row of the query as the wire has it, after the defaults (times, `*_ch`) */
  row?: (row: any) => any;
  /**
   * a row shaped, after `row`, with what a call reads once for all its rows where SQL would repeat
   * a rule kept in code (a menu entry hidden by the services its community offers)
   */
  rowWith?: (db: Kysely<DB>, scope: number) => Promise<(row: any) => any>;
  /** columns unique within the community (or the group), with the refusal's message; a null value matches null */
  unique?: Array<{ on: string[]; message: (values: Values) => string }>;
  /** the business rules of an add or an edit; `before` is the row being edited */
  check?: (ctx: C, values: Values, before?: Values) => Promise<void>;
  /** the columns written, from the parsed input (derived columns) */
  values?: (input: Values, ctx: C, before?: Values) => Values | Promise<Values>;
  /** runs after an add's insert or an edit's update, in the same transaction (rows kept beside it: a history, a space taken) */
  after?: (ctx: C, id: number, values: Values, before?: Values) => Promise<void>;
  /** runs before the edit's update, after the checks (e.g. locks taken in a fixed order) */
  beforeEdit?: (ctx: C, before: Values, values: Values) => Promise<void>;
  /** refusals of a delete besides the rows hanging on it */
  beforeDelete?: (ctx: C, row: Values) => Promise<void>;
  /** delete refusals by the dependent table, where the default 该X下还有Y，不能删除 does not fit */
  dependents?: Record<string, string>;
  /** the small list's label column and order (default title; sort, id when the table has sort) */
  small?: { label?: string; order?: string[] };
  /**
   * the ORDER BY terms of the list (in the asked direction), its export and its small list, before
   * the id; `prefix` is 't.' in the list and '' in the small list (lib/placeOrder.ts for places)
   */
  order?: (prefix: '' | 't.') => Array<RawBuilder<unknown>>;
  /**
   * figures over every row the list's filters find, not only the page's (the money of a register):
   * answered beside the page as `sums`; `filtered` is the list's query, whose selection it replaces
   */
  sums?: (filtered: AnySelect) => Promise<Record<string, unknown>>;
  /** methods' summaries in /api-docs, where the default does not say enough */
  summaries?: Partial<Record<keyof ResourceDef['methods'], string>>;
  /** hand-written methods in place of generated ones (tuned lists, special answers) */
  replace?: Partial<Record<keyof ResourceDef['methods'], MethodDef>>;
}

/**
 * The wire row of a database row: times as wire text (created_at → create_time), coded values'
 * texts. The description's enums are gathered once, not per row.
 */
export function wireRows(def: ResourceDef): (row: Values) => Values {
  const enums = enumsOf(def);
  const owner = ownerColumn(def);
  const keepOwner = owner in def.fields;
  return (row) => {
    const out: Values = {};
    for (const [k, v] of Object.entries(row)) {
      if (k === owner && !keepOwner) continue;
      const key = k === 'created_at' ? 'create_time' : k === 'updated_at' ? 'update_time' : k;
      out[key] = v instanceof Date ? wireTime(v) : v;
    }
    for (const [k, e] of enums) if (k in out && !(`${k}_ch` in row)) out[`${k}_ch`] = enumText(e, out[k] as string);
    return out;
  };
}

/** The column that says whose a row is: rid, or group_id for the property company's resources. */
const ownerColumn = (def: ResourceDef) => (def.owner === 'group' ? 'group_id' : 'rid');

function enumsOf(def: ResourceDef): Array<[string, ValueEnum]> {
  const list: Array<[string, ValueEnum]> = [];
  for (const [k, f] of Object.entries(def.fields)) if (f.enum) list.push([k, f.enum]);
  for (const c of def.columns ?? []) if (c.enum) list.push([c.key, c.enum]);
  return list;
}

function applyFilter(qb: AnySelect, key: string, field: FieldDef, value: FilterValue): AnySelect {
  const column = sql.ref(`t.${key}`);
  switch (matchOf(field)) {
    case 'like': {
      const text = String(value);
      return qb.where(column, containsOperator(text), likePattern(text));
    }
    case 'range': {
      // days of the business time zone (the session's), both included: from its first moment to before the next day's
      const [from, to] = value as [string, string];
      let q = qb;
      if (from) q = q.where(column, '>=', sql`${from}::date`);
      if (to) q = q.where(column, '<', sql`${to}::date + 1`);
      return q;
    }
    case 'in':
      return qb.where(column, 'in', value as Array<string | number>);
    default:
      return qb.where(column, '=', value);
  }
}

const isGiven = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * What a field's widget says of its value, checked on add and edit: a `room` is a room of the
 * community; a `membersOf` person lives now in the room chosen beside it.
 */
async function checkWidgets(ctx: CommunityCtx, def: ResourceDef, values: Values): Promise<void> {
  const db = ctx.db as Kysely<DB>;
  for (const [key, f] of Object.entries(def.fields)) {
    const value = values[key];
    if (!isGiven(value)) continue;
    if (f.widget === 'room') {
      const room = await db.selectFrom('rooms').select('id').where('rid', '=', ctx.rid).where('id', '=', Number(value)).executeTakeFirst();
      if (!room) fail(`所选${f.label}不存在或不属于当前小区`);
    } else if (isMembersWidget(f.widget)) {
      const hid = values[f.widget.membersOf];
      const lives =
        isGiven(hid) &&
        (await db
          .selectFrom('room_members')
          .select('id')
          .where('rid', '=', ctx.rid)
          .where('hid', '=', Number(hid))
          .where('member_id', '=', Number(value))
          .where('status', '=', 'Y')
          .executeTakeFirst());
      if (!lives) fail(`${f.label}必须是该${def.fields[f.widget.membersOf]?.label ?? '房屋'}的在住住户`);
    }
  }
}

export function defineResource<D extends ResourceDef>(resource: { readonly def: D }, impl: ResourceImpl<CtxOf<D>>): MethodDef[] {
  const def: ResourceDef = resource.def;
  const m = def.methods;
  const { table } = impl;
  const notFound = `${def.label}不存在`;
  // whose rows: a community's (rid, community side) or the property company's (group_id, both sides)
  const byGroup = def.owner === 'group';
  const owner = ownerColumn(def);
  // typed as the community's: the handlers read the owner only through scopeOf, never ctx.rid
  // (groupSide: the head office's alone, on the group side)
  const side = (byGroup ? (def.groupSide ? 'group' : 'both') : 'community') as 'community';
  type AnyCtx = CommunityCtx | GroupCtx;
  const scopeOf = (ctx: AnyCtx): number => (byGroup ? ctx.session.groupId : (ctx as CommunityCtx).rid);
  const rules = impl as unknown as ResourceImpl<AnyCtx>;
  /** an export runs in a community's job: a group-owned resource exports that community's group's rows */
  const exportScope = async (db: Kysely<DB>, rid: number): Promise<number> => {
    if (!byGroup) return rid;
    const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirstOrThrow();
    return region.group_id;
  };
  const dbOf = (ctx: AnyCtx) => ctx.db as unknown as AnyDb;
  const baseQuery = (db: AnyDb, scope: number): AnySelect =>
    impl.query
      ? impl.query(db, scope)
      : db
          .selectFrom(`${table} as t`)
          .selectAll('t')
          .where(sql.ref(`t.${owner}`), '=', scope);
  const wireRow = wireRows(def);
  const shape = impl.row;
  const toWire = shape ? (row: Values) => shape(wireRow(row)) : wireRow;
  /** toWire, then the call's own shaping (rowWith) */
  const wireFor = async (db: AnyDb, scope: number): Promise<typeof toWire> => {
    if (!impl.rowWith) return toWire;
    const more = await impl.rowWith(db as Kysely<DB>, scope);
    return (row) => more(toWire(row));
  };
  const filterKeys = keysIn(def, 'filter');

  function filtered(db: AnyDb, scope: number, input: Input): AnySelect {
    let qb = baseQuery(db, scope);
    for (const key of filterKeys) {
      const value = input[key] as FilterValue;
      if (!isGiven(value)) continue;
      const custom = impl.where?.[key];
      qb = custom ? custom(qb, value) : applyFilter(qb, key, def.fields[key]!, value);
    }
    return qb;
  }

  /** The list's own order before its id, in the asked direction (none: by id alone). */
  const ordered = (qb: AnySelect, dir: 'asc' | 'desc'): AnySelect => {
    for (const term of impl.order?.('t.') ?? []) qb = qb.orderBy(term, dir);
    return qb;
  };

  // no row lock here: an edit's own locks (beforeEdit) come first, in the order every writer takes them
  const kind = Object.entries(impl.rows ?? {});
  async function findRow(ctx: AnyCtx, id: number): Promise<Values> {
    let qb = dbOf(ctx).selectFrom(table).selectAll().where(owner, '=', scopeOf(ctx)).where('id', '=', id);
    for (const [col, v] of kind) qb = qb.where(col, '=', v);
    const row = (await qb.executeTakeFirst()) as Values | undefined;
    return row ?? fail(notFound);
  }

  async function refuseDuplicates(ctx: AnyCtx, values: Values, exceptId?: number) {
    for (const u of impl.unique ?? []) {
      if (!u.on.every((col) => col in values)) continue;
      let qb = dbOf(ctx).selectFrom(table).select('id').where(owner, '=', scopeOf(ctx));
      for (const col of u.on) qb = values[col] === null ? qb.where(col, 'is', null) : qb.where(col, '=', values[col]);
      if (exceptId !== undefined) qb = qb.where('id', '<>', exceptId);
      if (await qb.executeTakeFirst()) fail(u.message(values));
    }
  }

  const summary = (key: keyof ResourceDef['methods'], fallback: string) => impl.summaries?.[key] ?? fallback;
  const name = (n: string) => n as MethodName;
  const methods: MethodDef[] = [];
  const add = (key: keyof ResourceDef['methods'], make: () => MethodDef) => {
    if (!m[key]) return;
    methods.push(impl.replace?.[key] ?? make());
  };

  add('list', () =>
    defineMethod(name(m.list), {
      side,
      roles: def.roles.read,
      writes: false,
      summary: summary('list', `${def.label}列表`),
      async handler(ctx, input) {
        const rows = filtered(dbOf(ctx), scopeOf(ctx), input as Input);
        const dir = (input as { sort: 'asc' | 'desc' }).sort;
        const page = impl.order
          ? await listPage(ordered(rows, dir), input as never, 't.id', rows)
          : await listPage(rows, input as never, 't.id');
        const sums = impl.sums ? { sums: await impl.sums(rows) } : {};
        const wire = await wireFor(dbOf(ctx), scopeOf(ctx));
        return { total: page.total, items: page.items.map(wire), ...sums } as never;
      },
    }),
  );

  add('small', () =>
    defineMethod(name(m.small!), {
      side,
      // a community's dropdowns serve its accounts; the company's serve its staff, not merchants
      roles: byGroup ? 'staff' : 'any',
      writes: false,
      summary: summary('small', `${def.label}下拉（id、title）`),
      async handler(ctx, input) {
        const label = impl.small?.label ?? 'title';
        let qb = dbOf(ctx)
          .selectFrom(table)
          .select(['id', sql.ref(label).as('title')])
          .where(owner, '=', scopeOf(ctx));
        for (const key of def.smallBy ?? []) qb = qb.where(key, '=', (input as Input)[key]);
        if (impl.order) for (const term of [...impl.order(''), sql.ref('id')]) qb = qb.orderBy(term);
        else for (const col of impl.small?.order ?? ('sort' in def.fields ? ['sort', 'id'] : ['id'])) qb = qb.orderBy(col);
        return { items: await qb.execute() } as never;
      },
    }),
  );

  add('info', () =>
    defineMethod(name(m.info!), {
      side,
      roles: def.roles.read,
      writes: false,
      summary: summary('info', `${def.label}详情`),
      async handler(ctx, input) {
        const row = (await baseQuery(dbOf(ctx), scopeOf(ctx))
          .where('t.id', '=', (input as Input).id)
          .executeTakeFirst()) as Values | undefined;
        const wire = await wireFor(dbOf(ctx), scopeOf(ctx));
        return wire(row ?? fail(notFound)) as never;
      },
    }),
  );

  add('add', () =>
    defineMethod(name(m.add!), {
      side,
      roles: def.roles.write,
      writes: true,
      summary: summary('add', `新增${def.label}`),
      async handler(ctx, input) {
        // the widgets check what the user chose, before values() derives the row's columns from it
        if (!byGroup) await checkWidgets(ctx as CommunityCtx, def, input as Values);
        const values = rules.values ? await rules.values(input as Values, ctx) : (input as Values);
        await rules.check?.(ctx, values);
        await refuseDuplicates(ctx, values);
        const { id } = (await dbOf(ctx)
          .insertInto(table)
          .values({ ...values, ...impl.rows, [owner]: scopeOf(ctx) })
          .returning('id')
          .executeTakeFirstOrThrow()) as { id: number };
        await rules.after?.(ctx, Number(id), values);
        return reply({ id }, '添加成功') as never;
      },
    }),
  );

  add('edit', () =>
    defineMethod(name(m.edit!), {
      side,
      roles: def.roles.write,
      writes: true,
      summary: summary('edit', `修改${def.label}`),
      async handler(ctx, input) {
        const { id, ...rest } = input as Values & { id: number };
        const before = await findRow(ctx, id);
        if (!byGroup) await checkWidgets(ctx as CommunityCtx, def, rest);
        const values = rules.values ? await rules.values(rest, ctx, before) : rest;
        await rules.check?.(ctx, values, before);
        await refuseDuplicates(ctx, values, id);
        await rules.beforeEdit?.(ctx, before, values);
        await dbOf(ctx).updateTable(table).set(values).where(owner, '=', scopeOf(ctx)).where('id', '=', id).execute();
        await rules.after?.(ctx, id, values, before);
        return reply(def.echoId ? { id } : null, '保存成功') as never;
      },
    }),
  );

  add('del', () =>
    defineMethod(name(m.del!), {
      side,
      roles: def.roles.write,
      writes: true,
      summary: summary('del', `删除${def.label}（还有数据挂在其下时拒绝）`),
      async handler(ctx, input) {
        const id = (input as Values).id as number;
        const row = await findRow(ctx, id);
        await rules.beforeDelete?.(ctx, row);
        // a group's row has no rid: only the references by its id (dept_id = id) count
        const dependent = await firstDependent(ctx.db as Kysely<DB>, table, byGroup ? null : (ctx as CommunityCtx).rid, id);
        if (dependent) fail(impl.dependents?.[dependent] ?? `该${def.label}下还有${tableLabel(dependent)}，不能删除`);
        await dbOf(ctx).deleteFrom(table).where(owner, '=', scopeOf(ctx)).where('id', '=', id).execute();
        return reply(def.echoId ? { id } : null, '删除成功') as never;
      },
    }),
  );

  add('export', () => {
    const columns = exportColumns(def);
    return defineExport(name(m.export!), {
      roles: def.roles.read,
      summary: summary('export', `按当前筛选条件导出${def.label}（Excel）`),
      filename: () => `${def.label}列表_${today()}.xlsx`,
      check: async ({ db, rid }, input) => refuseOversizedExport(db, filtered(db as AnyDb, await exportScope(db, rid), input as Input)),
      async sheet({ db, rid }, input) {
        const dir = (input as { sort: 'asc' | 'desc' }).sort;
        const scope = await exportScope(db, rid);
        const rows = (await ordered(filtered(db as AnyDb, scope, input as Input), dir)
          .orderBy('t.id', dir)
          .limit(EXPORT_MAX)
          .execute()) as Values[];
        return sheetOf(def.label, columns, rows.map(await wireFor(db as AnyDb, scope)));
      },
    });
  });

  return methods;
}

/** The export's columns: ID, then the fields and columns shown in an export, coded values as text. */
function exportColumns(def: ResourceDef) {
  const cols: SheetColumn<Values>[] = [{ header: 'ID', value: (r) => r.id as number, width: 8 }];
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'number' ? v : String(v));
  for (const key of keysIn(def, 'export')) {
    const f = def.fields[key]!;
    cols.push({ header: f.label, value: (r) => cell(f.enum ? r[`${key}_ch`] : r[key]), contact: contactKindOf(key) });
  }
  for (const c of def.columns ?? []) {
    if (!(c.in ?? ['table', 'export']).includes('export')) continue;
    cols.push({ header: c.label, value: (r) => cell(c.enum ? r[`${c.key}_ch`] : r[c.key]), contact: contactKindOf(c.key) });
  }
  return cols;
}
