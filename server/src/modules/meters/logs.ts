/**
 * What the meters did (docs/product.md#smart-meters): hardware logs (every command and its answer),
 * day bills, bill logs, the owners' alerts, the settings, the report and the home page's card; the
 * simulator's controls; the jobs (arrears valves, read-and-bill, alerts sent).
 */
import {
  COMMAND_KIND,
  COMMAND_STATE,
  enumText,
  fenToYuan,
  METER_ALERT_KIND,
  METER_ALERT_SENT,
  METER_KIND,
  METER_COMMAND_KINDS,
  METER_LOG_KIND,
  METER_MODE,
  READING_SOURCE,
  toFen,
  VALVE_STATE,
  DEVICE_ONLINE_MS,
  type MeterDashboard,
  type MeterKind,
  type TierPart,
} from '@wuye/contract';
import { METER_ROLES } from '@wuye/contract/meters/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { loadConfig } from '../../config.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { likePattern } from '../../lib/like.js';
import { cappedTotal, listPage } from '../../lib/paging.js';
import { withinDays, wireTime } from '../../lib/wire.js';
import { smsProviderFor } from '../setup/smsProvider.js';
import { billReadMeters, closeArrears, METER_ALERT_JOB, meterOf } from './core.js';
import { milli, profileOf, runSimGateway, simOf, swapSimMeter } from './simulator.js';

/** Lists of a log that grows without end count their rows up to this (共 10000+ 条). */
const COUNT_CAP = 10_000;

const meterloglist = defineMethod('meterloglist', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '表计硬件日志：每条指令（抄表、开阀、关阀、充值下发）及其应答：请求、状态、应答或错误、尝试次数、耗时',
  async handler(ctx, input) {
    // the meters' commands by their kinds (a partial index, newest first); the gateway and the meter only for the page
    let qb = ctx.db
      .selectFrom('device_commands as t')
      .where('t.rid', '=', ctx.rid)
      .where('t.kind', 'in', [...METER_COMMAND_KINDS]);
    if (input.meter_no) {
      qb = qb.where('t.subject', 'in', (eb) =>
        eb
          .selectFrom('meters as mm')
          .select(sql<string>`'meter:' || mm.id`.as('s'))
          .where('mm.rid', '=', ctx.rid)
          .where('mm.meter_no', 'like', likePattern(input.meter_no)),
      );
    }
    if (input.gateway_id) qb = qb.where('t.device_id', '=', input.gateway_id);
    if (input.kind) qb = qb.where('t.kind', '=', input.kind);
    if (input.state) qb = qb.where('t.state', '=', input.state);
    const capped = cappedTotal(ctx.db, qb, COUNT_CAP);
    const page = await listPage(
      qb
        .innerJoin('devices as g', (j) => j.onRef('g.rid', '=', 't.rid').onRef('g.id', '=', 't.device_id'))
        .leftJoin('meters as m', (j) =>
          j.onRef('m.rid', '=', 't.rid').on(sql<boolean>`m.id = CASE WHEN t.subject LIKE 'meter:%' THEN substr(t.subject, 7)::bigint END`),
        )
        .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'm.rid').onRef('r.id', '=', 'm.hid'))
        .leftJoin('accounts as a', 'a.id', 't.created_by')
        .select([
          't.id',
          't.kind',
          't.state',
          't.payload',
          't.attempts',
          't.last_error',
          't.created_at',
          't.sent_at',
          't.acked_at',
          'm.id as meter_id',
          'g.title as gateway_title',
          sql<string>`coalesce(m.meter_no, '')`.as('meter_no'),
          sql<string>`coalesce(r.address, '')`.as('address'),
          sql<string>`coalesce(a.name, '系统')`.as('operator'),
        ]),
      { ...input, sort: 'desc' },
      't.id',
      capped.total,
    );
    return {
      total: page.total,
      more: capped.more(),
      items: page.items.map((r) => {
        const p = (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { amount?: string; reason?: string };
        const request =
          r.kind === 'meter_recharge'
            ? `充值 ${p.amount ?? ''} 元`
            : r.kind === 'valve_close'
              ? p.reason === 'arrears'
                ? '欠费关阀'
                : '关阀'
              : enumText(COMMAND_KIND, r.kind);
        return {
          id: Number(r.id),
          meter_id: r.meter_id === null ? null : Number(r.meter_id),
          meter_no: r.meter_no,
          address: r.address,
          gateway_title: r.gateway_title,
          kind: r.kind,
          kind_ch: enumText(COMMAND_KIND, r.kind),
          request,
          state: r.state,
          state_ch: enumText(COMMAND_STATE, r.state),
          answer: r.state === 'done' ? '成功' : r.last_error,
          attempts: r.attempts,
          create_time: wireTime(r.created_at),
          sent_at: wireTime(r.sent_at),
          acked_at: wireTime(r.acked_at),
          latency_ms: r.sent_at && r.acked_at ? new Date(r.acked_at).getTime() - new Date(r.sent_at).getTime() : null,
          operator: r.operator,
        };
      }),
    };
  },
});

const meterdaybilllist = defineMethod('meterdaybilllist', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '日账单：每块表每天一行：期初读数、期末读数、用量、单价（阶梯）、金额、日终余额、来源；合计用量与金额',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('meter_day_bills as t')
      .innerJoin('meters as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.meter_id'))
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'm.rid').onRef('r.id', '=', 'm.hid'))
      .where('t.rid', '=', ctx.rid);
    if (input.meter_no) qb = qb.where('m.meter_no', 'like', likePattern(input.meter_no));
    if (input.kind) qb = qb.where('m.kind', '=', input.kind);
    if (input.bid) qb = qb.where('r.bid', '=', input.bid);
    if (input.day) qb = qb.where('t.day', '>=', input.day[0]!).where('t.day', '<=', input.day[1]!);
    const capped = cappedTotal(ctx.db, qb, COUNT_CAP);
    const page = await listPage(
      qb.select([
        't.meter_id',
        'm.meter_no',
        'm.kind',
        sql<string>`to_char(t.day, 'YYYY-MM-DD')`.as('day'),
        't.opening',
        't.closing',
        't.usage',
        't.price',
        't.amount',
        't.balance_after',
        't.source',
        sql<string>`coalesce(r.address, '')`.as('address'),
      ]),
      { ...input, sort: 'desc' },
      't.day',
      capped.total,
    );
    // the sums of a list narrowed to at most COUNT_CAP rows (a whole community's ninety days are millions)
    const narrow = !capped.more() && page.total <= COUNT_CAP;
    const sums = narrow
      ? await qb
          .select([sql<string>`coalesce(sum(t.usage), 0)::text`.as('usage'), sql<string>`coalesce(sum(t.amount), 0)::text`.as('amount')])
          .executeTakeFirstOrThrow()
      : null;
    return {
      total: page.total,
      more: capped.more(),
      sums: sums ? { usage: Number(sums.usage).toFixed(2), amount: fenToYuan(toFen(sums.amount)) } : null,
      items: page.items.map((r) => ({
        meter_id: Number(r.meter_id),
        meter_no: r.meter_no,
        kind: r.kind as MeterKind,
        kind_ch: enumText(METER_KIND, r.kind),
        address: r.address,
        day: r.day,
        opening: r.opening,
        closing: r.closing,
        usage: r.usage,
        price: r.price,
        amount: r.amount,
        balance_after: r.balance_after,
        source: r.source,
        source_ch: enumText(READING_SOURCE, r.source),
      })),
    };
  },
});

const meterbillloglist = defineMethod('meterbillloglist', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '扣费与账单日志：预付费每次扣费、抄表计费每期出账、充值到账、退款：用量、金额、余额、阶梯明细与价格版本',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('meter_bill_logs as t')
      .innerJoin('meters as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.meter_id'))
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
      .where('t.rid', '=', ctx.rid);
    if (input.meter_no) qb = qb.where('m.meter_no', 'like', likePattern(input.meter_no));
    if (input.kind) qb = qb.where('t.kind', '=', input.kind);
    if (input.create_time) qb = qb.where(withinDays('t.created_at', input.create_time as [string, string]));
    const capped = cappedTotal(ctx.db, qb, COUNT_CAP);
    const page = await listPage(
      qb.select([
        't.id',
        't.meter_id',
        'm.meter_no',
        'm.kind as meter_kind',
        't.kind',
        't.usage',
        't.amount',
        't.balance_after',
        't.bill_id',
        't.breakdown',
        't.plan_version',
        't.created_at',
        sql<string>`coalesce(r.address, '')`.as('address'),
      ]),
      { ...input, sort: 'desc' },
      't.created_at',
      capped.total,
    );
    return {
      total: page.total,
      more: capped.more(),
      items: page.items.map((r) => ({
        id: Number(r.id),
        meter_id: Number(r.meter_id),
        meter_no: r.meter_no,
        kind_meter: r.meter_kind as MeterKind,
        kind_meter_ch: enumText(METER_KIND, r.meter_kind),
        address: r.address,
        kind: r.kind,
        kind_ch: enumText(METER_LOG_KIND, r.kind),
        usage: r.usage,
        amount: r.amount,
        balance_after: r.balance_after,
        bill_id: r.bill_id === null ? null : Number(r.bill_id),
        breakdown: (typeof r.breakdown === 'string' ? JSON.parse(r.breakdown) : r.breakdown) as TierPart[],
        plan_version: r.plan_version,
        create_time: wireTime(r.created_at),
      })),
    };
  },
});

const meteralertlist = defineMethod('meteralertlist', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '给业主的表计通知：余额预警、欠费关阀、充值开阀，发送手机号与状态',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('meter_alerts as t')
      .innerJoin('meters as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.meter_id'))
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
      .where('t.rid', '=', ctx.rid);
    if (input.kind) qb = qb.where('t.kind', '=', input.kind);
    const page = await listPage(
      qb.select([
        't.id',
        'm.meter_no',
        't.kind',
        't.mobile',
        't.content',
        't.balance',
        't.sent',
        't.error',
        't.created_at',
        sql<string>`coalesce(r.address, '')`.as('address'),
      ]),
      { ...input, sort: 'desc' },
      't.id',
    );
    return {
      total: page.total,
      items: page.items.map((r) => ({
        id: Number(r.id),
        meter_no: r.meter_no,
        address: r.address,
        kind: r.kind,
        kind_ch: enumText(METER_ALERT_KIND, r.kind),
        mobile: r.mobile,
        content: r.content,
        balance: r.balance,
        sent: r.sent as 'W' | 'Y' | 'F' | 'N',
        sent_ch: enumText(METER_ALERT_SENT, r.sent),
        error: r.error,
        create_time: wireTime(r.created_at),
      })),
    };
  },
});

async function settingsOf(db: Parameters<typeof closeArrears>[0], rid: number) {
  const s = await db.selectFrom('meter_settings').select(['close_from', 'close_to']).where('rid', '=', rid).executeTakeFirst();
  return { close_from: s?.close_from ?? 8, close_to: s?.close_to ?? 20 };
}

const metersettings = defineMethod('metersettings', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '表计设置：允许欠费关阀的时段（默认 8 点至 20 点，夜间不断供）',
  handler: async (ctx) => settingsOf(ctx.db, ctx.rid),
});

const metersettingsset = defineMethod('metersettingsset', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '设置允许欠费关阀的时段',
  async handler(ctx, input) {
    await ctx.db
      .insertInto('meter_settings')
      .values({ rid: ctx.rid, ...input, created_by: ctx.session.accountId })
      .onConflict((oc) => oc.column('rid').doUpdateSet(input))
      .execute();
    return reply(await settingsOf(ctx.db, ctx.rid), '保存成功');
  },
});

const meterreport = defineMethod('meterreport', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '用量与金额统计：按月、表类型、楼栋：表数、用量、金额（日账单）、充值到账金额',
  async handler(ctx, input) {
    if (input.from > input.to) fail('开始月份不能晚于结束月份');
    // the kept month totals (a reading adds to them); the meters are those of the kind and building now
    const kind = input.kind ? sql`AND t.kind = ${input.kind}` : sql``;
    const rows = await sql<{
      month: string;
      kind: string;
      bid: number;
      building: string | null;
      meters: number;
      usage: string;
      amount: string;
      recharged: string;
    }>`
      WITH n AS (
        SELECT m.kind, coalesce(m.bid, 0) AS bid, count(*)::int AS meters FROM meters m WHERE m.rid = ${ctx.rid} GROUP BY 1, 2)
      SELECT t.month, t.kind, t.bid, b.title AS building, coalesce(n.meters, 0) AS meters,
             t.usage::text AS usage, t.amount::text AS amount, t.recharged::text AS recharged
      FROM meter_month_totals t
      LEFT JOIN n ON n.kind = t.kind AND n.bid = t.bid
      LEFT JOIN buildings b ON b.rid = t.rid AND b.id = t.bid
      WHERE t.rid = ${ctx.rid} AND t.month >= ${input.from} AND t.month <= ${input.to} ${kind}
      ORDER BY t.month, t.kind, b.sort NULLS LAST, t.bid`.execute(ctx.db);
    const usage: Record<MeterKind, bigint> = { power: 0n, water: 0n, gas: 0n };
    let amount = 0n;
    let recharged = 0n;
    const items = rows.rows.map((r) => {
      usage[r.kind as MeterKind] += toFen(r.usage);
      amount += toFen(r.amount);
      recharged += toFen(r.recharged);
      return {
        month: r.month,
        kind: r.kind as MeterKind,
        kind_ch: enumText(METER_KIND, r.kind),
        bid: Number(r.bid),
        building: r.building ?? '未绑定房屋',
        meters: r.meters,
        usage: fenToYuan(toFen(r.usage)),
        amount: fenToYuan(toFen(r.amount)),
        recharged: fenToYuan(toFen(r.recharged)),
      };
    });
    return {
      items,
      totals: {
        usage: { power: fenToYuan(usage.power), water: fenToYuan(usage.water), gas: fenToYuan(usage.gas) },
        amount: fenToYuan(amount),
        recharged: fenToYuan(recharged),
      },
    };
  },
});

/**
 * The home page's meters card (and the first screen's): valves closed now, rooms below their alarm,
 * meters behind an offline gateway, and the charging piles without a heartbeat (family pile of the
 * one devices table, as the charging list counts them online).
 */
export async function meterDashboard(db: Kysely<DB>, rid: number): Promise<MeterDashboard> {
  const offline = (alias: string) =>
    sql<boolean>`(${sql.ref(`${alias}.last_heartbeat`)} IS NULL OR ${sql.ref(`${alias}.last_heartbeat`)} < now() - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval)`;
  const r = await sql<MeterDashboard>`
    SELECT m.meters, m.closed, m.low, m.offline_meters,
           (SELECT count(*)::int FROM devices d WHERE d.rid = ${rid} AND d.family = 'meter' AND d.enabled = 'Y' AND ${offline('d')}) AS offline_gateways,
           (SELECT count(*)::int FROM meter_recharges WHERE rid = ${rid} AND status = 'F') AS failed_recharges,
           p.piles, p.offline_piles
    FROM (SELECT count(*) FILTER (WHERE m.enabled = 'Y')::int AS meters,
                 count(*) FILTER (WHERE m.valve = 'closed')::int AS closed,
                 count(DISTINCT m.hid) FILTER (WHERE m.mode = 'prepaid' AND h.alarm_threshold > 0 AND m.balance <= h.alarm_threshold)::int AS low,
                 count(*) FILTER (WHERE m.enabled = 'Y' AND g.enabled = 'Y' AND ${offline('g')})::int AS offline_meters
          FROM meters m
          JOIN devices g ON g.rid = m.rid AND g.id = m.gateway_id
          LEFT JOIN meter_houses h ON h.rid = m.rid AND h.hid = m.hid
          WHERE m.rid = ${rid}) m,
         (SELECT count(*)::int AS piles, count(*) FILTER (WHERE ${offline('d')})::int AS offline_piles
          FROM devices d WHERE d.rid = ${rid} AND d.family = 'pile' AND d.enabled = 'Y') p`.execute(db);
  return r.rows[0]!;
}

const meterdashboard = defineMethod('meterdashboard', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '首页表计卡片：关阀中的表、低于预警的房屋、离线表计（采集器离线）、离线采集器、下发失败的充值、离线充电桩',
  handler: (ctx) => meterDashboard(ctx.db, ctx.rid),
});

const metersimrun = defineMethod('metersimrun', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '模拟器：让一个模拟采集器下的表按各自每小时用量运行 N 小时（模拟时钟），每小时上报一次读数；期间的关阀等指令随即应答',
  async handler(ctx, input) {
    const g = await ctx.db
      .selectFrom('devices')
      .select(['id', 'vendor'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.gateway_id)
      .where('family', '=', 'meter')
      .executeTakeFirst();
    if (!g) fail('采集器不存在');
    if (g.vendor !== 'simulator') fail('只有模拟采集器可以模拟运行');
    const r = await runSimGateway(ctx.db, ctx.rid, input.gateway_id, input.hours);
    if (r.meters === 0) fail('该采集器离线或其下没有启用的表');
    return reply(r, `已模拟运行 ${input.hours} 小时，上报 ${r.readings} 条读数`);
  },
});

/** The community's simulated meter gateway, or why not. */
async function simGateway(db: Kysely<DB>, rid: number, gatewayId: number) {
  const g = await db
    .selectFrom('devices')
    .select(['id', 'vendor'])
    .where('rid', '=', rid)
    .where('id', '=', gatewayId)
    .where('family', '=', 'meter')
    .executeTakeFirst();
  if (!g) fail('采集器不存在');
  if (g.vendor !== 'simulator') fail('只有模拟采集器的表可以模拟');
}

const metersimset = defineMethod('metersimset', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '模拟器：设置一块模拟表的用量：每小时用量，或 0–23 时每个小时的用量曲线（24 个值；不设曲线则全天按每小时用量）',
  async handler(ctx, input) {
    const m = await meterOf(ctx.db, ctx.rid, input.meter_id);
    await simGateway(ctx.db, ctx.rid, Number(m.gateway_id));
    await simOf(ctx.db, ctx.rid, input.meter_id);
    const profile = input.profile ? input.profile.map((v) => centiless(v)) : null;
    await ctx.db
      .updateTable('meter_sims')
      .set({ per_hour: input.per_hour, profile: profile === null ? null : JSON.stringify(profile) })
      .where('rid', '=', ctx.rid)
      .where('meter_id', '=', input.meter_id)
      .execute();
    return reply({ meter_id: input.meter_id, per_hour: centiless(input.per_hour), profile }, '保存成功');
  },
});

/** A usage as a plain decimal of up to 3 places ('0.500' → '0.5', '2' → '2'). */
function centiless(v: string): string {
  const [i = '0', f = ''] = v.trim().split('.');
  const frac = f.replace(/0+$/, '');
  return `${BigInt(i)}${frac ? `.${frac}` : ''}`;
}

const metersimlist = defineMethod('metersimlist', {
  side: 'community',
  roles: ['admin'],
  writes: false,
  summary: '模拟器：一个模拟采集器下的表：表号、房屋、模拟表的表底数、当前读数、余额、阀门、每小时用量与 24 小时用量曲线',
  async handler(ctx, input) {
    await simGateway(ctx.db, ctx.rid, input.gateway_id);
    const rows = await ctx.db
      .selectFrom('meters as m')
      .leftJoin('meter_sims as s', (j) => j.onRef('s.rid', '=', 'm.rid').onRef('s.meter_id', '=', 'm.id'))
      .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'm.rid').onRef('r.id', '=', 'm.hid'))
      .select([
        'm.id',
        'm.meter_no',
        'm.kind',
        'm.mode',
        'm.reading',
        'm.balance',
        'm.valve',
        's.profile',
        sql<string>`coalesce(s.register, m.reading)::text`.as('register'),
        sql<string>`coalesce(s.per_hour, 0.5)::text`.as('per_hour'),
        sql<string>`coalesce(r.address, '')`.as('address'),
      ])
      .where('m.rid', '=', ctx.rid)
      .where('m.gateway_id', '=', input.gateway_id)
      .where('m.enabled', '=', 'Y')
      .orderBy('m.meter_no')
      .orderBy('m.id')
      .limit(500)
      .execute();
    return {
      items: rows.map((r) => {
        const profile = profileOf(r.profile);
        const perHour = centiless(r.per_hour);
        const day = profile ? profile.reduce((n, v) => n + milli(v), 0n) : milli(perHour) * 24n;
        return {
          meter_id: Number(r.id),
          meter_no: r.meter_no,
          kind: r.kind as MeterKind,
          kind_ch: enumText(METER_KIND, r.kind),
          mode_ch: enumText(METER_MODE, r.mode),
          address: r.address,
          register: fenToYuan(toFen(r.register)),
          reading: r.reading,
          balance: r.mode === 'prepaid' ? r.balance : '',
          valve: r.valve as 'open' | 'closed' | 'fault',
          valve_ch: enumText(VALVE_STATE, r.valve),
          per_hour: perHour,
          profile,
          per_day: centiless(`${day / 1000n}.${String(day % 1000n).padStart(3, '0')}`),
        };
      }),
    };
  },
});

const metersimswap = defineMethod('metersimswap', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '模拟器：给一块模拟表换表：新表的表底数从给定读数（默认 0）起算，随即上报一条换表读数（不计用量）',
  async handler(ctx, input) {
    const m = await meterOf(ctx.db, ctx.rid, input.meter_id, true);
    await simGateway(ctx.db, ctx.rid, Number(m.gateway_id));
    if (m.enabled !== 'Y') fail('该表已停用');
    const r = await swapSimMeter(ctx.db, ctx.rid, input.meter_id, input.value);
    return reply({ meter_id: input.meter_id, ...r }, `已换表，新表读数 ${r.value}`);
  },
});

export const meterLogMethods = [
  meterloglist,
  meterdaybilllist,
  meterbillloglist,
  meteralertlist,
  metersettings,
  metersettingsset,
  meterreport,
  meterdashboard,
  metersimrun,
  metersimset,
  metersimlist,
  metersimswap,
];

/* ------------------------------------------------------------------------------ jobs */

export const METER_DUTY_KIND = 'meter_duty';

/** Every few minutes: valves to close for arrears within the hours allowed; read-mode bills due. */
registerJobKind(METER_DUTY_KIND, async ({ db }) => {
  const closed = await db.transaction().execute((trx) => closeArrears(trx));
  const billed = await db.transaction().execute((trx) => billReadMeters(trx));
  return { closed, billed };
});
registerPeriodicJob(METER_DUTY_KIND, 5);

/** Sends one alert to the owner's mobile through the community's SMS provider. */
registerJobKind(METER_ALERT_JOB, async ({ db, payload }) => {
  const id = Number(payload.alert_id);
  const alert = await db.selectFrom('meter_alerts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!alert || alert.sent !== 'W') return { sent: false };
  const { provider, signName } = await smsProviderFor(db, alert.rid, loadConfig(process.env).dataDir);
  const result = await provider.send({
    mobile: alert.mobile,
    signName,
    templateCode: 'METER_ALERT',
    params: { content: alert.content },
    content: alert.content,
    outId: `meter-alert-${alert.rid}-${alert.id}`,
  });
  await db
    .updateTable('meter_alerts')
    .set(result.ok ? { sent: 'Y', error: '' } : { sent: 'F', error: result.reason.slice(0, 200) })
    .where('rid', '=', alert.rid)
    .where('id', '=', alert.id)
    .execute();
  return { sent: result.ok };
});
