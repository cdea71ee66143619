/**
 * Pass records (/carpark/currentlog; docs/product.md#access-control): who passed which device, how
 * (face, card, QR, remote), the face match, the snapshot, and whether the door opened. `recordPass`
 * is the one writer (the visitors' QR check calls it); the simulator's "simulate a pass" and a
 * remote open the device acknowledged write through it.
 */
import { PASS_METHOD, PASS_RESULT, daysBetween, enumText, type PassItem } from '@wuye/contract';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { onCommandAck } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { countUpTo, listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { doorOf } from './devices.js';
import { grantSubject } from './sync.js';

export interface PassInput {
  deviceId: number;
  method: 'face' | 'card' | 'qr' | 'remote';
  result: 'open' | 'refused';
  personName?: string;
  memberId?: number | null;
  hid?: number | null;
  grantId?: number | null;
  visitorId?: number | null;
  similarity?: number | null;
  snapshot?: string;
  at?: Date;
}

/** Writes one pass record of the community's device (in the caller's transaction); answers its id. */
export async function recordPass(db: Kysely<DB>, rid: number, p: PassInput): Promise<number> {
  const row = await db
    .insertInto('access_passes')
    .values({
      rid,
      device_id: p.deviceId,
      method: p.method,
      result: p.result,
      person_name: p.personName ?? '',
      member_id: p.memberId ?? null,
      hid: p.hid ?? null,
      grant_id: p.grantId ?? null,
      visitor_id: p.visitorId ?? null,
      similarity: p.similarity ?? null,
      snapshot: p.snapshot ?? '',
      rec_time: p.at ?? new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

// a remote open the device carried out is a pass of the operator's
onCommandAck('open', async (db, { rid, command, ok }) => {
  if (!ok) return;
  const p = (typeof command.payload === 'string' ? JSON.parse(command.payload) : command.payload) as { operator?: string };
  await recordPass(db, rid, { deviceId: Number(command.device_id), method: 'remote', result: 'open', personName: p.operator ?? '' });
});

interface PassFilter {
  keyword?: string;
  device_id?: number | undefined;
  mode?: '' | 'face' | 'card' | 'qr' | 'remote';
  result?: '' | 'open' | 'refused';
  start_date?: string;
  end_date?: string;
}

function passQuery(db: Kysely<DB>, rid: number, f: PassFilter) {
  let qb = db
    .selectFrom('access_passes as p')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'p.rid').onRef('d.id', '=', 'p.device_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'p.rid').onRef('r.id', '=', 'p.hid'))
    .select([
      'p.id',
      'p.device_id',
      'd.title as device_title',
      'p.person_name',
      'p.member_id',
      'p.hid',
      'r.address',
      'p.grant_id',
      'p.visitor_id',
      'p.method',
      'p.similarity',
      'p.snapshot',
      'p.result',
      'p.rec_time',
    ])
    .where('p.rid', '=', rid);
  if (f.keyword) qb = qb.where('p.person_name', 'ilike', `%${f.keyword}%`);
  if (f.device_id) qb = qb.where('p.device_id', '=', f.device_id);
  if (f.mode) qb = qb.where('p.method', '=', f.mode);
  if (f.result) qb = qb.where('p.result', '=', f.result);
  if (f.start_date && f.end_date) qb = qb.where(withinDays('p.rec_time', [f.start_date, f.end_date]));
  else if (f.start_date) qb = qb.where('p.rec_time', '>=', sql<Date>`${f.start_date}::date`);
  else if (f.end_date) qb = qb.where('p.rec_time', '<', sql<Date>`${f.end_date}::date + 1`);
  return qb;
}
type PassRow = Awaited<ReturnType<ReturnType<typeof passQuery>['executeTakeFirstOrThrow']>>;

const passItem = (p: PassRow): PassItem => ({
  id: Number(p.id),
  device_id: Number(p.device_id),
  device_title: p.device_title,
  person_name: p.person_name,
  member_id: p.member_id === null ? null : Number(p.member_id),
  hid: p.hid === null ? null : Number(p.hid),
  address: p.address ?? '',
  grant_id: p.grant_id === null ? null : Number(p.grant_id),
  visitor_id: p.visitor_id === null ? null : Number(p.visitor_id),
  method: p.method,
  method_ch: enumText(PASS_METHOD, p.method),
  similarity: p.similarity ?? '',
  snapshot: p.snapshot,
  result: p.result,
  result_ch: enumText(PASS_RESULT, p.result),
  rec_time: wireTime(p.rec_time),
});

/** The pass list counts its total up to this many rows (bench/README.md#access-and-visitors). */
export const PASS_COUNT_CAP = 10_000;
/** The longest range a search by name reads (the operation log's rule). */
const KEYWORD_MAX_DAYS = 31;

const accesspasslist = defineMethod('accesspasslist', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: false,
  summary:
    '门禁通行记录：设备、人员、房屋、方式（人脸/刷卡/二维码/远程开门）、相似度、抓拍、结果、时间；按人员、设备、方式、结果、日期筛选，新的在前',
  async handler(ctx, input) {
    // a name fragment matches no index: it reads the range's rows, so it takes a range of at most a month
    if (input.keyword && (!input.start_date || !input.end_date || daysBetween(input.start_date, input.end_date) >= KEYWORD_MAX_DAYS)) {
      fail(`按人员查询时，请选择不超过 ${KEYWORD_MAX_DAYS} 天的日期范围`);
    }
    // a year of a community's passes is millions of rows: the total is counted up to PASS_COUNT_CAP
    const passes = passQuery(ctx.db, ctx.rid, input);
    let more = false;
    const page = await listPage(passes, { ...input, sort: input.sort }, 'p.id', async () => {
      const counted = await countUpTo(ctx.db, passes, PASS_COUNT_CAP);
      more = counted.more;
      return counted.total;
    });
    return { total: page.total, more, items: page.items.map(passItem) };
  },
});

const accesspassexport = defineExport('accesspassexport', {
  roles: ACCESS_ROLES.staff,
  summary: '导出门禁通行记录（同列表的筛选）',
  filename: () => `门禁通行记录_${today()}.xlsx`,
  check: (scope, input) => refuseOversizedExport(scope.db, passQuery(scope.db, scope.rid, input).select('p.id')),
  async sheet(scope, input) {
    const rows = (await passQuery(scope.db, scope.rid, input).orderBy('p.id', 'desc').limit(EXPORT_MAX).execute()).map(passItem);
    return sheetOf(
      '通行记录',
      [
        { header: '时间', value: (p) => p.rec_time, width: 20 },
        { header: '设备', value: (p) => p.device_title, width: 18 },
        { header: '人员', value: (p) => p.person_name },
        { header: '房屋', value: (p) => p.address, width: 24 },
        { header: '方式', value: (p) => p.method_ch },
        { header: '相似度', value: (p) => p.similarity },
        { header: '结果', value: (p) => p.result_ch },
      ],
      rows,
    );
  },
});

/** Whether `at` falls in one of the plans (weekdays and windows of the regions holding the device). */
export function withinPlans(plans: Array<{ weekdays: string; windows: unknown }>, at: Date, zoneOffsetMinutes = 480): boolean {
  if (plans.length === 0) return true;
  const local = new Date(at.getTime() + zoneOffsetMinutes * 60_000);
  const weekday = String(local.getUTCDay() === 0 ? 7 : local.getUTCDay());
  const hhmm = local.toISOString().slice(11, 16);
  return plans.some((p) => {
    if (!p.weekdays.includes(weekday)) return false;
    const windows = ((typeof p.windows === 'string' ? JSON.parse(p.windows) : p.windows) ?? []) as Array<{ start: string; end: string }>;
    return windows.length === 0 || windows.some((w) => w.start <= hhmm && hhmm < w.end);
  });
}

const accesssimpass = defineMethod('accesssimpass', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '模拟通行：在模拟人脸终端上刷脸或刷卡；设备人员库中有该人员、在有效期和通行时段内则开门，否则拒绝（陌生人脸拒绝），均记通行记录',
  async handler(ctx, input) {
    const d = await doorOf(ctx.db, ctx.rid, input.device_id);
    if (d.vendor !== 'simulator') fail('该设备不是模拟终端');
    const sim = await ctx.db
      .selectFrom('device_sims')
      .select('offline')
      .where('rid', '=', ctx.rid)
      .where('device_id', '=', input.device_id)
      .executeTakeFirst();
    if (sim?.offline === 'Y') fail('设备离线，无法模拟通行');
    const now = new Date();
    let result: 'open' | 'refused' = 'refused';
    let reason = '陌生人脸，未识别';
    let name = '';
    let memberId: number | null = null;
    let hid: number | null = null;
    let grantId: number | null = null;
    let similarity: number | null = input.mode === 'face' ? 41.5 : null;
    if (input.grant_id) {
      const g = await ctx.db
        .selectFrom('access_grants')
        .select(['id', 'person_name', 'member_id', 'hid', 'face_image', 'card_no'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.grant_id)
        .executeTakeFirst();
      if (!g) return fail('门禁授权不存在');
      name = g.person_name;
      memberId = g.member_id === null ? null : Number(g.member_id);
      hid = g.hid === null ? null : Number(g.hid);
      grantId = Number(g.id);
      const held = await ctx.db
        .selectFrom('device_sim_persons')
        .selectAll()
        .where('rid', '=', ctx.rid)
        .where('device_id', '=', input.device_id)
        .where('subject', '=', grantSubject(grantId))
        .executeTakeFirst();
      const cmd = held
        ? await ctx.db
            .selectFrom('device_commands')
            .select('payload')
            .where('rid', '=', ctx.rid)
            .where('device_id', '=', input.device_id)
            .where('subject', '=', grantSubject(grantId))
            .where('kind', '=', 'person_add')
            .where('state', '=', 'done')
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst()
        : undefined;
      const plans = (
        (cmd ? (typeof cmd.payload === 'string' ? JSON.parse(cmd.payload) : cmd.payload) : {}) as {
          plans?: Array<{ weekdays: string; windows: unknown }>;
        }
      ).plans;
      if (!held) reason = input.mode === 'face' ? '设备中无此人脸' : '设备中无此卡';
      else if (input.mode === 'card' && !held.card_no) reason = '该人员未登记卡号';
      else if (input.mode === 'face' && !held.face_image) reason = '该人员未登记人脸';
      else if ((held.valid_from && held.valid_from > now) || (held.valid_to && held.valid_to < now)) reason = '不在有效期内';
      else if (!withinPlans(plans ?? [], now)) reason = '不在通行时段内';
      else {
        result = 'open';
        reason = '';
        if (input.mode === 'face') similarity = 96.8;
      }
    }
    const passId = await recordPass(ctx.db, ctx.rid, {
      deviceId: input.device_id,
      method: input.mode,
      result,
      personName: name,
      memberId,
      hid,
      grantId,
      similarity,
    });
    return reply(
      { result, result_ch: enumText(PASS_RESULT, result), reason, pass_id: passId, person_name: name },
      result === 'open' ? `${name || '该人员'}通行，已开门` : `拒绝通行：${reason}`,
    );
  },
});

export const passModule = [accesspasslist, accesspassexport, accesssimpass];
