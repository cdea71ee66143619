/**
 * Room codes (/carpark/roomcode) and their structure sync (/carpark/room_construct_sync_log);
 * docs/product.md#room-codes.
 *
 * - A room's code and call number are made from templates (contract: renderRoomCode), edited one by
 *   one, imported or deleted; each is unique in the community, checked before anything is written.
 * - Every change queues a `room_sync` command (subject 'room:<hid>') to each enabled door that
 *   serves the room: the community gates, its building's doors and its unit's door. A command not
 *   yet sent for the same room and device is replaced by the newer one. A door added later gets
 *   every coded room it serves.
 * - room_codes.sync_state is kept as the devices answer: the newest command of each device, failed
 *   before syncing before done.
 */
import {
  COMMAND_STATE,
  DEFAULT_CALL_TEMPLATE,
  DEFAULT_CODE_TEMPLATE,
  ROOM_CODE_RE,
  ROOM_CODE_MSG,
  CALL_NO_RE,
  CALL_NO_MSG,
  ROOM_SYNC_ACTION,
  ROOM_SYNC_STATE,
  enumText,
  methodSchemas,
  renderRoomCode,
  type ImportRowError,
  type RoomCodeImportResult,
  type RoomCodeItem,
  type RoomSyncItem,
} from '@wuye/contract';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { kickDeviceQueue, onCommandAck, retryFailedCommands } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { defineImport, type ImportScope } from '../../jobs/imports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { containsOperator, likePattern, prefixPattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import { today, wireTime } from '../../lib/wire.js';

/** Rooms one generation codes at most: a larger community generates building by building. */
export const ROOM_CODE_GENERATE_MAX = 10_000;
const IMPORT_MAX_ROWS = 10_000;
export const ROOM_CODE_IMPORT_KIND = 'roomcode_import';

export const roomSubject = (hid: number | string) => `room:${hid}`;

/** The doors that serve room `r` (SQL over `d` devices and `r` rooms). */
const servesRoom = sql`d.family = 'door' AND d.enabled = 'Y'
  AND (d.location = 'community' OR (d.location = 'building' AND d.bid = r.bid) OR (d.location = 'unit' AND d.tid = r.tid))`;

/**
 * Queues the codes of these rooms (every coded room when `hids` is 'all') to the doors serving them,
 * or to `deviceId` alone; replaces the commands of the same room and device not yet sent; sets the
 * rooms' sync state. In the caller's transaction; answers the commands queued.
 */
export async function pushRoomCodes(
  db: Kysely<DB>,
  rid: number,
  hids: number[] | 'all',
  opts: { deviceId?: number; createdBy?: number | null } = {},
): Promise<number> {
  if (hids !== 'all' && hids.length === 0) return 0;
  const rooms = hids === 'all' ? sql`` : sql`AND rc.hid = ANY(${hids}::bigint[])`;
  const device = opts.deviceId ? sql`AND d.id = ${opts.deviceId}` : sql``;
  // one room's change goes with people's; many rooms' (a generation, an import, a door added) after them
  const priority = hids !== 'all' && hids.length === 1 ? 1 : 2;
  const targets = sql`SELECT rc.hid, d.id AS device_id, jsonb_build_object('action', 'set', 'hid', rc.hid, 'address', r.address,
      'code', rc.code, 'call_no', rc.call_no) AS payload
    FROM room_codes rc JOIN rooms r ON r.rid = rc.rid AND r.id = rc.hid
    JOIN devices d ON d.rid = rc.rid AND ${servesRoom} ${device}
    WHERE rc.rid = ${rid} ${rooms}`;
  const queued = await sql<{ hid: string }>`
    WITH t AS (${targets}),
    replaced AS (
      DELETE FROM device_commands c USING t
      WHERE c.rid = ${rid} AND c.kind = 'room_sync' AND c.subject = 'room:' || t.hid AND c.device_id = t.device_id AND c.state = 'pending'
    )
    INSERT INTO device_commands (rid, device_id, kind, subject, payload, created_by, priority)
    SELECT ${rid}, t.device_id, 'room_sync', 'room:' || t.hid, t.payload, ${opts.createdBy ?? null}::bigint, ${priority}::smallint FROM t
    RETURNING (payload->>'hid') AS hid`.execute(db);
  const pushed = [...new Set(queued.rows.map((q) => Number(q.hid)))];
  if (pushed.length) {
    await sql`UPDATE room_codes SET sync_state = 'syncing', sync_error = '' WHERE rid = ${rid} AND hid = ANY(${pushed}::bigint[])`.execute(
      db,
    );
    await kickDeviceQueue(db);
  }
  if (!opts.deviceId) {
    // a room no door serves has nothing to sync
    await sql`UPDATE room_codes rc SET sync_state = 'none', sync_error = ''
      WHERE rc.rid = ${rid} ${rooms} AND NOT (rc.hid = ANY(${pushed}::bigint[]))`.execute(db);
  }
  return queued.rows.length;
}

/** Queues the deletion of a room's code on the doors serving it (the code is gone); answers the commands. */
async function pushRoomDelete(db: Kysely<DB>, rid: number, hid: number, old: { code: string; call_no: string }, createdBy: number) {
  const queued = await sql`
    INSERT INTO device_commands (rid, device_id, kind, subject, payload, created_by)
    SELECT ${rid}, d.id, 'room_sync', ${roomSubject(hid)},
      jsonb_build_object('action', 'del', 'hid', r.id, 'address', r.address, 'code', ${old.code}::text, 'call_no', ${old.call_no}::text), ${createdBy}::bigint
    FROM rooms r JOIN devices d ON d.rid = r.rid AND ${servesRoom}
    WHERE r.rid = ${rid} AND r.id = ${hid}`.execute(db);
  await sql`DELETE FROM device_commands WHERE rid = ${rid} AND kind = 'room_sync' AND subject = ${roomSubject(hid)} AND state = 'pending'
    AND payload->>'action' = 'set'`.execute(db);
  const n = Number(queued.numAffectedRows ?? 0);
  if (n) await kickDeviceQueue(db);
  return n;
}

/** The room's kept sync state from the newest command of each device. */
export async function refreshRoomSyncState(db: Kysely<DB>, rid: number, hids: number[] | 'all'): Promise<void> {
  const rooms = hids === 'all' ? sql`` : sql`AND rc.hid = ANY(${hids}::bigint[])`;
  await sql`UPDATE room_codes rc SET sync_state = x.state, sync_error = x.error
    FROM (
      SELECT rc.hid,
        CASE WHEN count(n.state) = 0 THEN 'none' WHEN bool_or(n.state = 'failed') THEN 'failed'
          WHEN bool_or(n.state <> 'done') THEN 'syncing' ELSE 'done' END AS state,
        coalesce(max(n.last_error) FILTER (WHERE n.state = 'failed'), '') AS error
      FROM room_codes rc
      LEFT JOIN LATERAL (
        SELECT DISTINCT ON (c.device_id) c.state, c.last_error FROM device_commands c
        WHERE c.rid = rc.rid AND c.kind = 'room_sync' AND c.subject = 'room:' || rc.hid
        ORDER BY c.device_id, c.id DESC
      ) n ON true
      WHERE rc.rid = ${rid} ${rooms}
      GROUP BY rc.hid
    ) x
    WHERE rc.rid = ${rid} AND rc.hid = x.hid`.execute(db);
}

onCommandAck('room_sync', async (db, { rid, command }) => {
  const hid = Number(command.subject.slice('room:'.length));
  if (Number.isInteger(hid) && hid > 0) await refreshRoomSyncState(db, rid, [hid]);
});

/* ---------------------------------------------------------------- generating and checking codes */

interface RoomRow {
  hid: number;
  address: string;
  building: string;
  building_sort: number;
  unit: string;
  unit_sort: number;
  room: string;
  floor: number;
}

function roomsOf(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
    .select([
      'r.id as hid',
      'r.address',
      'b.title as building',
      'b.sort as building_sort',
      'u.title as unit',
      'u.sort as unit_sort',
      'r.title as room',
      'r.floor',
    ])
    .where('r.rid', '=', rid);
}

const partsOf = (r: RoomRow) => ({
  building: r.building,
  buildingSort: r.building_sort,
  unit: r.unit,
  unitSort: r.unit_sort,
  room: r.room,
  floor: r.floor,
});

interface NewCode {
  hid: number;
  code: string;
  call_no: string;
}

/**
 * The new codes that clash: with an earlier one of the same list, or with the code of a room the
 * list leaves alone. Answers the rooms that clash and a message for each (at most `limit`).
 */
async function clashes(
  db: Kysely<DB>,
  rid: number,
  codes: NewCode[],
  label: (c: NewCode) => string,
  limit = 5,
): Promise<{ hids: Set<number>; messages: Array<{ hid: number; column: '房号编码' | '呼叫号'; text: string }> }> {
  const hids = new Set<number>();
  const messages: Array<{ hid: number; column: '房号编码' | '呼叫号'; text: string }> = [];
  const note = (c: NewCode, column: '房号编码' | '呼叫号', tail: string) => {
    hids.add(c.hid);
    const who = label(c);
    if (messages.length < limit)
      messages.push({ hid: c.hid, column, text: `${who ? `${who}的` : ''}${column} ${column === '呼叫号' ? c.call_no : c.code} ${tail}` });
  };
  const byCode = new Map<string, NewCode>();
  const byCall = new Map<string, NewCode>();
  for (const c of codes) {
    const a = byCode.get(c.code);
    const b = c.call_no ? byCall.get(c.call_no) : undefined;
    if (a) note(c, '房号编码', `与${label(a)}重复`);
    else if (b) note(c, '呼叫号', `与${label(b)}重复`);
    else {
      byCode.set(c.code, c);
      if (c.call_no) byCall.set(c.call_no, c);
    }
  }
  if (!byCode.size) return { hids, messages };
  const others = await sql<{ address: string; code: string; call_no: string }>`
    SELECT r.address, rc.code, rc.call_no FROM room_codes rc JOIN rooms r ON r.rid = rc.rid AND r.id = rc.hid
    WHERE rc.rid = ${rid} AND NOT (rc.hid = ANY(${codes.map((c) => c.hid)}::bigint[]))
      AND (rc.code = ANY(${[...byCode.keys()]}::text[]) OR (rc.call_no <> '' AND rc.call_no = ANY(${[...byCall.keys()]}::text[])))`.execute(
    db,
  );
  for (const o of others.rows) {
    const mine = byCode.get(o.code);
    if (mine) note(mine, '房号编码', `已被 ${o.address} 使用`);
    const call = o.call_no ? byCall.get(o.call_no) : undefined;
    if (call && !hids.has(call.hid)) note(call, '呼叫号', `已被 ${o.address} 使用`);
  }
  return { hids, messages };
}

/**
 * Writes the codes (the rooms' old codes first moved aside, so codes may swap between rooms in one
 * write) in the caller's transaction.
 */
async function writeCodes(db: Kysely<DB>, rid: number, codes: NewCode[], by: number | null): Promise<void> {
  for (let i = 0; i < codes.length; i += 2000) {
    const slice = codes.slice(i, i + 2000);
    const hids = slice.map((c) => c.hid);
    // '~' is outside a code's characters: the placeholder never clashes
    await sql`UPDATE room_codes SET code = '~' || hid, call_no = '' WHERE rid = ${rid} AND hid = ANY(${hids}::bigint[])`.execute(db);
  }
  for (let i = 0; i < codes.length; i += 2000) {
    const slice = codes.slice(i, i + 2000);
    await sql`INSERT INTO room_codes (rid, hid, code, call_no, created_by, updated_by)
      SELECT ${rid}, x.hid, x.code, x.call_no, ${by}::bigint, ${by}::bigint
      FROM unnest(${slice.map((c) => c.hid)}::bigint[], ${slice.map((c) => c.code)}::text[], ${slice.map((c) => c.call_no)}::text[]) AS x(hid, code, call_no)
      ON CONFLICT (rid, hid) DO UPDATE SET code = excluded.code, call_no = excluded.call_no, updated_at = now(), updated_by = excluded.updated_by`.execute(
      db,
    );
  }
}

type GenerateInput = z.output<(typeof methodSchemas)['roomcodegenerate']>;

/** Generates the codes of the community's rooms (or a building's) from the templates; answers what it did. */
export async function generateRoomCodes(
  db: Kysely<DB>,
  rid: number,
  input: Pick<GenerateInput, 'code_template' | 'call_template' | 'bid' | 'overwrite'>,
  by: number | null,
): Promise<{ generated: number; skipped: number; clashed: number; clashes: string[]; pushed: number }> {
  let qb = roomsOf(db, rid)
    .leftJoin('room_codes as rc', (j) => j.onRef('rc.rid', '=', 'r.rid').onRef('rc.hid', '=', 'r.id'))
    .select(sql<boolean>`rc.hid IS NOT NULL`.as('coded'));
  if (input.bid) qb = qb.where('r.bid', '=', input.bid);
  const rows = await qb
    .orderBy('r.id')
    .limit(ROOM_CODE_GENERATE_MAX + 1)
    .execute();
  if (rows.length > ROOM_CODE_GENERATE_MAX) fail(`房屋超过 ${ROOM_CODE_GENERATE_MAX} 户，请按楼栋分批生成`);
  if (input.bid && rows.length === 0) {
    const b = await db.selectFrom('buildings').select('id').where('rid', '=', rid).where('id', '=', input.bid).executeTakeFirst();
    if (!b) fail('所选楼栋不存在');
  }
  const todo = rows.filter((r) => input.overwrite === 'Y' || !r.coded);
  const codes: NewCode[] = [];
  for (const r of todo) {
    const parts = partsOf({ ...r, hid: Number(r.hid) });
    const code = renderRoomCode(input.code_template, parts);
    const call = input.call_template ? renderRoomCode(input.call_template, parts) : '';
    if (!ROOM_CODE_RE.test(code)) fail(`${r.address} 按模板生成的房号编码「${code}」不合规：${ROOM_CODE_MSG}`);
    if (!CALL_NO_RE.test(call)) fail(`${r.address} 按模板生成的呼叫号「${call}」不合规：${CALL_NO_MSG}`);
    codes.push({ hid: Number(r.hid), code, call_no: call });
  }
  const address = new Map(todo.map((r) => [Number(r.hid), r.address]));
  // a room whose code clashes keeps what it had: it is reported, to be set by hand
  const clash = await clashes(db, rid, codes, (c) => address.get(c.hid) ?? '');
  const written = codes.filter((c) => !clash.hids.has(c.hid));
  await writeCodes(db, rid, written, by);
  const pushed = await pushRoomCodes(
    db,
    rid,
    written.map((c) => c.hid),
    { createdBy: by },
  );
  return {
    generated: written.length,
    skipped: rows.length - todo.length,
    clashed: clash.hids.size,
    clashes: clash.messages.map((m) => m.text),
    pushed,
  };
}

/* ---------------------------------------------------------------- the methods */

type ListInput = z.output<(typeof methodSchemas)['roomcodelist']>;
type Filters = Omit<ListInput, 'page' | 'limit' | 'sort'>;

function codeRows(db: Kysely<DB>, rid: number, f: Filters) {
  let qb = db
    .selectFrom('rooms as r')
    .leftJoin('room_codes as rc', (j) => j.onRef('rc.rid', '=', 'r.rid').onRef('rc.hid', '=', 'r.id'))
    .where('r.rid', '=', rid);
  if (f.bid) qb = qb.where('r.bid', '=', f.bid);
  if (f.tid) qb = qb.where('r.tid', '=', f.tid);
  if (f.coded === 'Y') qb = qb.where('rc.hid', 'is not', null);
  if (f.coded === 'N') qb = qb.where('rc.hid', 'is', null);
  if (f.sync_state) qb = qb.where('rc.sync_state', '=', f.sync_state);
  if (f.keyword) {
    const m = keywordMatch(f.keyword);
    qb = qb.where((eb) =>
      eb.or([eb('r.address', m.address, m.contains), eb('rc.code', 'like', m.prefix), eb('rc.call_no', 'like', m.prefix)]),
    );
  }
  return qb;
}

/**
 * A keyword matches a room's address anywhere and a code or call number from its start (their
 * indexes serve that); lib/like.ts picks LIKE over ILIKE when the keyword has no letter.
 */
function keywordMatch(keyword: string) {
  return { address: containsOperator(keyword), contains: likePattern(keyword), prefix: prefixPattern(keyword) };
}

const withColumns = (qb: ReturnType<typeof codeRows>) =>
  qb
    .leftJoin('accounts as a', 'a.id', 'rc.updated_by')
    .select([
      'r.id as hid',
      'r.bid',
      'r.tid',
      'r.address',
      'r.floor',
      'rc.code',
      'rc.call_no',
      'rc.sync_state',
      'rc.sync_error',
      'rc.updated_at',
      'a.name as operator',
    ]);

const codeItem = (r: Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number]): RoomCodeItem => ({
  hid: Number(r.hid),
  bid: Number(r.bid),
  tid: Number(r.tid),
  address: r.address,
  floor: r.floor,
  code: r.code ?? '',
  call_no: r.call_no ?? '',
  sync_state: (r.sync_state ?? '') as RoomCodeItem['sync_state'],
  sync_state_ch: r.sync_state ? enumText(ROOM_SYNC_STATE, r.sync_state) : '未生成',
  sync_error: r.sync_error ?? '',
  update_time: r.updated_at ? wireTime(r.updated_at) : '',
  operator: r.operator ?? '',
});

const roomcodelist = defineMethod('roomcodelist', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: false,
  summary: '房号编码：每户的房号编码、呼叫号与同步到门禁设备的状态；可按楼栋、单元、关键字（房屋、编码、呼叫号）、是否已生成和同步状态筛选',
  async handler(ctx, input) {
    // building, unit and floor first; the page's own order (listPage) last
    const rows = withColumns(codeRows(ctx.db, ctx.rid, input))
      .orderBy('r.building_sort')
      .orderBy('r.unit_sort')
      .orderBy('r.floor');
    const page = await listPage(rows, input, 'r.id', codeRows(ctx.db, ctx.rid, input).select('r.id'));
    return { items: page.items.map(codeItem), total: page.total };
  },
});

const roomcodegenerate = defineMethod('roomcodegenerate', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary:
    '按模板生成房号编码和呼叫号（{b} 楼栋号 {u} 单元号 {f} 楼层 {r} 层内房号 {n} 房号，{f:2} 补足 2 位）：可只生成一栋；overwrite=Y 时已有编码的房屋也重新生成；有重复时一户也不生成；生成后下发到门禁设备',
  async handler(ctx, input) {
    const r = await generateRoomCodes(ctx.db, ctx.rid, input, ctx.session.accountId);
    const parts = [
      r.generated ? `已生成 ${r.generated} 户的编码` : '没有生成编码',
      r.skipped ? `跳过已有编码的 ${r.skipped} 户` : '',
      r.clashed
        ? `${r.clashed} 户编码重复未生成（${r.clashes.join('；')}${r.clashed > r.clashes.length ? ' 等' : ''}），请单独设置或调整模板`
        : '',
    ];
    return reply(r, parts.filter(Boolean).join('，'));
  },
});

async function roomOf(db: Kysely<DB>, rid: number, hid: number) {
  const r = await db
    .selectFrom('rooms as r')
    .leftJoin('room_codes as rc', (j) => j.onRef('rc.rid', '=', 'r.rid').onRef('rc.hid', '=', 'r.id'))
    .select(['r.id', 'r.address', 'rc.code', 'rc.call_no'])
    .where('r.rid', '=', rid)
    .where('r.id', '=', hid)
    .executeTakeFirst();
  return r ?? fail('房屋不存在');
}

const roomcodeedit = defineMethod('roomcodeedit', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '设置一户的房号编码和呼叫号（小区内不能重复），并下发到服务该户的门禁设备',
  async handler(ctx, input) {
    const room = await roomOf(ctx.db, ctx.rid, input.hid);
    const clash = await clashes(ctx.db, ctx.rid, [{ hid: input.hid, code: input.code, call_no: input.call_no }], () => '');
    if (clash.messages.length) fail(clash.messages[0]!.text);
    if (room.code === input.code && room.call_no === input.call_no) fail('编码没有变化');
    await writeCodes(ctx.db, ctx.rid, [{ hid: input.hid, code: input.code, call_no: input.call_no }], ctx.session.accountId);
    const pushed = await pushRoomCodes(ctx.db, ctx.rid, [input.hid], { createdBy: ctx.session.accountId });
    return reply({ hid: input.hid, pushed }, pushed ? `保存成功，已下发到 ${pushed} 台设备` : '保存成功（没有服务该户的门禁设备）');
  },
});

const roomcodedel = defineMethod('roomcodedel', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '删除一户的房号编码和呼叫号，并通知服务该户的门禁设备删除',
  async handler(ctx, input) {
    const room = await roomOf(ctx.db, ctx.rid, input.hid);
    if (!room.code) fail('该房屋还没有房号编码');
    await ctx.db.deleteFrom('room_codes').where('rid', '=', ctx.rid).where('hid', '=', input.hid).execute();
    const pushed = await pushRoomDelete(
      ctx.db,
      ctx.rid,
      input.hid,
      { code: room.code, call_no: room.call_no ?? '' },
      ctx.session.accountId,
    );
    return reply({ hid: input.hid, pushed }, '删除成功');
  },
});

const roomcodesync = defineMethod('roomcodesync', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '重新下发房号编码：给出 hid 时只下发该户，否则下发所有已生成编码的房屋',
  async handler(ctx, input) {
    if (input.hid) {
      const room = await roomOf(ctx.db, ctx.rid, input.hid);
      if (!room.code) fail('该房屋还没有房号编码');
    }
    const pushed = await pushRoomCodes(ctx.db, ctx.rid, input.hid ? [input.hid] : 'all', { createdBy: ctx.session.accountId });
    return reply({ pushed }, pushed ? `已重新下发 ${pushed} 条指令` : '没有服务这些房屋的门禁设备');
  },
});

const CODE_HEADERS = ['楼栋', '单元', '房号', '房号编码', '呼叫号'] as const;

const roomcodeexport = defineExport('roomcodeexport', {
  roles: ACCESS_ROLES.staff,
  summary: '导出房号编码（楼栋、单元、房号、房号编码、呼叫号、同步状态），可直接修改后导入',
  filename: () => `房号编码_${today()}.xlsx`,
  check: (scope, input) => refuseOversizedExport(scope.db, codeRows(scope.db, scope.rid, input).select('r.id')),
  async sheet(scope, input) {
    const rows = await codeRows(scope.db, scope.rid, input)
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
      .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
      .select(['b.title as building', 'u.title as unit', 'r.title as room', 'rc.code', 'rc.call_no', 'rc.sync_state', 'rc.sync_error'])
      .orderBy('r.building_sort')
      .orderBy('r.unit_sort')
      .orderBy('r.floor')
      .orderBy('r.id')
      .limit(EXPORT_MAX)
      .execute();
    return sheetOf(
      '房号编码',
      [
        { header: '楼栋', value: (r) => r.building },
        { header: '单元', value: (r) => r.unit },
        { header: '房号', value: (r) => r.room },
        { header: '房号编码', value: (r) => r.code ?? '', width: 16 },
        { header: '呼叫号', value: (r) => r.call_no ?? '', width: 16 },
        { header: '同步状态', value: (r) => (r.sync_state ? enumText(ROOM_SYNC_STATE, r.sync_state) : '未生成') },
        { header: '同步错误', value: (r) => r.sync_error ?? '', width: 24 },
      ],
      rows,
    );
  },
});

interface ImportPlan {
  codes: Array<NewCode & { row: number }>;
}

async function checkImport(db: Kysely<DB>, rid: number, rows: SheetRow[]): Promise<{ errors: ImportRowError[]; plan: ImportPlan }> {
  const rooms = await roomsOf(db, rid).execute();
  const roomOfKey = new Map(rooms.map((r) => [`${r.building}|${r.unit}|${r.room}`, r]));
  const errors: ImportRowError[] = [];
  const codes: ImportPlan['codes'] = [];
  const seenRoom = new Map<number, number>();
  for (const { rowNumber: row, values: v } of rows) {
    const bad = (column: string, reason: string) => errors.push({ row, column, reason });
    const before = errors.length;
    const room = roomOfKey.get(`${v['楼栋'] ?? ''}|${v['单元'] ?? ''}|${v['房号'] ?? ''}`);
    if (!room) bad('房号', `找不到房屋 ${v['楼栋'] ?? ''}${v['单元'] ?? ''}${v['房号'] ?? ''}`);
    const code = (v['房号编码'] ?? '').trim();
    const call = (v['呼叫号'] ?? '').trim();
    if (!ROOM_CODE_RE.test(code)) bad('房号编码', code ? ROOM_CODE_MSG : '请填写房号编码');
    if (!CALL_NO_RE.test(call)) bad('呼叫号', CALL_NO_MSG);
    if (errors.length > before || !room) continue;
    const hid = Number(room.hid);
    const first = seenRoom.get(hid);
    if (first) {
      bad('房号', `与第 ${first} 行是同一户`);
      continue;
    }
    seenRoom.set(hid, row);
    codes.push({ row, hid, code, call_no: call });
  }
  if (!errors.length) {
    const rowOf = new Map(codes.map((c) => [c.hid, c.row]));
    const clash = await clashes(db, rid, codes, (c) => `第 ${rowOf.get(c.hid)} 行`, 1000);
    for (const m of clash.messages) errors.push({ row: rowOf.get(m.hid) ?? 0, column: m.column, reason: m.text });
  }
  return { errors, plan: { codes } };
}

async function writeImport(scope: ImportScope, plan: ImportPlan): Promise<RoomCodeImportResult> {
  const by = scope.job.created_by === null ? null : Number(scope.job.created_by);
  // one batch: the codes may swap between rooms, so the whole file is written at once
  await scope.batch(async (trx) => {
    await writeCodes(trx, scope.rid, plan.codes, by);
    await pushRoomCodes(
      trx,
      scope.rid,
      plan.codes.map((c) => c.hid),
      { createdBy: by },
    );
  });
  await scope.step(plan.codes.length, plan.codes.length);
  return { imported: plan.codes.length, errors: [] };
}

const roomCodeImport = defineImport<'roomcodeimport', 'roomcodetemplate', ImportPlan, RoomCodeImportResult>({
  kind: ROOM_CODE_IMPORT_KIND,
  label: '房号编码',
  methods: { template: 'roomcodetemplate', upload: 'roomcodeimport', errors: 'roomcodeerrors' },
  summaries: {
    template: '房号编码导入模板（.xlsx）：楼栋、单元、房号、房号编码、呼叫号，预填小区（或一栋）的房屋与现有编码',
    upload: '上传房号编码 Excel：作为后台任务导入，有错误行则全部不导入；导入后下发到门禁设备',
  },
  roles: ACCESS_ROLES.staff,
  required: CODE_HEADERS,
  maxRows: IMPORT_MAX_ROWS,
  maxErrors: 1000,
  async template(ctx, input) {
    let qb = roomsOf(ctx.db, ctx.rid)
      .leftJoin('room_codes as rc', (j) => j.onRef('rc.rid', '=', 'r.rid').onRef('rc.hid', '=', 'r.id'))
      .select(['rc.code', 'rc.call_no']);
    if (input.bid) qb = qb.where('r.bid', '=', input.bid);
    const rows = await qb
      .orderBy('r.building_sort')
      .orderBy('r.unit_sort')
      .orderBy('r.floor')
      .orderBy('r.id')
      .limit(IMPORT_MAX_ROWS)
      .execute();
    return {
      filename: '房号编码导入模板.xlsx',
      sheet: '房号编码',
      headers: CODE_HEADERS,
      widths: { 房号编码: 16, 呼叫号: 16 },
      rows: rows.map((r) => [r.building, r.unit, r.room, r.code ?? '', r.call_no ?? '']),
      help: {
        sheet: '说明',
        lines: [
          ['楼栋、单元、房号', '必须是小区中已有的房屋，如 1号楼、1单元、1101'],
          ['房号编码', `必填，${ROOM_CODE_MSG}，小区内不能重复`],
          ['呼叫号', `可不填，${CALL_NO_MSG}，小区内不能重复`],
          ['默认模板', `房号编码 ${DEFAULT_CODE_TEMPLATE}，呼叫号 ${DEFAULT_CALL_TEMPLATE}（可在页面按模板生成）`],
          ['注意', '文件中没有的房屋保持原编码；任何一行有错误时整个文件都不导入'],
        ],
      },
    };
  },
  check: (scope, rows) => checkImport(scope.db, scope.rid, rows),
  rejected: (errors) => ({ imported: 0, errors }),
  write: writeImport,
  raced: '导入过程中有相同的编码被他人设置，已全部撤销，请重新导入',
});

/* ---------------------------------------------------------------- the sync log */

type SyncFilters = Omit<z.output<(typeof methodSchemas)['roomsynclist']>, 'page' | 'limit' | 'sort'>;

function syncRows(db: Kysely<DB>, rid: number, f: SyncFilters) {
  let qb = db
    .selectFrom('device_commands as c')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'c.rid').onRef('d.id', '=', 'c.device_id'))
    .where('c.rid', '=', rid)
    .where('c.kind', '=', 'room_sync');
  if (f.device_id) qb = qb.where('c.device_id', '=', f.device_id);
  if (f.state) qb = qb.where('c.state', '=', f.state);
  if (f.start_date)
    qb = qb.where('c.created_at', '>=', sql<Date>`(${f.start_date}::date)::timestamp AT TIME ZONE current_setting('TimeZone')`);
  if (f.end_date)
    qb = qb.where('c.created_at', '<', sql<Date>`(${f.end_date}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')`);
  if (f.keyword) {
    // the rooms the keyword names (their address, or their code as it is now), then their commands by subject
    const m = keywordMatch(f.keyword);
    qb = qb.where('c.subject', 'in', (eb) =>
      eb
        .selectFrom('rooms as r')
        .leftJoin('room_codes as rc', (j) => j.onRef('rc.rid', '=', 'r.rid').onRef('rc.hid', '=', 'r.id'))
        .select(sql<string>`'room:' || r.id`.as('subject'))
        .where('r.rid', '=', rid)
        .where((w) => w.or([w('r.address', m.address, m.contains), w('rc.code', 'like', m.prefix), w('rc.call_no', 'like', m.prefix)])),
    );
  }
  return qb.select([
    'c.id',
    'c.device_id',
    'd.title as device_title',
    'd.code as device_code',
    sql<string>`c.payload->>'hid'`.as('hid'),
    sql<string>`coalesce(c.payload->>'address', '')`.as('address'),
    sql<string>`coalesce(c.payload->>'action', 'set')`.as('action'),
    sql<string>`coalesce(c.payload->>'code', '')`.as('code'),
    sql<string>`coalesce(c.payload->>'call_no', '')`.as('call_no'),
    'c.state',
    'c.attempts',
    'c.last_error',
    'c.created_at',
    'c.acked_at',
  ]);
}

const syncItem = (r: Awaited<ReturnType<ReturnType<typeof syncRows>['execute']>>[number]): RoomSyncItem => ({
  id: Number(r.id),
  device_id: Number(r.device_id),
  device_title: r.device_title,
  hid: Number(r.hid),
  address: r.address,
  action: r.action === 'del' ? 'del' : 'set',
  action_ch: enumText(ROOM_SYNC_ACTION, r.action),
  code: r.code,
  call_no: r.call_no,
  state: r.state,
  state_ch: enumText(COMMAND_STATE, r.state),
  attempts: r.attempts,
  last_error: r.last_error,
  create_time: wireTime(r.created_at),
  acked_at: r.acked_at ? wireTime(r.acked_at) : '',
});

const roomsynclist = defineMethod('roomsynclist', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: false,
  summary: '房屋结构同步记录：每条下发给门禁设备的房号编码指令（设备、房屋、编码、呼叫号、状态、次数、错误、时间），最新在前',
  async handler(ctx, input) {
    const page = await listPage(syncRows(ctx.db, ctx.rid, input), { ...input, sort: 'desc' }, 'c.id');
    return { items: page.items.map(syncItem), total: page.total };
  },
});

const roomsyncretry = defineMethod('roomsyncretry', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '重新同步失败的房屋结构指令：给出 id 时只重试该条，否则重试全部失败的',
  async handler(ctx, input) {
    if (input.id) {
      const c = await ctx.db
        .selectFrom('device_commands')
        .select('state')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.id)
        .where('kind', '=', 'room_sync')
        .executeTakeFirst();
      if (!c) fail('同步记录不存在');
      if (c!.state !== 'failed') fail('只有失败的记录可以重新同步');
    }
    const retried = await retryFailedCommands(ctx.db, ctx.rid, ['room_sync'], { id: input.id });
    return reply({ retried }, retried ? `已重新同步 ${retried} 条失败的指令` : '没有失败的指令');
  },
});

const roomsyncexport = defineExport('roomsyncexport', {
  roles: ACCESS_ROLES.staff,
  summary: '导出房屋结构同步记录（按筛选条件）',
  filename: () => `房屋结构同步_${today()}.xlsx`,
  check: (scope, input) => refuseOversizedExport(scope.db, syncRows(scope.db, scope.rid, input)),
  async sheet(scope, input) {
    const rows = await syncRows(scope.db, scope.rid, input).orderBy('c.id', 'desc').limit(EXPORT_MAX).execute();
    return sheetOf(
      '房屋结构同步',
      [
        { header: '时间', value: (r) => wireTime(r.created_at), width: 20 },
        { header: '设备编号', value: (r) => r.device_code },
        { header: '设备', value: (r) => r.device_title, width: 16 },
        { header: '房屋', value: (r) => r.address, width: 22 },
        { header: '指令', value: (r) => enumText(ROOM_SYNC_ACTION, r.action) },
        { header: '房号编码', value: (r) => r.code, width: 14 },
        { header: '呼叫号', value: (r) => r.call_no, width: 14 },
        { header: '状态', value: (r) => enumText(COMMAND_STATE, r.state) },
        { header: '次数', value: (r) => r.attempts },
        { header: '错误', value: (r) => r.last_error, width: 24 },
        { header: '应答时间', value: (r) => (r.acked_at ? wireTime(r.acked_at) : ''), width: 20 },
      ],
      rows,
    );
  },
});

export const roomCodeModule = [
  roomcodelist,
  roomcodegenerate,
  roomcodeedit,
  roomcodedel,
  roomcodesync,
  roomcodeexport,
  ...roomCodeImport,
  roomsynclist,
  roomsyncretry,
  roomsyncexport,
];
