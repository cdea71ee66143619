import {
  GROUP_SETSYS_KEYS,
  GROUP_SETSYS_ROLES,
  SETSYS_LABELS,
  SETSYS_TABS,
  SETTINGS_ROLES,
  type GroupSetsysKey,
  type GroupSysSettings,
  type SetsysKey,
  type SysSettings,
} from '@wuye/contract/setup/settings';
import type { HandlerInput } from '../../http/registry.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

const KEYS = SETSYS_TABS.flatMap((t) => t.fields.map((f) => f.key));

/** The community's stored settings (/setup/setsys), every field as text. */
export async function sysSettingsOf(db: Kysely<DB>, rid: number): Promise<SysSettings> {
  const r = await db.selectFrom('regions').select(KEYS).where('id', '=', rid).executeTakeFirstOrThrow();
  return Object.fromEntries(KEYS.map((k) => [k, String(r[k] ?? '')])) as SysSettings;
}

/** A value as the operation log shows it: （空） for nothing, long ones cut. */
function shown(v: string): string {
  if (v === '') return '（空）';
  return v.length > 60 ? `${v.slice(0, 60)}…` : v;
}

/** Two areas (numeric text) are the same when they are the same number: 120 and 120.00. */
function same(key: SetsysKey, a: string, b: string): boolean {
  if (key === 'area') return Number(a) === Number(b);
  return a === b;
}

/**
 * Saves the fields given (one tab's), after the community-name rule, and answers the message the
 * audit row keeps: 保存成功 with each change as 字段：原值 → 新值.
 */
export async function saveSysSettings(ctx: CommunityCtx, input: HandlerInput<'setsysinfo'>): Promise<string> {
  const given = Object.entries(input).filter(([, v]) => v !== undefined) as Array<[SetsysKey, string]>;
  if (given.length === 0) fail('没有需要保存的内容');
  // the row is locked: two saves at once each see what the other wrote
  const before = await ctx.db
    .selectFrom('regions')
    .select(KEYS)
    .select('group_id')
    .where('id', '=', ctx.rid)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const changed = given.filter(([k, v]) => !same(k, String(before[k] ?? ''), v));
  if (changed.length === 0) return '保存成功（没有改动）';
  const values = Object.fromEntries(changed);
  if (values.title !== undefined) {
    const dup = await ctx.db
      .selectFrom('regions')
      .select('id')
      .where('group_id', '=', before.group_id)
      .where('title', '=', values.title)
      .where('id', '<>', ctx.rid)
      .executeTakeFirst();
    if (dup) fail(`小区名称“${values.title}”已存在`);
  }
  await ctx.db.updateTable('regions').set(values).where('id', '=', ctx.rid).execute();
  const diff = changed.map(([k, v]) => `${SETSYS_LABELS[k]}：${shown(String(before[k] ?? ''))} → ${shown(v)}`);
  return `保存成功。${diff.join('；')}`;
}

const sysinfo = defineMethod('sysinfo', {
  side: 'community',
  roles: SETTINGS_ROLES,
  writes: false,
  summary: '本小区的系统设置（品牌、小区资料、客户端下载、帮助），供系统设置页编辑',
  async handler(ctx) {
    return sysSettingsOf(ctx.db, ctx.rid);
  },
});

/** The group's defaults (groups.sys_defaults) as text by field, '' where unset or stored wrong. */
export function readGroupDefaults(stored: unknown): GroupSysSettings {
  const o = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  return Object.fromEntries(GROUP_SETSYS_KEYS.map((k) => [k, typeof o[k] === 'string' ? o[k] : ''])) as GroupSysSettings;
}

export async function groupDefaultsOf(db: Kysely<DB>, groupId: number): Promise<GroupSysSettings> {
  const g = await db.selectFrom('groups').select('sys_defaults').where('id', '=', groupId).executeTakeFirstOrThrow();
  return readGroupDefaults(g.sys_defaults);
}

const groupsysinfo = defineMethod('groupsysinfo', {
  side: 'both',
  roles: [...SETTINGS_ROLES, ...GROUP_SETSYS_ROLES],
  writes: false,
  summary: '集团的系统设置默认值（品牌、客户端下载、帮助）：小区未填的项跟随集团',
  async handler(ctx) {
    return groupDefaultsOf(ctx.db, ctx.session.groupId);
  },
});

const setgroupsysinfo = defineMethod('setgroupsysinfo', {
  side: 'group',
  roles: GROUP_SETSYS_ROLES,
  writes: true,
  summary: '保存集团的系统设置默认值，各小区未填的项随之生效；改了什么（原值 → 新值）记入操作日志',
  async handler(ctx, input) {
    const given = Object.entries(input).filter(([, v]) => v !== undefined) as Array<[GroupSetsysKey, string]>;
    if (given.length === 0) fail('没有需要保存的内容');
    // the row is locked: two saves at once each see what the other wrote
    const row = await ctx.db
      .selectFrom('groups')
      .select('sys_defaults')
      .where('id', '=', ctx.session.groupId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const before = readGroupDefaults(row.sys_defaults);
    const changed = given.filter(([k, v]) => before[k] !== v);
    if (changed.length === 0) return reply(before, '保存成功（没有改动）');
    const after = { ...before, ...Object.fromEntries(changed) };
    await ctx.db
      .updateTable('groups')
      .set({ sys_defaults: JSON.stringify(after) })
      .where('id', '=', ctx.session.groupId)
      .execute();
    const diff = changed.map(([k, v]) => `${SETSYS_LABELS[k]}：${shown(before[k])} → ${shown(v)}`);
    return reply(after, `保存成功，未单独设置的小区随之生效。${diff.join('；')}`);
  },
});

export const setsysMethods = [sysinfo, groupsysinfo, setgroupsysinfo];
