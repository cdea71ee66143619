import { sql, type Kysely } from 'kysely';
import {
  DAILY_KEYS,
  DAILY_SETTINGS,
  SETTINGS_ROLES,
  type DailyDef,
  type DailyKey,
  type DailySettingItem,
  type DailyValue,
} from '@wuye/contract/setup/settings';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';

/**
 * The daily switches (日常设置, /setup/setdaily): the catalogue is contract/src/setup/settings.ts
 * (DAILY_SETTINGS); a community keeps a row only for a key it changed. Areas read a switch with
 * `dailySetting(db, rid, key)`, typed by the key (docs/product.md#setup-settings).
 */

/** A stored value read back: the catalogue's default when it is missing or no longer fits the key's type. */
function valueOf(def: DailyDef, stored: unknown): boolean | number | string {
  if (stored === undefined || stored === null) return def.default;
  switch (def.type) {
    case 'boolean':
      return typeof stored === 'boolean' ? stored : def.default;
    case 'number':
      return typeof stored === 'number' && Number.isInteger(stored) && stored >= def.min && stored <= def.max ? stored : def.default;
    case 'text':
      return typeof stored === 'string' ? stored : def.default;
    case 'enum':
      return typeof stored === 'string' && stored in def.options ? stored : def.default;
  }
}

/** One switch of a community, typed by its key: `await dailySetting(db, rid, 'visitor_review')` is a boolean. */
export async function dailySetting<K extends DailyKey>(db: Kysely<DB>, rid: number, key: K): Promise<DailyValue<K>> {
  const row = await db.selectFrom('daily_settings').select('value').where('rid', '=', rid).where('key', '=', key).executeTakeFirst();
  return valueOf(DAILY_SETTINGS[key], row?.value) as DailyValue<K>;
}

/** Every switch of a community, in the catalogue's order, with its default beside its value. */
export async function dailySettingItems(db: Kysely<DB>, rid: number): Promise<DailySettingItem[]> {
  const rows = await db.selectFrom('daily_settings').select(['key', 'value', 'updated_at']).where('rid', '=', rid).execute();
  const stored = new Map(rows.map((r) => [r.key, r]));
  return DAILY_KEYS.map((key) => {
    const def: DailyDef = DAILY_SETTINGS[key];
    const row = stored.get(key);
    const item: DailySettingItem = {
      key,
      area: def.area,
      title: def.title,
      help: def.help,
      type: def.type,
      value: valueOf(def, row?.value),
      default: def.default,
      changed: row ? 'Y' : 'N',
      update_time: wireTime(row?.updated_at ?? null),
    };
    if (def.type === 'number') Object.assign(item, { min: def.min, max: def.max, unit: def.unit });
    if (def.type === 'text') item.max = def.max;
    if (def.type === 'enum') item.options = Object.entries(def.options).map(([value, label]) => ({ value, label }));
    return item;
  });
}

/** A value as the operation log shows it. */
function shown(def: DailyDef, v: unknown): string {
  if (def.type === 'boolean') return v ? '开' : '关';
  if (def.type === 'enum') return (def.options as Record<string, string>)[String(v)] ?? String(v);
  if (def.type === 'number') return `${String(v)}${def.unit}`;
  const s = String(v);
  return s === '' ? '（空）' : s.length > 30 ? `${s.slice(0, 30)}…` : s;
}

async function currentValues(ctx: CommunityCtx): Promise<Map<string, unknown>> {
  const rows = await ctx.db.selectFrom('daily_settings').select(['key', 'value']).where('rid', '=', ctx.rid).forUpdate().execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

const setdailylist = defineMethod('setdailylist', {
  side: 'community',
  roles: SETTINGS_ROLES,
  writes: false,
  summary: '日常设置：按业务分组的开关与参数（类型、默认值、说明、本小区的值）',
  async handler(ctx) {
    return { items: await dailySettingItems(ctx.db, ctx.rid) };
  },
});

const setdailyedit = defineMethod('setdailyedit', {
  side: 'community',
  roles: SETTINGS_ROLES,
  writes: true,
  summary: '保存日常设置（只写改了的项；与默认值相同即恢复默认），改了什么记入操作日志',
  async handler(ctx, input) {
    const given = Object.entries(input.values).filter(([, v]) => v !== undefined) as Array<[DailyKey, unknown]>;
    if (given.length === 0) fail('没有需要保存的内容');
    const now = await currentValues(ctx);
    const diff: string[] = [];
    for (const [key, value] of given) {
      const def: DailyDef = DAILY_SETTINGS[key];
      const before = valueOf(def, now.get(key));
      if (before === value && (now.has(key) || value === def.default)) continue;
      if (value === def.default) {
        await ctx.db.deleteFrom('daily_settings').where('rid', '=', ctx.rid).where('key', '=', key).execute();
      } else {
        await ctx.db
          .insertInto('daily_settings')
          .values({ rid: ctx.rid, key, value: JSON.stringify(value), created_by: ctx.session.accountId, updated_by: ctx.session.accountId })
          .onConflict((oc) =>
            oc
              .columns(['rid', 'key'])
              .doUpdateSet({ value: JSON.stringify(value), updated_by: ctx.session.accountId, updated_at: sql`now()` }),
          )
          .execute();
      }
      if (before !== value) diff.push(`${def.title}：${shown(def, before)} → ${shown(def, value)}`);
    }
    const items = await dailySettingItems(ctx.db, ctx.rid);
    return reply({ items }, diff.length ? `保存成功。${diff.join('；')}` : '保存成功（没有改动）');
  },
});

const setdailyreset = defineMethod('setdailyreset', {
  side: 'community',
  roles: SETTINGS_ROLES,
  writes: true,
  summary: '日常设置恢复默认值（所选的项）',
  async handler(ctx, input) {
    const now = await currentValues(ctx);
    const diff: string[] = [];
    for (const key of new Set(input.keys)) {
      if (!now.has(key)) continue;
      const def: DailyDef = DAILY_SETTINGS[key];
      const before = valueOf(def, now.get(key));
      if (before !== def.default) diff.push(`${def.title}：${shown(def, before)} → ${shown(def, def.default)}`);
    }
    await ctx.db.deleteFrom('daily_settings').where('rid', '=', ctx.rid).where('key', 'in', input.keys).execute();
    const items = await dailySettingItems(ctx.db, ctx.rid);
    return reply({ items }, diff.length ? `已恢复默认。${diff.join('；')}` : '已恢复默认（原本就是默认值）');
  },
});

export const dailyMethods = [setdailylist, setdailyedit, setdailyreset];
