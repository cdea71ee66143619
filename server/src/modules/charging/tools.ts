/**
 * The simulator's controls on a simulated pile (chargersim), the reconciliation of ports against
 * sessions (chargereconlist) and the report per pile and day (chargereportlist, chargereportexport);
 * docs/product.md#charging-piles.
 */
import {
  CHARGE_PORT_STATE,
  CHARGE_RECON_KIND,
  CHARGING_ROLES,
  addDays,
  enumText,
  fenToYuan,
  toFen,
  type ChargeReconItem,
  type ChargeReportRow,
  type MethodOutput,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type HandlerInput } from '../../http/registry.js';
import { today, wireTime } from '../../lib/wire.js';
import { pileOf, portsOf } from './piles.js';
import { advancePiles, endPortSession, type PortSim } from './sim.js';

const chargersim = defineMethod('chargersim', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: true,
  summary: '模拟充电桩（仅厂家为模拟充电桩）：丢失/恢复结束帧、模拟拔枪、模拟故障、故障修复、快进 N 分钟（进行中的会话按功率曲线推进）',
  async handler(ctx, input) {
    const pile = await pileOf(ctx.db, ctx.rid, input.charger_id, true);
    if (pile.vendor !== 'simulator') fail('仅模拟充电桩可以模拟');
    const now = new Date();
    const portOf = async () => {
      if (!input.port_id) fail('请选择插座');
      const port = await ctx.db
        .selectFrom('charger_ports')
        .select(['id', 'state'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.port_id)
        .where('charger_id', '=', pile.id)
        .executeTakeFirst();
      return port ?? fail('插座不存在');
    };
    let msg = '已模拟';
    switch (input.action) {
      case 'lose_final':
      case 'keep_final':
        await ctx.db
          .updateTable('chargers')
          .set({ sim_lose_final: input.action === 'lose_final' ? 'Y' : 'N' })
          .where('rid', '=', ctx.rid)
          .where('id', '=', pile.id)
          .execute();
        msg = input.action === 'lose_final' ? '此桩之后结束的会话将丢失结束帧' : '已恢复发送结束帧';
        break;
      case 'unplug': {
        const port = await portOf();
        if (!(await endPortSession(ctx.db, ctx.rid, port.id, 'unplug', now))) fail('该插座没有进行中的充电');
        msg = '已模拟拔枪';
        break;
      }
      case 'fault': {
        const port = await portOf();
        await ctx.db.updateTable('charger_ports').set({ state: 'fault' }).where('rid', '=', ctx.rid).where('id', '=', port.id).execute();
        await endPortSession(ctx.db, ctx.rid, port.id, 'fault', now);
        msg = '插座已故障';
        break;
      }
      case 'repair': {
        const port = await portOf();
        if (port.state !== 'fault') fail('该插座没有故障');
        await ctx.db.updateTable('charger_ports').set({ state: 'free' }).where('rid', '=', ctx.rid).where('id', '=', port.id).execute();
        msg = '插座已恢复空闲';
        break;
      }
      case 'advance': {
        // fast-forward: the pile's running sessions are moved N minutes into the past, then run to now
        const ms = (input.minutes ?? 30) * 60_000;
        const ports = await ctx.db
          .selectFrom('charger_ports')
          .select(['id', 'sim'])
          .where('rid', '=', ctx.rid)
          .where('charger_id', '=', pile.id)
          .where('sim', 'is not', null)
          .forUpdate()
          .execute();
        for (const p of ports) {
          const sim = (typeof p.sim === 'string' ? JSON.parse(p.sim) : p.sim) as PortSim;
          sim.started_at -= ms;
          sim.last_at -= ms;
          sim.frames = sim.frames.map((f) => ({ ...f, at: f.at - ms }));
          await ctx.db
            .updateTable('charger_ports')
            .set({ sim: JSON.stringify(sim) })
            .where('rid', '=', ctx.rid)
            .where('id', '=', p.id)
            .execute();
          const back = sql<Date>`- ${`${ms / 1000} seconds`}::interval`;
          await ctx.db
            .updateTable('charge_frames')
            .set({ at: sql<Date>`at ${back}` })
            .where('rid', '=', ctx.rid)
            .where('order_id', '=', sim.order_id)
            .execute();
          await ctx.db
            .updateTable('charge_orders')
            .set({ start_at: sql<Date>`start_at ${back}`, last_frame_at: sql<Date>`last_frame_at ${back}` })
            .where('rid', '=', ctx.rid)
            .where('id', '=', sim.order_id)
            .execute();
        }
        const ended = await advancePiles(ctx.db, now, { rid: ctx.rid, chargerId: pile.id });
        msg = ports.length ? `已快进 ${input.minutes ?? 30} 分钟${ended ? `，${ended} 个会话已结束` : ''}` : '此桩没有进行中的充电';
        break;
      }
    }
    return reply({ ports: await portsOf(ctx.db, ctx.rid, pile.id) }, msg);
  },
});

const chargereconlist = defineMethod('chargereconlist', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary: '对账：桩上报充电中却没有进行中订单的插座，以及订单充电中而插座上报空闲的订单',
  async handler(ctx) {
    const orphan = await ctx.db
      .selectFrom('charger_ports as p')
      .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'p.rid').onRef('d.id', '=', 'p.charger_id'))
      .select(['p.id', 'p.no', 'p.state', 'p.charger_id', 'd.title'])
      .select(
        sql<Date | null>`(SELECT max(f.at) FROM charge_frames f JOIN charge_orders o ON o.rid = f.rid AND o.id = f.order_id
        WHERE o.rid = p.rid AND o.port_id = p.id)`.as('since'),
      )
      .where('p.rid', '=', ctx.rid)
      .where('p.state', 'in', ['charging', 'finishing'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('charge_orders as o')
              .select('o.id')
              .whereRef('o.rid', '=', 'p.rid')
              .whereRef('o.port_id', '=', 'p.id')
              .where('o.state', 'in', ['starting', 'charging', 'stopping']),
          ),
        ),
      )
      .execute();
    const idle = await ctx.db
      .selectFrom('charge_orders as o')
      .innerJoin('charger_ports as p', (j) => j.onRef('p.rid', '=', 'o.rid').onRef('p.id', '=', 'o.port_id'))
      .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'o.rid').onRef('d.id', '=', 'o.charger_id'))
      .select(['o.id as order_id', 'o.order_no', 'o.last_frame_at', 'o.start_at', 'p.id', 'p.no', 'p.state', 'p.charger_id', 'd.title'])
      .where('o.rid', '=', ctx.rid)
      .where('o.state', 'in', ['charging', 'stopping'])
      .where('p.state', '=', 'free')
      .execute();
    const items: ChargeReconItem[] = [
      ...orphan.map((r) => ({
        kind: 'orphan_port' as const,
        kind_ch: enumText(CHARGE_RECON_KIND, 'orphan_port'),
        charger_id: Number(r.charger_id),
        charger_title: r.title,
        port_id: Number(r.id),
        port_no: r.no,
        port_state: r.state as ChargeReconItem['port_state'],
        port_state_ch: enumText(CHARGE_PORT_STATE, r.state),
        order_id: null,
        order_no: '',
        since: wireTime(r.since),
      })),
      ...idle.map((r) => ({
        kind: 'idle_order' as const,
        kind_ch: enumText(CHARGE_RECON_KIND, 'idle_order'),
        charger_id: Number(r.charger_id),
        charger_title: r.title,
        port_id: Number(r.id),
        port_no: r.no,
        port_state: r.state as ChargeReconItem['port_state'],
        port_state_ch: enumText(CHARGE_PORT_STATE, r.state),
        order_id: Number(r.order_id),
        order_no: r.order_no,
        since: wireTime(r.last_frame_at ?? r.start_at),
      })),
    ];
    return { items };
  },
});

/** The report's days: this month by default, at most a year. */
function reportRange(input: { start_date?: string; end_date?: string }): { from: string; to: string } {
  const day = today();
  const from = input.start_date || `${day.slice(0, 8)}01`;
  const to = input.end_date || day;
  if (from > to) fail('开始日期不能晚于结束日期');
  if (addDays(from, 366) < to) fail('日期范围不能超过一年');
  return { from, to };
}

/**
 * The report's rows and totals: sessions, kWh and income per pile and end day (the list and its
 * export), from the sessions' kept day totals (202612052100): a year is 14,600 rows there against
 * 175,000 sessions at the scale data.
 */
async function reportOf(db: Kysely<DB>, rid: number, input: HandlerInput<'chargereportlist'>): Promise<MethodOutput<'chargereportlist'>> {
  const { from, to } = reportRange(input);
  let qb = db
    .selectFrom('charge_day_totals as o')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'o.rid').onRef('d.id', '=', 'o.charger_id'))
    .select([
      sql<string>`to_char(o.day, 'YYYY-MM-DD')`.as('day'),
      'o.charger_id',
      'd.title',
      sql<number>`sum(o.sessions)::int`.as('sessions'),
      sql<number>`sum(o.wh)::bigint`.as('wh'),
      sql<string>`sum(o.income)::numeric(14,2)::text`.as('income'),
    ])
    .where('o.rid', '=', rid)
    .where('o.day', '>=', from)
    .where('o.day', '<=', to)
    .groupBy(['o.day', 'o.charger_id', 'd.title'])
    // a day and pile whose sessions all went (a settlement checked back to none) is not a row
    .having(sql<boolean>`sum(o.sessions) <> 0 OR sum(o.wh) <> 0 OR sum(o.income) <> 0`)
    .orderBy('o.day', 'desc')
    .orderBy('o.charger_id');
  if (input.charger_id) qb = qb.where('o.charger_id', '=', input.charger_id);
  const rows = await qb.execute();
  let sessions = 0;
  let wh = 0;
  let income = 0n;
  const items = rows.map((r) => {
    sessions += r.sessions;
    wh += Number(r.wh);
    income += toFen(r.income);
    return {
      day: r.day,
      charger_id: Number(r.charger_id),
      charger_title: r.title,
      sessions: r.sessions,
      energy_kwh: (Number(r.wh) / 1000).toFixed(3),
      income: r.income,
    };
  });
  return { items, sessions, energy_kwh: (wh / 1000).toFixed(3), income: fenToYuan(income) };
}

const chargereportlist = defineMethod('chargereportlist', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary: '充电报表：按充电桩和结束日期的订单数、电量（kWh）与收入（元）；日期默认本月',
  handler: (ctx, input) => reportOf(ctx.db, ctx.rid, input),
});

const chargereportexport = defineExport('chargereportexport', {
  roles: CHARGING_ROLES.staff,
  summary: '按当前日期范围与充电桩导出充电报表（Excel）：日期、充电桩、订单数、电量（kWh）、收入（元），末行合计',
  filename: (input) => {
    const { from, to } = reportRange(input);
    return `充电报表_${from}_${to}.xlsx`;
  },
  // the dates are checked in the call, before anything is queued
  check: async (_scope, input) => void reportRange(input),
  async sheet({ db, rid }, input) {
    const report = await reportOf(db, rid, input);
    const total: ChargeReportRow = {
      day: '合计',
      charger_id: 0,
      charger_title: '',
      sessions: report.sessions,
      energy_kwh: report.energy_kwh,
      income: report.income,
    };
    return sheetOf<ChargeReportRow>(
      '充电报表',
      [
        { header: '日期', value: (r) => r.day, width: 12 },
        { header: '充电桩', value: (r) => r.charger_title, width: 20 },
        { header: '订单数', value: (r) => r.sessions, width: 10 },
        { header: '电量(kWh)', value: (r) => r.energy_kwh, width: 14 },
        { header: '收入(元)', value: (r) => r.income, width: 14 },
      ],
      [...report.items, total],
    );
  },
});

export const toolMethods = [chargersim, chargereconlist, chargereportlist, chargereportexport];
