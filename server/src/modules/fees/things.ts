/**
 * 收费对象 (/fees/feethinglist, issue 34): every room, parking space and car that bill generation
 * would bill, with the fee items that apply to each and the binding each comes through. The
 * bindings are resolved by the rule generation uses (bindingScopes.ts); a space or car counts as
 * generation counts it (sold or rented with a room, the lease running this month; a car in use).
 */
import {
  BIND_SCOPE_CH,
  enumText,
  FEE_ROLES,
  normalizePlate,
  PRICING,
  THING_KIND,
  type BindScopeName,
  type FeeThingItem,
  type FeeThingRow,
  type feeThingFilters,
  type PricingMethod,
  type ThingKind,
} from '@wuye/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { pageClause, pageWithTotal } from '../../lib/paging.js';
import { today } from '../../lib/wire.js';
import { bindingPairs, boundBy, CAR_BILLABLE, keyColumns, spaceBillable, THING_BINDINGS } from './bindingScopes.js';
import { targetTitleSql } from './setup.js';

type Filters = z.output<z.ZodObject<typeof feeThingFilters>>;

/** The community's bindings of its items in use (generation bills only those), optionally of one item. */
function activeBindings(rid: number, itemId: number | undefined): RawBuilder<SqlBool> {
  return sql<SqlBool>`fb.rid = ${rid} AND fb.item_id IN (SELECT i.id FROM fee_items i WHERE i.rid = ${rid} AND i.status = 'Y')
    ${itemId ? sql`AND fb.item_id = ${itemId}` : sql``}`;
}

/** The room's first current owner. */
const roomOwner = sql`(SELECT m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
  WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1)`;
/** A space's or car's registered member (alias `x`), else the room's owner. */
const memberOrOwner = (x: string) =>
  sql`coalesce((SELECT m.realname FROM members m WHERE m.rid = ${sql.ref(`${x}.rid`)} AND m.id = ${sql.ref(`${x}.member_id`)}), ${roomOwner})`;

/**
 * The things of a kind meeting the filters, in two parts:
 * - `filtered`: FROM and WHERE of their ids, joining the charged room or the lot only where a
 *   filter needs them (a space's or car's room exists whenever it has one: a foreign key), so the
 *   total counts one table;
 * - `rows(ids)`: the columns a row shows, read for the ids of a page alone (the owner's name is a
 *   look-up: an OFFSET deep into 50,000 rooms would do it for every row skipped).
 * The building is the charged room's; a keyword matches a room's address, a space's number or
 * plate, a car's plate.
 */
function thingsOf(rid: number, f: Filters) {
  const kind = f.kind;
  const { alias } = THING_BINDINGS[kind];
  const id = sql.ref(`${alias}.id`);
  const conditions: Array<RawBuilder<unknown>> = [];
  if (f.building_id) conditions.push(sql`r.bid = ${f.building_id}`);
  if (f.item_id || f.unbound) {
    const bound = boundBy(kind, activeBindings(rid, f.item_id));
    conditions.push(f.unbound ? sql`NOT ${bound}` : bound);
  }
  const kw = f.keywords?.trim();
  const room = sql`JOIN rooms r ON r.rid = ${sql.ref(`${alias}.rid`)} AND r.id = ${sql.ref(`${alias}.hid`)}`;
  const lot = sql`JOIN parking_lots l ON l.rid = ps.rid AND l.id = ps.lot_id`;
  let from: RawBuilder<unknown>;
  let full: RawBuilder<unknown>;
  let columns: RawBuilder<unknown>;
  if (kind === 'room') {
    from = full = sql`rooms r`;
    conditions.unshift(sql`r.rid = ${rid}`);
    if (kw) conditions.push(sql`r.address ${sql.raw(containsOperator(kw))} ${likePattern(kw)}`);
    columns = sql`r.address AS title, r.built_area::text AS area, coalesce(${roomOwner}, '') AS owner_name`;
  } else if (kind === 'space') {
    from = sql`parking_spaces ps ${f.building_id ? room : sql``} ${kw ? lot : sql``}`;
    full = sql`parking_spaces ps ${room} ${lot}`;
    conditions.unshift(sql`ps.rid = ${rid} AND ps.hid IS NOT NULL AND ${spaceBillable(`${today().slice(0, 7)}-01`)}`);
    if (kw)
      conditions.push(
        sql`(ps.title ILIKE ${likePattern(kw)} OR ps.carlicense ILIKE ${likePattern(normalizePlate(kw))} OR l.title || ' ' || ps.title ILIKE ${likePattern(kw)})`,
      );
    columns = sql`l.title || ' ' || ps.title AS title, NULL::text AS area, coalesce(${memberOrOwner('ps')}, '') AS owner_name`;
  } else {
    from = sql`cars c ${f.building_id ? room : sql``}`;
    full = sql`cars c ${room}`;
    conditions.unshift(sql`c.rid = ${rid} AND ${CAR_BILLABLE}`);
    if (kw) conditions.push(sql`c.carlicense ILIKE ${likePattern(normalizePlate(kw))}`);
    columns = sql`c.carlicense AS title, NULL::text AS area, coalesce(${memberOrOwner('c')}, '') AS owner_name`;
  }
  // the columns the kind's bindings name, for pairing a page with its bindings (itemsOf)
  const keys = keyColumns(kind).map((c) => sql`${sql.ref(`${alias}.${c}`)} AS ${sql.id(`key_${c}`)}`);
  const filtered = sql`FROM ${from} WHERE ${sql.join(conditions, sql` AND `)}`;
  return {
    filtered,
    id,
    /** the rows of the things whose ids `ids` selects, in the asked order */
    rows: (ids: RawBuilder<unknown>, sort: 'asc' | 'desc') =>
      sql<ThingBase>`SELECT ${id} AS id, r.id AS hid, r.bid, r.tid, r.address, ${sql.join([columns, ...keys], sql`, `)}
        FROM ${full} WHERE ${sql.ref(`${alias}.rid`)} = ${rid} AND ${id} IN (${ids}) ORDER BY ${id} ${sql.raw(sort === 'desc' ? 'DESC' : 'ASC')}`,
  };
}

interface ThingBase {
  id: number;
  /** the columns the kind's bindings name (keyColumns), as key_<column> */
  [key: `key_${string}`]: number | string | null;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  title: string;
  area: string | null;
  owner_name: string;
}

/** Narrowest first: the binding a row shows when an item reaches a thing through several. */
const narrowness = (kind: ThingKind) =>
  sql`array_position(ARRAY[${sql.join(THING_BINDINGS[kind].scopes.map((s) => sql.lit(s.scope)))}]::text[], fb.scope) DESC, fb.ref_id DESC`;

/**
 * The fee items in use that apply to the given things, each once with the narrowest binding it
 * comes through: a page's things paired with the bindings by the rule generation uses.
 */
async function itemsOf(db: Kysely<DB>, rid: number, kind: ThingKind, things: ThingBase[]): Promise<Map<number, FeeThingItem[]>> {
  const byThing = new Map<number, FeeThingItem[]>();
  if (!things.length) return byThing;
  const keys = things.map((t) => ({ id: t.id, ...Object.fromEntries(keyColumns(kind).map((c) => [c, t[`key_${c}`] ?? null])) }));
  const res = await sql<{
    thing_id: string | number;
    item_id: string | number;
    item_title: string;
    cost_type: string;
    pricing: PricingMethod;
    unit_price: string;
    scope: BindScopeName;
    via_title: string | null;
  }>`
    SELECT DISTINCT ON (p.thing_id, i.id) p.thing_id, i.id AS item_id, i.title AS item_title, i.cost_type, i.pricing,
      i.unit_price::text AS unit_price, fb.scope, ${targetTitleSql()} AS via_title
    FROM (${bindingPairs(kind, keys, sql<SqlBool>`fb.rid = ${rid}`)}) p
    JOIN fee_bindings fb ON fb.rid = ${rid} AND fb.id = p.binding_id
    JOIN fee_items i ON i.rid = fb.rid AND i.id = fb.item_id AND i.status = 'Y'
    ORDER BY p.thing_id, i.id, ${narrowness(kind)}`.execute(db);
  for (const row of res.rows) {
    const list = byThing.get(Number(row.thing_id)) ?? [];
    list.push({
      item_id: Number(row.item_id),
      item_title: row.item_title,
      cost_type: row.cost_type,
      pricing: row.pricing,
      pricing_ch: enumText(PRICING, row.pricing),
      unit_price: row.unit_price,
      via_scope: row.scope,
      via_scope_ch: BIND_SCOPE_CH[row.scope] ?? row.scope,
      via_title: row.via_title ?? '',
    });
    byThing.set(Number(row.thing_id), list);
  }
  return byThing;
}

function toRow(kind: ThingKind, b: ThingBase, items: FeeThingItem[] | undefined): FeeThingRow {
  return {
    id: Number(b.id),
    kind,
    kind_ch: enumText(THING_KIND, kind),
    title: b.title,
    hid: Number(b.hid),
    bid: Number(b.bid),
    tid: Number(b.tid),
    address: b.address,
    owner_name: b.owner_name,
    area: b.area,
    items: items ?? [],
  };
}

const feethingpagelist = defineMethod('feethingpagelist', {
  side: 'community',
  roles: FEE_ROLES.read,
  writes: false,
  summary:
    '收费对象：房屋（kind=room）、车位（space，已售/已租且登记了房屋、租期未到期）或车辆（car，在用）及适用于它的启用中收费项目，' +
    '按出账的同一规则由绑定推出，每项注明绑定方式（全小区、楼栋、单元、房屋类别、单个房屋、停车场、单个车位、车辆）与单价；' +
    '可按计费房屋的楼栋、收费项目、关键字（房屋地址、车位号、车牌）筛选，unbound 只看没有任何收费项目的（带 item_id 时为未绑定该项目的）',
  async handler(ctx, input) {
    const q = thingsOf(ctx.rid, input);
    const dir = sql.raw(input.sort === 'desc' ? 'DESC' : 'ASC');
    const pageIds = sql`SELECT ${q.id} ${q.filtered} ORDER BY ${q.id} ${dir} ${pageClause(input)}`;
    const page = await pageWithTotal(
      q
        .rows(pageIds, input.sort)
        .execute(ctx.db)
        .then((r) => r.rows),
      input,
      async () => Number((await sql<{ total: number }>`SELECT count(*)::int AS total ${q.filtered}`.execute(ctx.db)).rows[0]?.total ?? 0),
    );
    const items = await itemsOf(ctx.db, ctx.rid, input.kind, page.items);
    return { total: page.total, items: page.items.map((b) => toRow(input.kind, b, items.get(Number(b.id)))) };
  },
});

/** How a row's items read in a workbook: 物业服务费（房屋类别 住宅，2.5000 建筑面积 × 单价）. */
const itemsText = (items: FeeThingItem[]) =>
  items
    .map((i) => `${i.item_title}（${i.via_scope_ch}${i.via_title ? ` ${i.via_title}` : ''}，${i.unit_price} ${i.pricing_ch}）`)
    .join('；');

const TITLE_HEADER: Record<ThingKind, string> = { room: '房屋', space: '车位', car: '车牌' };

const feethingpageexport = defineExport('feethingpageexport', {
  roles: FEE_ROLES.read,
  summary: '按收费对象列表的筛选条件导出 Excel：对象、计费房屋、业主、面积、适用的收费项目及绑定方式（最多 10 万行）',
  filename: (input) => `收费对象_${enumText(THING_KIND, input.kind)}_${today()}.xlsx`,
  async check({ db, rid }, input) {
    const q = thingsOf(rid, input);
    await refuseOversizedExport(db, db.selectFrom(sql<{ one: number }>`(SELECT 1 AS one ${q.filtered})`.as('t')).select('t.one'));
  },
  async sheet({ db, rid }, input) {
    const q = thingsOf(rid, input);
    const dir = sql.raw(input.sort === 'desc' ? 'DESC' : 'ASC');
    const ids = sql`SELECT ${q.id} ${q.filtered} ORDER BY ${q.id} ${dir} LIMIT ${sql.lit(EXPORT_MAX)}`;
    const things = (await q.rows(ids, input.sort).execute(db)).rows;
    const rows: FeeThingRow[] = [];
    for (let at = 0; at < things.length; at += 2000) {
      const chunk = things.slice(at, at + 2000);
      const items = await itemsOf(db, rid, input.kind, chunk);
      for (const b of chunk) rows.push(toRow(input.kind, b, items.get(Number(b.id))));
    }
    return sheetOf(
      '收费对象',
      [
        { header: TITLE_HEADER[input.kind], value: (r: FeeThingRow) => r.title, width: 24 },
        { header: '计费房屋', value: (r) => r.address, width: 24 },
        { header: '业主', value: (r) => r.owner_name },
        ...(input.kind === 'room' ? [{ header: '建筑面积(㎡)', value: (r: FeeThingRow) => r.area }] : []),
        { header: '收费项目数', value: (r) => r.items.length },
        { header: '收费项目（绑定方式，单价）', value: (r) => itemsText(r.items) || '未绑定', width: 60 },
      ],
      rows,
    );
  },
});

export const thingMethods = [feethingpagelist, feethingpageexport];
