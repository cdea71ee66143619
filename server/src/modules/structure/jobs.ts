import { ROOM_STATE, ROOM_STATES, AREA_RE, toFen, type ImportRowError, type RoomImportResult, type RoomState } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import type { ImportScope } from '../../jobs/imports.js';

export const ROOM_IMPORT_KIND = 'room_import';
/** rooms a batch (one short transaction, tens of milliseconds on the embedded database) */
const BATCH = 250;

export interface ParsedRoom {
  row: number;
  building: string;
  unit: string;
  title: string;
  floor: number;
  built_area: string;
  indoor_area: string;
  category_id: number | null;
  state: RoomState;
  remark: string;
}

export interface Existing {
  buildings: Map<string, number>;
  /** `${bid}|${unitTitle}` -> unit id */
  units: Map<string, number>;
  /** `${tid}|${roomTitle}` */
  rooms: Set<string>;
  categories: Map<string, number>;
  defaultCategory: number | null;
}

export async function loadExisting(db: Kysely<DB>, rid: number): Promise<Existing> {
  const [buildings, units, rooms, categories] = await Promise.all([
    db.selectFrom('buildings').select(['id', 'title']).where('rid', '=', rid).execute(),
    db.selectFrom('units').select(['id', 'bid', 'title']).where('rid', '=', rid).execute(),
    db.selectFrom('rooms').select(['tid', 'title']).where('rid', '=', rid).execute(),
    db.selectFrom('room_categories').select(['id', 'title', 'kind']).where('rid', '=', rid).orderBy('sort').orderBy('id').execute(),
  ]);
  return {
    buildings: new Map(buildings.map((b) => [b.title, b.id])),
    units: new Map(units.map((u) => [`${u.bid}|${u.title}`, u.id])),
    rooms: new Set(rooms.map((r) => `${r.tid}|${r.title}`)),
    categories: new Map(categories.map((c) => [c.title, c.id])),
    defaultCategory: categories.find((c) => c.kind === 'residence')?.id ?? null,
  };
}

const STATE_BY_TEXT = new Map<string, RoomState>([
  ...ROOM_STATES.map((s) => [s, s] as const),
  ...ROOM_STATES.map((s) => [ROOM_STATE[s].text, s] as const),
]);
/** 空置、已入住、出租 或 装修中 */
const STATE_WORDS = ROOM_STATES.map((s) => ROOM_STATE[s].text)
  .join('、')
  .replace(/、([^、]+)$/, ' 或 $1');

/** 1101 -> 11, 302 -> 3: the usual Chinese room numbering when the floor column is empty. */
const floorFromTitle = (title: string) => {
  const m = /^(\d{1,3})\d{2}$/.exec(title);
  return m ? Number(m[1]) : 1;
};

/**
 * Checks every row; answers the rooms to create, the row errors (row, column, reason) and how many
 * rows were left out as existing rooms (only when `skipExisting`; otherwise each is an error).
 */
export function validateRows(
  rows: SheetRow[],
  existing: Existing,
  skipExisting = false,
): { rooms: ParsedRoom[]; errors: ImportRowError[]; skipped: number } {
  const errors: ImportRowError[] = [];
  const rooms: ParsedRoom[] = [];
  const seen = new Map<string, number>();
  let skipped = 0;
  for (const { rowNumber: row, values } of rows) {
    const v = (h: string) => (values[h] ?? '').trim();
    const bad = (column: string, reason: string) => {
      errors.push({ row, column, reason });
    };
    const before = errors.length;
    const building = v('楼栋');
    const unit = v('单元');
    const title = v('房号');
    for (const [column, value] of [
      ['楼栋', building],
      ['单元', unit],
      ['房号', title],
    ] as const) {
      if (!value) bad(column, `${column}不能为空`);
      else if (value.length > 30) bad(column, `${column}不能超过30个字符`);
    }
    let floor = floorFromTitle(title);
    if (v('楼层')) {
      if (!/^-?\d{1,3}$/.test(v('楼层')) || Number(v('楼层')) < -10 || Number(v('楼层')) > 200)
        bad('楼层', '楼层必须是 -10 到 200 之间的整数');
      else floor = Number(v('楼层'));
    }
    const areas: Record<string, string> = {};
    for (const column of ['建筑面积', '套内面积']) {
      const text = v(column) || '0';
      if (!AREA_RE.test(text)) bad(column, `${column}必须是不小于0且最多两位小数的数字`);
      else areas[column] = text;
    }
    if (areas['建筑面积'] && areas['套内面积'] && toFen(areas['套内面积']) > toFen(areas['建筑面积'])) {
      bad('套内面积', '套内面积不能大于建筑面积');
    }
    let categoryId = existing.defaultCategory;
    if (v('房屋类型')) {
      const found = existing.categories.get(v('房屋类型'));
      if (found === undefined) bad('房屋类型', `房屋类型“${v('房屋类型')}”不存在，请先在房屋类型中添加`);
      else categoryId = found;
    }
    const state = v('状态') ? STATE_BY_TEXT.get(v('状态')) : 'vacant';
    if (!state) bad('状态', `状态“${v('状态')}”不正确，应为 ${STATE_WORDS}`);
    if (v('备注').length > 200) bad('备注', '备注不能超过200个字符');
    if (building && unit && title) {
      const key = `${building}|${unit}|${title}`;
      const first = seen.get(key);
      if (first !== undefined) bad('房号', `与第 ${first} 行重复（同一楼栋单元下房号相同）`);
      else seen.set(key, row);
      const bid = existing.buildings.get(building);
      const tid = bid === undefined ? undefined : existing.units.get(`${bid}|${unit}`);
      if (tid !== undefined && existing.rooms.has(`${tid}|${title}`)) {
        // a room that exists is left alone either way: skipped when asked, else reported
        if (!skipExisting) bad('房号', `${building}${unit}${title} 已存在`);
        else if (errors.length === before) {
          skipped++;
          continue;
        }
      }
    }
    if (errors.length === before) {
      rooms.push({
        row,
        building,
        unit,
        title,
        floor,
        built_area: areas['建筑面积']!,
        indoor_area: areas['套内面积']!,
        category_id: categoryId,
        state: state!,
        remark: v('备注'),
      });
    }
  }
  return { rooms, errors, skipped };
}

/** Creates the missing buildings and units, then the rooms, in short batches undone together on failure. */
export async function importRooms(ctx: ImportScope, rooms: ParsedRoom[], existing: Existing, skipped: number): Promise<RoomImportResult> {
  const { rid } = ctx;
  const total = rooms.length;
  const buildings = new Map(existing.buildings);
  const units = new Map(existing.units);
  const unitKey = (r: ParsedRoom) => `${buildings.get(r.building)!}|${r.unit}`;
  const newBuildings = [...new Set(rooms.map((r) => r.building))].filter((t) => !buildings.has(t));
  let createdUnits = 0;
  // the places first, in one batch; then the rooms, a batch each (jobs/batches.ts)
  await ctx.batch(async (trx, record) => {
    if (newBuildings.length) {
      const floors = (t: string) => Math.max(0, ...rooms.filter((r) => r.building === t).map((r) => r.floor));
      const created = await trx
        .insertInto('buildings')
        .values(newBuildings.map((title, i) => ({ rid, title, floors: floors(title), sort: i })))
        .returning(['id', 'title'])
        .execute();
      for (const b of created) buildings.set(b.title, b.id);
      await record(
        'buildings',
        created.map((b) => b.id),
      );
    }
    const newUnits = [...new Map(rooms.filter((r) => !units.has(unitKey(r))).map((r) => [unitKey(r), r])).values()];
    if (newUnits.length) {
      const created = await trx
        .insertInto('units')
        .values(newUnits.map((r) => ({ rid, bid: buildings.get(r.building)!, title: r.unit })))
        .returning(['id', 'bid', 'title'])
        .execute();
      for (const u of created) units.set(`${u.bid}|${u.title}`, u.id);
      await record(
        'units',
        created.map((u) => u.id),
      );
    }
    createdUnits = newUnits.length;
  });
  for (let i = 0; i < rooms.length; i += BATCH) {
    const batch = rooms.slice(i, i + BATCH);
    await ctx.batch(async (trx, record) => {
      const created = await trx
        .insertInto('rooms')
        .values(
          batch.map((r) => ({
            rid,
            bid: buildings.get(r.building)!,
            tid: units.get(unitKey(r))!,
            title: r.title,
            floor: r.floor,
            category_id: r.category_id,
            built_area: r.built_area,
            indoor_area: r.indoor_area,
            state: r.state,
            remark: r.remark,
          })),
        )
        .returning('id')
        .execute();
      await record(
        'rooms',
        created.map((r) => r.id),
      );
    });
    await ctx.step(Math.min(total, i + BATCH), total);
  }
  return {
    created_buildings: newBuildings.length,
    created_units: createdUnits,
    created_rooms: rooms.length,
    skipped_rooms: skipped,
    errors: [],
  };
}
