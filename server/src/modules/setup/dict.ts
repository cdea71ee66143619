/**
 * 数据字典 (/setup/dict_list; contract/src/setup/dict.ts). System types are the contract's governed
 * enums: their values are the code's, a group renames their labels (dict_labels), which every call
 * then reads (dictLabels.ts). Editable types (DICT_TYPES) keep their items in dict_items: the group's
 * (rid null, shared by its communities) and a community's own. A used value cannot change.
 */
import {
  DICT_SCOPE,
  DICT_STATUS,
  DICT_TYPES,
  DICT_KEEPERS,
  enumText,
  governedEnum,
  governedEnums,
  type DictItem,
  type DictTypeKey,
  type Tone,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { wireTime } from '../../lib/wire.js';
import { clearDictLabels, groupLabels } from './dictLabels.js';

/* ---------- where an editable value is used ---------- */

export interface DictUse {
  type: DictTypeKey;
  /** a community's table (keyed by rid) whose column holds the item's value */
  table: string;
  column: string;
  /** what a row is called in a refusal: 来访记录 */
  label: string;
}
const uses: DictUse[] = [];
/** Registers a column holding values of an editable type: a used value is then kept as it is. */
export function registerDictUse(use: DictUse): void {
  if (!uses.some((u) => u.table === use.table && u.column === use.column)) uses.push(use);
}
// the tables that hold these values today: the visitors' cause and the cars' brand
registerDictUse({ type: 'visitor_reason', table: 'visitors', column: 'visit_cause', label: '来访记录' });
registerDictUse({ type: 'car_brand', table: 'cars', column: 'brand', label: '车辆' });

/** Rows using an item's value: in its community, or (a group's item) in every community of the group. */
export async function dictValueUses(
  db: Kysely<DB>,
  item: { group_id: number; rid: number | null; type: string; value: string },
): Promise<number> {
  let n = 0;
  for (const u of uses.filter((x) => x.type === item.type)) {
    const where = item.rid === null ? sql`rid IN (SELECT id FROM regions WHERE group_id = ${item.group_id})` : sql`rid = ${item.rid}`;
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(u.table)}
      WHERE ${where} AND ${sql.ref(u.column)} = ${item.value}`.execute(db);
    n += rows[0]?.n ?? 0;
  }
  return n;
}

/* ---------- the reader's items ---------- */

const isEditableType = (type: string): type is DictTypeKey => Object.hasOwn(DICT_TYPES, type);

/**
 * A call on the dictionary: from a community (its setup managers), or from the group side (the head
 * office), which keeps the group's items and labels only (docs/product.md#dictionary).
 */
type DictCtx = Ctx & { session: Session };
/** The caller's community; null on the group side. */
const ridOf = (ctx: DictCtx) => (ctx.session.side === 'group' ? null : ctx.session.rid);

/** The editable items the caller sees: its group's, and a community's own. */
const visibleItems = (ctx: DictCtx) => {
  const rid = ridOf(ctx);
  return ctx.db
    .selectFrom('dict_items')
    .where('group_id', '=', ctx.session.groupId)
    .where((eb) => (rid === null ? eb('rid', 'is', null) : eb.or([eb('rid', 'is', null), eb('rid', '=', rid)])));
};

/** An editable item the caller may change (its group's, or a community's own), locked; else 不存在. */
async function itemOf(ctx: DictCtx, id: number) {
  const row = await visibleItems(ctx).selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row ?? fail('字典项不存在');
}

async function refuseDuplicateValue(ctx: DictCtx, type: string, value: string, exceptId?: number) {
  let qb = ctx.db
    .selectFrom('dict_items')
    .select('id')
    .where('group_id', '=', ctx.session.groupId)
    .where('type', '=', type)
    .where('value', '=', value);
  if (exceptId !== undefined) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst()) fail(`字典值“${value}”已存在`);
}

const system = (): Pick<DictItem, 'scope' | 'scope_ch'> => ({ scope: 'system', scope_ch: enumText(DICT_SCOPE, 'system') });

const dicttypelist = defineMethod('dicttypelist', {
  side: 'both',
  roles: DICT_KEEPERS,
  writes: false,
  summary: '字典类型：系统类型（代码中的状态值，可改标签）及可维护的类型（集团与本小区的字典项数）',
  async handler(ctx) {
    const labels = await groupLabels(ctx.db, ctx.session.groupId);
    const counts = await visibleItems(ctx)
      .select(['type', sql<number>`count(*)::int`.as('n')])
      .groupBy('type')
      .execute();
    const custom = Object.keys(DICT_TYPES).map((key) => ({
      key,
      name: enumText(DICT_TYPES, key),
      scope: 'custom' as const,
      count: counts.find((c) => c.type === key)?.n ?? 0,
      renamed: 0,
    }));
    const sys = governedEnums().map((e) => ({
      key: e.key,
      name: e.name,
      scope: 'system' as const,
      count: e.items.length,
      renamed: labels.get(e.key)?.size ?? 0,
    }));
    return { items: [...sys, ...custom] };
  },
});

const dictlist = defineMethod('dictlist', {
  side: 'both',
  roles: DICT_KEEPERS,
  writes: false,
  summary: '字典项：系统类型列出代码中的值与当前标签（默认标签并列）；可维护类型列出集团与本小区的项及使用数；按标签、状态筛选',
  async handler(ctx, input) {
    const governed = governedEnum(input.type);
    const start = (input.page - 1) * input.limit;
    if (governed) {
      const labels = (await groupLabels(ctx.db, ctx.session.groupId)).get(governed.key);
      let items: DictItem[] = governed.items.map((it, i) => ({
        id: 0,
        type: governed.key,
        value: it.value,
        label: labels?.get(it.value) ?? it.text,
        default_label: it.text,
        sort: i,
        tone: it.tone ?? 'default',
        status: 'Y',
        status_ch: enumText(DICT_STATUS, 'Y'),
        remark: '',
        ...system(),
        used: 0,
        create_time: '',
      }));
      if (input.label) items = items.filter((it) => it.label.includes(input.label!));
      if (input.status) items = items.filter((it) => it.status === input.status);
      if (input.sort === 'desc') items.reverse();
      return { total: items.length, items: items.slice(start, start + input.limit) };
    }
    if (!isEditableType(input.type)) return fail('字典类型不存在');
    let qb = visibleItems(ctx).where('type', '=', input.type);
    if (input.label) qb = qb.where('label', 'like', likePattern(input.label));
    if (input.status) qb = qb.where('status', '=', input.status);
    const { total } = await qb.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    const rows = await qb.selectAll().orderBy('sort', input.sort).orderBy('id', input.sort).offset(start).limit(input.limit).execute();
    const items: DictItem[] = [];
    for (const r of rows) {
      const scope = r.rid === null ? 'group' : 'community';
      items.push({
        id: r.id,
        type: r.type,
        value: r.value,
        label: r.label,
        default_label: '',
        sort: r.sort,
        tone: r.tone as Tone,
        status: r.status as 'Y' | 'N',
        status_ch: enumText(DICT_STATUS, r.status),
        remark: r.remark,
        scope,
        scope_ch: enumText(DICT_SCOPE, scope),
        used: await dictValueUses(ctx.db, r),
        create_time: wireTime(r.created_at),
      });
    }
    return { total, items };
  },
});

const dictlabel = defineMethod('dictlabel', {
  side: 'both',
  roles: DICT_KEEPERS,
  writes: true,
  summary: '修改系统字典项的标签（值不可改；空标签恢复默认）：集团内所有列表、筛选、表单与导出即显示新标签',
  async handler(ctx, input) {
    const governed = governedEnum(input.type);
    if (!governed) return fail('只有系统字典项在这里改标签；可维护的字典项请用编辑');
    const item = governed.items.find((it) => it.value === input.value);
    if (!item) return fail('字典项不存在');
    const groupId = ctx.session.groupId;
    const label = input.label;
    if (label === '' || label === item.text) {
      await ctx.db
        .deleteFrom('dict_labels')
        .where('group_id', '=', groupId)
        .where('type', '=', input.type)
        .where('value', '=', input.value)
        .execute();
      clearDictLabels();
      return reply(null, `已恢复默认标签“${item.text}”`);
    }
    // a word once in its type: two values with one label could not be told apart in a filter
    const current = (await groupLabels(ctx.db, groupId)).get(input.type);
    const clash = governed.items.find((it) => it.value !== input.value && (current?.get(it.value) ?? it.text) === label);
    if (clash) return fail(`“${governed.name}”中已有标签“${label}”`);
    await ctx.db
      .insertInto('dict_labels')
      .values({ group_id: groupId, type: input.type, value: input.value, label, created_by: ctx.session.accountId })
      .onConflict((oc) =>
        oc.columns(['group_id', 'type', 'value']).doUpdateSet({ label, created_by: ctx.session.accountId, created_at: sql`now()` }),
      )
      .execute();
    clearDictLabels();
    return reply(null, '保存成功');
  },
});

const dictadd = defineMethod('dictadd', {
  side: 'both',
  roles: DICT_KEEPERS,
  writes: true,
  summary: '新增字典项（可维护类型；集团项各小区共用，小区项仅本小区；值在类型内唯一）',
  async handler(ctx, input) {
    // values of one type of the group take turns, so two adds of one value cannot both pass
    await sql`SELECT pg_advisory_xact_lock(hashtext('dict_items'), ${ctx.session.groupId})`.execute(ctx.db);
    const rid = ridOf(ctx);
    if (rid === null && input.scope !== 'group') fail('集团端只维护集团字典项，小区字典项请在小区端维护');
    await refuseDuplicateValue(ctx, input.type, input.value);
    const { id } = await ctx.db
      .insertInto('dict_items')
      .values({
        group_id: ctx.session.groupId,
        rid: input.scope === 'group' ? null : rid,
        type: input.type,
        value: input.value,
        label: input.label,
        sort: input.sort,
        tone: input.tone,
        status: input.status,
        remark: input.remark,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const dictedit = defineMethod('dictedit', {
  side: 'both',
  roles: DICT_KEEPERS,
  writes: true,
  summary: '修改字典项（类型与范围不可改；已被使用的值不可改）',
  async handler(ctx, input) {
    await sql`SELECT pg_advisory_xact_lock(hashtext('dict_items'), ${ctx.session.groupId})`.execute(ctx.db);
    const row = await itemOf(ctx, input.id);
    if (input.value !== row.value) {
      const used = await dictValueUses(ctx.db, row);
      if (used > 0) return fail(`字典值“${row.value}”已被 ${used} 条记录使用，不能修改（可改标签）`);
      await refuseDuplicateValue(ctx, row.type, input.value, row.id);
    }
    await ctx.db
      .updateTable('dict_items')
      .set({ value: input.value, label: input.label, sort: input.sort, tone: input.tone, status: input.status, remark: input.remark })
      .where('id', '=', row.id)
      .execute();
    return reply(null, '保存成功');
  },
});

const dictdel = defineMethod('dictdel', {
  side: 'both',
  roles: DICT_KEEPERS,
  writes: true,
  summary: '删除字典项（已被使用时拒绝，可停用）',
  async handler(ctx, input) {
    const row = await itemOf(ctx, input.id);
    const used = await dictValueUses(ctx.db, row);
    if (used > 0) return fail(`字典值“${row.value}”已被 ${used} 条记录使用，不能删除，可以停用`);
    await ctx.db.deleteFrom('dict_items').where('id', '=', row.id).execute();
    return reply(null, '删除成功');
  },
});

const dictlabels = defineMethod('dictlabels', {
  side: 'both',
  roles: 'any',
  writes: false,
  summary: '本集团改过的系统字典标签（类型 → 值 → 标签）：前端登录后读一次，改标签后再读',
  async handler(ctx) {
    const labels = await groupLabels(ctx.db, ctx.session.groupId);
    const out: Record<string, Record<string, string>> = {};
    for (const [type, m] of labels) out[type] = Object.fromEntries(m);
    return { labels: out };
  },
});

const dictSmall = defineMethod('dict_small_list', {
  side: 'community',
  roles: 'staff',
  writes: false,
  summary: '可维护字典类型的启用项（集团与本小区，按排序）：各模块的下拉选项',
  async handler(ctx, input) {
    const rows = await visibleItems(ctx)
      .select(['value', 'label', 'tone'])
      .where('type', '=', input.type)
      .where('status', '=', 'Y')
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items: rows.map((r) => ({ value: r.value, label: r.label, tone: r.tone as Tone })) };
  },
});

export const dictMethodList = [dicttypelist, dictlist, dictlabel, dictadd, dictedit, dictdel, dictlabels, dictSmall];
