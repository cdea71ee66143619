import {
  FEE_ROLES,
  fenToYuan,
  MONEY_RE,
  toFen,
  type BillStatus,
  type ImportRowError,
  type MeterImportResult,
  type MeterReadingRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineImport, type ImportScope } from '../../jobs/imports.js';
import { feeImportLog } from './feeimport.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { likePattern } from '../../lib/like.js';
import { billFeeFen } from './calc.js';
import { ROOM_BOUND } from './generate.js';

/** 抄表 is the billing staff's work. */
const ROLES = FEE_ROLES.bills;
export const METER_IMPORT = 'meter_import';
const MAX_ROWS = 20_000;
const REQUIRED = ['楼栋', '单元', '房号', '收费项目', '账期', '本次读数'];
const OPTIONAL = ['上次读数', '备注'];

const MSG = {
  notMeter: '只有按抄表读数计费的收费项目才能录入读数',
  itemMissing: '收费项目不存在',
  paid: '该房屋该账期的账单已缴费，不能再录入或修改读数',
  backwards: '本次读数不能小于上次读数',
  notFound: '抄表记录不存在',
} as const;

async function meterItem(db: Kysely<DB>, rid: number, itemId: number) {
  const item = await db
    .selectFrom('fee_items')
    .select(['id', 'title', 'pricing'])
    .where('rid', '=', rid)
    .where('id', '=', itemId)
    .executeTakeFirst();
  if (!item) fail(MSG.itemMissing);
  if (item!.pricing !== 'meter') fail(MSG.notMeter);
  return item!;
}

/** Refuses a room outside the community or an item that is not billed by meter reading. */
async function checkRoomAndMeterItem(ctx: CommunityCtx, hid: number, itemId: number): Promise<void> {
  const room = await ctx.db.selectFrom('rooms').select('id').where('rid', '=', ctx.rid).where('id', '=', hid).executeTakeFirst();
  if (!room) fail('房屋不存在');
  await meterItem(ctx.db, ctx.rid, itemId);
}

/** The reading of the latest period before `period` (what this period's meter started from). */
async function previous(db: Kysely<DB>, rid: number, hid: number, itemId: number, period: string) {
  return db
    .selectFrom('fee_meter_readings')
    .select(['this_reading', 'period'])
    .where('rid', '=', rid)
    .where('hid', '=', hid)
    .where('item_id', '=', itemId)
    .where('period', '<', period)
    .orderBy('period', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Locks the room's own bill of the item and period (not a parking bill) and refuses when it is paid. */
async function lockBill(ctx: CommunityCtx, hid: number, itemId: number, period: string) {
  const bill = await ctx.db
    .selectFrom('fee_bills')
    .select(['id', 'status'])
    .where('rid', '=', ctx.rid)
    .where('hid', '=', hid)
    .where('item_id', '=', itemId)
    .where('period', '=', period)
    .where('space_id', '=', 0)
    .where('car_id', '=', 0)
    .forUpdate()
    .executeTakeFirst();
  if (bill?.status === 'Y') fail(MSG.paid);
  return bill;
}

/**
 * Brings the unpaid bills of these readings in line with them: measure = quantity and fee =
 * quantity x the bill's own unit price (a reading covers the whole period), with an adjustment
 * row for each changed amount. The caller holds the bills' locks.
 */
async function repriceBills(db: Kysely<DB>, rid: number, readingIds: number[], reason: string, user: string): Promise<number> {
  if (!readingIds.length) return 0;
  const matched = sql`FROM fee_meter_readings m WHERE m.rid = b.rid AND m.hid = b.hid AND m.item_id = b.item_id AND m.period = b.period
    AND m.id = ANY(${readingIds}::bigint[])`;
  await sql`
    INSERT INTO fee_bill_adjustments (rid, bill_id, old_fee, new_fee, reason, created_by)
    SELECT b.rid, b.id, b.fee, round(m.quantity * b.unit_price, 2), ${reason}, ${user}
    FROM fee_bills b JOIN fee_meter_readings m ON m.rid = b.rid AND m.hid = b.hid AND m.item_id = b.item_id AND m.period = b.period
    WHERE b.rid = ${rid} AND b.space_id = 0 AND b.car_id = 0 AND b.status <> 'Y' AND m.id = ANY(${readingIds}::bigint[])
      AND b.fee <> round(m.quantity * b.unit_price, 2)`.execute(db);
  const res = await sql`
    UPDATE fee_bills b SET measure = m.quantity::text, fee = round(m.quantity * b.unit_price, 2)
    ${matched} AND b.rid = ${rid} AND b.space_id = 0 AND b.car_id = 0 AND b.status <> 'Y'
      AND (b.fee <> round(m.quantity * b.unit_price, 2) OR b.measure <> m.quantity::text)`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}

function readingQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_meter_readings as m')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'm.rid').onRef('r.id', '=', 'm.hid'))
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'm.rid').onRef('i.id', '=', 'm.item_id'))
    .leftJoin('fee_bills as fb', (j) =>
      j
        .onRef('fb.rid', '=', 'm.rid')
        .onRef('fb.hid', '=', 'm.hid')
        .onRef('fb.item_id', '=', 'm.item_id')
        .onRef('fb.period', '=', 'm.period')
        .on('fb.space_id', '=', 0)
        .on('fb.car_id', '=', 0),
    )
    .select([
      'm.id',
      'm.hid',
      'r.bid',
      'r.tid',
      'r.address',
      'm.item_id',
      'i.title as item_title',
      'm.period',
      'm.last_reading',
      'm.this_reading',
      'm.quantity',
      'i.unit_price',
      'fb.status as bill_status',
      'fb.fee as bill_fee',
      'm.remark',
      'm.source',
      'm.created_by',
      'm.created_at',
    ])
    .where('m.rid', '=', rid);
}

type Raw = Awaited<ReturnType<ReturnType<typeof readingQuery>['executeTakeFirstOrThrow']>>;

const toRow = (m: Raw): MeterReadingRow => ({
  id: m.id,
  hid: m.hid,
  bid: m.bid,
  tid: m.tid,
  address: m.address,
  item_id: m.item_id,
  item_title: m.item_title,
  period: m.period,
  last_reading: m.last_reading,
  this_reading: m.this_reading,
  quantity: m.quantity,
  unit_price: m.unit_price,
  amount: fenToYuan(billFeeFen(m.quantity, m.unit_price, 1)),
  bill_status: (m.bill_status ?? '') as '' | BillStatus,
  bill_fee: m.bill_fee ?? '',
  remark: m.remark,
  source: m.source as 'manual' | 'auto',
  create_user: m.created_by,
  create_time: wireTime(m.created_at),
});

const meterreadinglist = defineMethod('meterreadinglist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '抄表记录：按楼栋、单元、收费项目、账期、房号关键字筛选；含上次/本次读数、用量、按现价估算的金额和该账期账单状态',
  async handler(ctx, input) {
    let qb = readingQuery(ctx.db, ctx.rid);
    if (input.bid) qb = qb.where('r.bid', '=', input.bid);
    if (input.tid) qb = qb.where('r.tid', '=', input.tid);
    if (input.item_id) qb = qb.where('m.item_id', '=', input.item_id);
    if (input.period) qb = qb.where('m.period', '=', input.period);
    if (input.keyword) qb = qb.where('r.address', 'ilike', likePattern(input.keyword));
    // room order within a page, the reading id keeps the pages stable
    const page = await listPage(qb.orderBy('m.period', input.sort).orderBy('r.bid').orderBy('r.tid').orderBy('m.hid'), input, 'm.id');
    return { total: page.total, items: page.items.map(toRow) };
  },
});

const meterreadingprev = defineMethod('meterreadingprev', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '上期读数：该房屋该收费项目在此账期之前最近一期的本次读数（没有时为 0），录入时预填为上次读数',
  async handler(ctx, input) {
    await checkRoomAndMeterItem(ctx, input.hid, input.item_id);
    const prev = await previous(ctx.db, ctx.rid, input.hid, input.item_id, input.period);
    return { last_reading: prev?.this_reading ?? '0.00', last_period: prev?.period ?? '' };
  },
});

const meterreadingadd = defineMethod('meterreadingadd', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary:
    '录入一条抄表读数（房屋、抄表计费的收费项目、账期、本次读数；上次读数不填取上期读数）；该账期账单已缴时拒绝，未缴账单按读数重算金额并留调整记录',
  async handler(ctx, input) {
    await checkRoomAndMeterItem(ctx, input.hid, input.item_id);
    await lockBill(ctx, input.hid, input.item_id, input.period);
    const dup = await ctx.db
      .selectFrom('fee_meter_readings')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('hid', '=', input.hid)
      .where('item_id', '=', input.item_id)
      .where('period', '=', input.period)
      .executeTakeFirst();
    if (dup) fail('该房屋该账期已录入读数，请直接修改');
    const last = input.last_reading ?? (await previous(ctx.db, ctx.rid, input.hid, input.item_id, input.period))?.this_reading ?? '0.00';
    if (toFen(input.this_reading) < toFen(last)) fail(`${MSG.backwards}（上次读数 ${last}）`);
    const row = await ctx.db
      .insertInto('fee_meter_readings')
      .values({
        rid: ctx.rid,
        hid: input.hid,
        item_id: input.item_id,
        period: input.period,
        last_reading: last,
        this_reading: input.this_reading,
        remark: input.remark,
        created_by: ctx.session.name,
      })
      .onConflict((oc) => oc.columns(['rid', 'hid', 'item_id', 'period']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) fail('该房屋该账期已录入读数，请直接修改');
    const updated = await repriceBills(ctx.db, ctx.rid, [row!.id], '抄表读数录入', ctx.session.name);
    return reply({ id: row!.id, bill_updated: updated > 0 }, updated ? '保存成功，已按读数更新该账期的未缴账单' : '保存成功');
  },
});

const meterreadingedit = defineMethod('meterreadingedit', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '修改抄表读数；该账期账单已缴时拒绝，未缴账单按新读数重算金额并留调整记录',
  async handler(ctx, input) {
    const m = await ctx.db
      .selectFrom('fee_meter_readings')
      .select(['id', 'hid', 'item_id', 'period', 'last_reading'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!m) fail(MSG.notFound);
    await lockBill(ctx, m!.hid, m!.item_id, m!.period);
    const last = input.last_reading ?? m!.last_reading;
    if (toFen(input.this_reading) < toFen(last)) fail(`${MSG.backwards}（上次读数 ${last}）`);
    await ctx.db
      .updateTable('fee_meter_readings')
      .set({ last_reading: last, this_reading: input.this_reading, remark: input.remark, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    const updated = await repriceBills(ctx.db, ctx.rid, [input.id], '抄表读数修改', ctx.session.name);
    return reply({ bill_updated: updated > 0 }, updated ? '保存成功，已按新读数更新该账期的未缴账单' : '保存成功');
  },
});

const meterreadingdel = defineMethod('meterreadingdel', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '删除抄表读数；该账期已出账时拒绝（账单按读数计算，请改为修改读数）',
  async handler(ctx, input) {
    const m = await ctx.db
      .selectFrom('fee_meter_readings')
      .select(['id', 'hid', 'item_id', 'period'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!m) fail(MSG.notFound);
    const bill = await lockBill(ctx, m!.hid, m!.item_id, m!.period);
    if (bill) fail('该房屋该账期已按此读数出账，不能删除，如需更正请修改读数');
    await ctx.db.deleteFrom('fee_meter_readings').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

const meterImport = defineImport<'meterreadingimport', 'meterreadingtemplate', Valid[], MeterImportResult>({
  kind: METER_IMPORT,
  label: '抄表',
  methods: { template: 'meterreadingtemplate', upload: 'meterreadingimport', errors: 'meterreadingerrors' },
  summaries: {
    template:
      '抄表导入模板（.xlsx）：楼栋、单元、房号、收费项目、账期、本次读数，可选上次读数、备注；给出收费项目和账期时列出绑定该项目的房屋并预填上次读数（可按楼栋）',
    upload:
      '上传抄表 Excel：检查表头后作为后台任务导入（jobinfo 查进度，joblist kind=meter_import 查记录）；有错误行则全部不导入，可下载错误报告',
  },
  roles: ROLES,
  required: REQUIRED,
  maxRows: MAX_ROWS,
  maxErrors: 1000,
  async template(ctx, input) {
    let filename = '抄表导入模板.xlsx';
    let rows: string[][] = [['1号楼', '1单元', '101', '生活用水', '2025-01', '135.50', '123.00', '']];
    if (input.item_id && input.period) {
      const item = await meterItem(ctx.db, ctx.rid, input.item_id);
      const res = await sql<{ building: string; unit: string; room: string; last: string | null; current: string | null }>`
        SELECT b.title AS building, u.title AS unit, r.title AS room,
          (SELECT m.this_reading FROM fee_meter_readings m WHERE m.rid = r.rid AND m.hid = r.id AND m.item_id = i.id AND m.period < ${input.period}
            ORDER BY m.period DESC LIMIT 1)::text AS last,
          (SELECT m.this_reading FROM fee_meter_readings m WHERE m.rid = r.rid AND m.hid = r.id AND m.item_id = i.id AND m.period = ${input.period})::text AS current
        FROM rooms r
        JOIN buildings b ON b.rid = r.rid AND b.id = r.bid
        JOIN units u ON u.rid = r.rid AND u.id = r.tid
        JOIN fee_items i ON i.rid = r.rid AND i.id = ${input.item_id}
        WHERE r.rid = ${ctx.rid} ${input.bid ? sql`AND r.bid = ${input.bid}` : sql``} AND ${ROOM_BOUND}
        ORDER BY r.bid, r.tid, r.id
        LIMIT ${MAX_ROWS}`.execute(ctx.db);
      rows = res.rows.map((r) => [r.building, r.unit, r.room, item.title, input.period!, r.current ?? '', r.last ?? '0.00', '']);
      filename = `抄表_${item.title}_${input.period}.xlsx`;
    }
    return {
      filename,
      sheet: '抄表',
      headers: [...REQUIRED, ...OPTIONAL],
      widths: { 备注: 20 },
      rows,
      help: {
        sheet: '说明',
        lines: [
          ['收费项目', '按抄表读数计费的收费项目名称'],
          ['账期', 'YYYY-MM，例如 2025-01'],
          ['本次读数', '不小于 0，最多两位小数，且不小于上次读数'],
          ['上次读数', '不填时取该房屋上一期的本次读数，没有则为 0'],
          ['注意', '同一房屋、收费项目、账期已有读数时按文件更新；账单已缴的不能修改；任何一行有错误时整个文件都不导入'],
        ],
      },
    };
  },
  async check(scope, rows) {
    const { valid, errors } = await validate(scope.db, scope.rid, rows);
    return { errors, plan: valid };
  },
  rejected: (errors) => ({ imported: 0, updated: 0, errors }),
  write: writeReadings,
  raced: '导入过程中有相同的抄表读数被他人录入，已全部撤销，请重新导入',
});

interface Valid {
  row: number;
  hid: number;
  item_id: number;
  period: string;
  last: string | undefined;
  this: string;
  remark: string;
}

/** Checks every row; answers the valid ones with their previous reading filled in, or the errors. */
async function validate(db: Kysely<DB>, rid: number, rows: SheetRow[]) {
  const [rooms, items] = await Promise.all([
    db
      .selectFrom('rooms as r')
      .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
      .innerJoin('buildings as bd', (j) => j.onRef('bd.rid', '=', 'r.rid').onRef('bd.id', '=', 'r.bid'))
      .select(['r.id', 'r.title', 'u.title as unit', 'bd.title as building'])
      .where('r.rid', '=', rid)
      .execute(),
    db.selectFrom('fee_items').select(['id', 'title', 'pricing']).where('rid', '=', rid).execute(),
  ]);
  const roomOf = new Map(rooms.map((r) => [`${r.building}|${r.unit}|${r.title}`, r.id]));
  const itemOf = new Map(items.map((i) => [i.title, i]));
  const errors: MeterImportResult['errors'] = [];
  const valid: Valid[] = [];
  const seen = new Set<string>();
  for (const { rowNumber: row, values: v } of rows) {
    const bad = (column: string, reason: string) => errors.push({ row, column, reason });
    const before = errors.length;
    const hid = roomOf.get(`${v['楼栋'] ?? ''}|${v['单元'] ?? ''}|${v['房号'] ?? ''}`);
    if (!hid) bad('房号', `找不到房屋 ${v['楼栋'] ?? ''}${v['单元'] ?? ''}${v['房号'] ?? ''}`);
    const item = itemOf.get(v['收费项目'] ?? '');
    if (!item) bad('收费项目', `收费项目「${v['收费项目'] ?? ''}」不存在`);
    else if (item.pricing !== 'meter') bad('收费项目', `收费项目「${item.title}」不是按抄表读数计费`);
    const period = v['账期'] ?? '';
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) bad('账期', '账期格式应为 YYYY-MM');
    const current = v['本次读数'] ?? '';
    if (!MONEY_RE.test(current)) bad('本次读数', '本次读数应为不小于 0、最多两位小数的数字');
    const last = v['上次读数'] ?? '';
    if (last && !MONEY_RE.test(last)) bad('上次读数', '上次读数应为不小于 0、最多两位小数的数字');
    const remark = v['备注'] ?? '';
    if (remark.length > 100) bad('备注', '备注最多 100 个字');
    if (errors.length > before || !hid || !item) continue;
    const key = `${hid}|${item.id}|${period}`;
    if (seen.has(key)) {
      bad('账期', '文件中该房屋该账期的读数重复');
      continue;
    }
    seen.add(key);
    valid.push({ row, hid, item_id: item.id, period, last: last || undefined, this: current, remark });
  }
  if (!valid.length) return { valid, errors };

  // paid bills, and the previous reading in the database of rows without one
  const hids = valid.map((r) => r.hid);
  const itemIds = valid.map((r) => r.item_id);
  const periods = valid.map((r) => r.period);
  const known = await sql<{ n: number; paid: boolean; prev: string | null; prev_period: string | null }>`
    SELECT x.n::int AS n,
      EXISTS (SELECT 1 FROM fee_bills b WHERE b.rid = ${rid} AND b.hid = x.hid AND b.item_id = x.item_id AND b.period = x.period
        AND b.space_id = 0 AND b.car_id = 0 AND b.status = 'Y') AS paid,
      p.this_reading::text AS prev, p.period AS prev_period
    FROM unnest(${hids}::bigint[], ${itemIds}::bigint[], ${periods}::text[]) WITH ORDINALITY AS x(hid, item_id, period, n)
    LEFT JOIN LATERAL (SELECT m.this_reading, m.period FROM fee_meter_readings m WHERE m.rid = ${rid} AND m.hid = x.hid
      AND m.item_id = x.item_id AND m.period < x.period ORDER BY m.period DESC LIMIT 1) p ON true`.execute(db);
  const byN = new Map(known.rows.map((k) => [Number(k.n), k]));
  // a file can hold several periods of one meter: an earlier row of the file is a previous reading too
  const order = valid.map((r, i) => ({ r, k: byN.get(i + 1)! })).sort((a, b) => a.r.period.localeCompare(b.r.period));
  const inFile = new Map<string, { period: string; reading: string }>();
  for (const { r, k } of order) {
    const meter = `${r.hid}|${r.item_id}`;
    if (k.paid) errors.push({ row: r.row, column: '账期', reason: '该房屋该账期的账单已缴费，不能再录入或修改读数' });
    const fromFile = inFile.get(meter);
    const prev = fromFile && (!k.prev_period || fromFile.period > k.prev_period) ? fromFile.reading : (k.prev ?? '0.00');
    r.last ??= prev;
    if (toFen(r.this) < toFen(r.last)) errors.push({ row: r.row, column: '本次读数', reason: `本次读数不能小于上次读数 ${r.last}` });
    inFile.set(meter, { period: r.period, reading: r.this });
  }
  errors.sort((a, b) => a.row - b.row);
  return { valid, errors };
}

/**
 * Writes the checked readings and reprices their bills, a thousand a batch in short transactions
 * (jobs/batches.ts). Writing a reading again gives the same result, so a job that starts over after
 * its process died simply writes them all again. A bill paid since the check keeps its fee: that
 * row is not written and is reported.
 */
async function writeReadings(ctx: ImportScope, valid: Valid[]): Promise<MeterImportResult> {
  const { rid } = ctx;
  const user = ctx.job.created_by
    ? ((await ctx.db.selectFrom('accounts').select('name').where('id', '=', ctx.job.created_by).executeTakeFirst())?.name ?? '')
    : '';
  let imported = 0;
  let updated = 0;
  const errors: ImportRowError[] = [];
  for (let i = 0; i < valid.length; i += 1000) {
    await ctx.batch(async (trx) => {
      const slice = valid.slice(i, i + 1000);
      // the bills these readings price, locked; the rows of any paid since the check are left out
      const locked = await sql<{ hid: number; item_id: number; period: string; status: string }>`
        SELECT b.hid, b.item_id, b.period, b.status FROM fee_bills b
        JOIN unnest(${slice.map((r) => r.hid)}::bigint[], ${slice.map((r) => r.item_id)}::bigint[], ${slice.map((r) => r.period)}::text[])
          AS x(hid, item_id, period) ON b.hid = x.hid AND b.item_id = x.item_id AND b.period = x.period
        WHERE b.rid = ${rid} AND b.space_id = 0 AND b.car_id = 0
        ORDER BY b.id FOR UPDATE OF b`.execute(trx);
      const paidKeys = new Set(locked.rows.filter((b) => b.status === 'Y').map((b) => `${b.hid}|${b.item_id}|${b.period}`));
      const rows = slice.filter((r) => {
        if (!paidKeys.has(`${r.hid}|${r.item_id}|${r.period}`)) return true;
        errors.push({ row: r.row, column: '本次读数', reason: '导入过程中该账单已缴费，本行未导入' });
        return false;
      });
      if (!rows.length) return;
      const res = await trx
        .insertInto('fee_meter_readings')
        .values(
          rows.map((r) => ({
            rid,
            hid: r.hid,
            item_id: r.item_id,
            period: r.period,
            last_reading: r.last!,
            this_reading: r.this,
            remark: r.remark,
            created_by: user,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['rid', 'hid', 'item_id', 'period']).doUpdateSet({
            last_reading: (eb) => eb.ref('excluded.last_reading'),
            this_reading: (eb) => eb.ref('excluded.this_reading'),
            remark: (eb) => eb.ref('excluded.remark'),
            updated_at: sql`now()`,
          }),
        )
        .returning(['id', sql<boolean>`(xmax = 0)`.as('inserted')])
        .execute();
      for (const r of res) {
        if (r.inserted) imported++;
        else updated++;
      }
      await repriceBills(
        trx,
        rid,
        res.map((r) => r.id),
        '抄表导入',
        user,
      );
    });
    await ctx.step(Math.min(valid.length, i + 1000), valid.length);
  }
  return { imported, updated, errors };
}

const meterimportlist = defineMethod('meterimportlist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '抄表导入记录：文件、状态、行数、导入条数（新增与更新）、错误行数、操作人、时间',
  handler: (ctx, input) => feeImportLog(ctx, METER_IMPORT, input),
});

export const meterMethods = [
  meterreadinglist,
  meterreadingprev,
  meterreadingadd,
  meterreadingedit,
  meterreadingdel,
  ...meterImport,
  meterimportlist,
];
