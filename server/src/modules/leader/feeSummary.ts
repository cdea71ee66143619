/**
 * 集团收费汇总 (/leader/feecount, docs/product.md#group-fee-summary): one row per community of the
 * group with the figures of its own 物业费收缴统计 (propertypaycount, fees/panels.ts) over the same
 * range of periods, so a row and the community's report agree to the fen.
 *
 * Set-based: each figure is one statement over the whole group, grouped by community, and the money
 * is read from the same kept totals as propertypaycount (ADR 0004): the bills per unit, period and
 * status (fee_unit_totals) and the receipt lines per unit, receipt month and period
 * (fee_line_totals). The households (rooms with property bills of the range, and those still
 * owing) are read from each room's kept months (fee_room_months): a room counts once however many
 * of the range's months it is billed or owes.
 */
import {
  addMonths,
  fenToYuan,
  GROUP_LEADERS,
  mulDivRoundHalfUp,
  toFen,
  type GroupFeeFigures,
  type GroupFeeRankBy,
  type GroupFeeRow,
  type GroupFeeTrendRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { xlsxFile } from '../../lib/excel.js';
import { propertyPayCount } from '../fees/panels.js';
import { rate } from '../fees/reports.js';
import { groupRegion } from '../structure/groupRegion.js';

interface Range {
  start_period: string;
  end_period: string;
}

const MONEY = ['arrears_before', 'recovered', 'receivable', 'received_current', 'prepaid', 'received'] as const;
type MoneyKey = (typeof MONEY)[number];

const fen = (x: ReturnType<typeof sql>) => sql<string>`coalesce(${x}, 0)::numeric(14,2)::text`;

/** The communities of the group: a sub-select every statement is scoped by. */
const groupRids = (groupId: number) => sql`(SELECT r.id FROM regions r WHERE r.group_id = ${groupId})`;

/** part / whole as a percent with two decimals, half up, in integers ('0.00' when whole is 0). */
function countRate(part: number, whole: number): string {
  if (whole === 0) return '0.00';
  return fenToYuan(mulDivRoundHalfUp(BigInt(part), 10_000n, BigInt(whole)));
}

function figuresOf(money: Record<MoneyKey, bigint>, households: number, owing: number): GroupFeeFigures {
  const m = Object.fromEntries(MONEY.map((k) => [k, fenToYuan(money[k])])) as Record<MoneyKey, string>;
  const paying = households - owing;
  return {
    households,
    paying_households: paying,
    owing_households: owing,
    ...m,
    household_rate: countRate(paying, households),
    rate: rate(m.received_current, m.receivable),
    clear_rate: rate(m.recovered, m.arrears_before),
  };
}

const zeroMoney = (): Record<MoneyKey, bigint> => Object.fromEntries(MONEY.map((k) => [k, 0n])) as Record<MoneyKey, bigint>;

/** Each year of start..end (YYYY-MM) with its months in the range as fee_room_months' bits (bit m-1 for month m). */
export function yearMasks(start: string, end: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const [sy, sm] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
  const [ey, em] = [Number(end.slice(0, 4)), Number(end.slice(5, 7))];
  for (let y = sy; y <= ey; y++) {
    const from = y === sy ? sm : 1;
    const to = y === ey ? em : 12;
    // months from..to: bits from-1..to-1
    out.push([y, ((1 << to) - 1) & ~((1 << (from - 1)) - 1)]);
  }
  return out;
}

/** Per community: its rooms with property bills in the years' months, and those owing any of them. */
function householdCounts(db: Kysely<DB>, rids: ReturnType<typeof sql>, years: Array<[number, number]>) {
  type Row = { rid: number; households: number; owing: number };
  if (years.length === 1) {
    const [year, months] = years[0]!;
    return sql<Row>`
      SELECT k.rid, count(*)::int AS households, count(*) FILTER (WHERE k.unpaid & ${months}::int <> 0)::int AS owing
      FROM fee_room_months k
      WHERE k.rid IN ${rids} AND k.year = ${year}::int AND k.billed & ${months}::int <> 0
      GROUP BY k.rid`.execute(db);
  }
  return sql<Row>`
    SELECT h.rid, count(*)::int AS households, count(*) FILTER (WHERE h.owing)::int AS owing
    FROM (SELECT k.rid, k.hid, bool_or(k.unpaid & y.months <> 0) AS owing
          FROM fee_room_months k JOIN (VALUES ${sql.join(years.map(([year, months]) => sql`(${year}::int, ${months}::int)`))}) y(year, months)
            ON k.year = y.year AND k.billed & y.months <> 0
          WHERE k.rid IN ${rids}
          GROUP BY k.rid, k.hid) h
    GROUP BY h.rid`.execute(db);
}

/**
 * Every community of the group for start..end, as propertypaycount computes its totals: the
 * arrears at the range's first day (bills of earlier periods unpaid now, or paid since that day),
 * the bills of the range, and the receipt lines of the range split by their bill's period.
 */
export async function groupFeeSummary(db: Kysely<DB>, groupId: number, f: Range & { rank_by: GroupFeeRankBy }) {
  const s = f.start_period;
  const e = f.end_period;
  const from = `${s}-01`;
  const to = addMonths(`${e}-01`, 1);
  const rids = groupRids(groupId);
  const [regions, bills, lines, rooms] = await Promise.all([
    db.selectFrom('regions').select(['id', 'title']).where('group_id', '=', groupId).orderBy('id').execute(),
    sql<{ rid: number; receivable: string; unpaid: string }>`
      SELECT t.rid,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period >= ${s})`)} AS receivable,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period < ${s} AND t.status <> 'Y')`)} AS unpaid
      FROM fee_unit_totals t
      WHERE t.rid IN ${rids} AND t.cost_type = 'property' AND t.period <= ${e}
      GROUP BY t.rid`.execute(db),
    sql<{ rid: number; received: string; received_current: string; recovered: string; prepaid: string; paid_since: string }>`
      SELECT t.rid,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date)`)} AS received,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date AND t.period BETWEEN ${s} AND ${e})`)} AS received_current,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date AND t.period < ${s})`)} AS recovered,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.month < ${to}::date AND t.period > ${e})`)} AS prepaid,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period < ${s})`)} AS paid_since
      FROM fee_line_totals t
      WHERE t.rid IN ${rids} AND t.cost_type = 'property' AND t.month >= ${from}::date
      GROUP BY t.rid`.execute(db),
    // a room of the range's property bills owes while any of them is unpaid: its kept months
    // (fee_room_months, one row a room and year) tested against the range's months of each year;
    // within one year a room is one row, so the rows are counted as they are
    householdCounts(db, rids, yearMasks(s, e)),
  ]);
  const money = new Map<number, Record<MoneyKey, bigint>>();
  const of = (rid: number | string) => {
    const k = Number(rid);
    let m = money.get(k);
    if (!m) money.set(k, (m = zeroMoney()));
    return m;
  };
  for (const r of bills.rows) {
    const m = of(r.rid);
    m.receivable += toFen(r.receivable);
    m.arrears_before += toFen(r.unpaid);
  }
  for (const r of lines.rows) {
    const m = of(r.rid);
    m.received += toFen(r.received);
    m.received_current += toFen(r.received_current);
    m.recovered += toFen(r.recovered);
    m.prepaid += toFen(r.prepaid);
    m.arrears_before += toFen(r.paid_since);
  }
  const counts = new Map(rooms.rows.map((r) => [Number(r.rid), r]));
  const total = zeroMoney();
  let households = 0;
  let owing = 0;
  const rows = regions.map((region) => {
    const m = money.get(region.id) ?? zeroMoney();
    const c = counts.get(region.id) ?? { households: 0, owing: 0 };
    for (const k of MONEY) total[k] += m[k];
    households += c.households;
    owing += c.owing;
    return { rid: region.id, title: region.title, ...figuresOf(m, c.households, c.owing) };
  });
  const key = (r: GroupFeeFigures) => toFen(r[f.rank_by]);
  rows.sort((a, b) => {
    const d = key(b) - key(a);
    return d > 0n ? 1 : d < 0n ? -1 : a.rid - b.rid;
  });
  // equal figures share a rank (1, 1, 3)
  const items: GroupFeeRow[] = [];
  rows.forEach((r, i) => {
    const prev = items[i - 1];
    items.push({ ...r, rank: prev && key(prev) === key(r) ? prev.rank : i + 1 });
  });
  return { start_period: s, end_period: e, rank_by: f.rank_by, items, totals: figuresOf(total, households, owing) };
}

/** A community of the caller's group (its title), or 小区不存在. */
/** Each month of start..end: the month's property bills, what was taken for them in the month, and all taken in the month. */
export async function groupFeeTrend(db: Kysely<DB>, groupId: number, f: Range & { rid?: number | undefined }) {
  const region = f.rid ? await groupRegion(db, groupId, f.rid) : { id: 0, title: '全集团' };
  const scope = f.rid ? sql`(${f.rid}::int)` : groupRids(groupId);
  const from = `${f.start_period}-01`;
  const to = addMonths(`${f.end_period}-01`, 1);
  const [bills, lines] = await Promise.all([
    sql<{ month: string; receivable: string }>`
      SELECT t.period AS month, ${fen(sql`sum(t.fee)`)} AS receivable
      FROM fee_unit_totals t
      WHERE t.rid IN ${scope} AND t.cost_type = 'property' AND t.period BETWEEN ${f.start_period} AND ${f.end_period}
      GROUP BY t.period`.execute(db),
    sql<{ month: string; received: string; received_current: string }>`
      SELECT to_char(t.month, 'YYYY-MM') AS month, ${fen(sql`sum(t.fee)`)} AS received,
        ${fen(sql`sum(t.fee) FILTER (WHERE t.period = to_char(t.month, 'YYYY-MM'))`)} AS received_current
      FROM fee_line_totals t
      WHERE t.rid IN ${scope} AND t.cost_type = 'property' AND t.month >= ${from}::date AND t.month < ${to}::date
      GROUP BY t.month`.execute(db),
  ]);
  const b = new Map(bills.rows.map((r) => [r.month, r]));
  const l = new Map(lines.rows.map((r) => [r.month, r]));
  const items: GroupFeeTrendRow[] = [];
  for (let m = f.start_period; m <= f.end_period; m = addMonths(`${m}-01`, 1).slice(0, 7)) {
    const receivable = b.get(m)?.receivable ?? '0.00';
    const receivedCurrent = l.get(m)?.received_current ?? '0.00';
    items.push({
      month: m,
      receivable,
      received_current: receivedCurrent,
      received: l.get(m)?.received ?? '0.00',
      rate: rate(receivedCurrent, receivable),
    });
  }
  return { rid: region.id, title: region.title, items };
}

const leaderfeesummary = defineMethod('leaderfeesummary', {
  side: 'group',
  roles: GROUP_LEADERS,
  writes: false,
  summary:
    '集团收费汇总：账期区间内每个小区的收费户、缴费户、欠费户、历史欠费、欠费追回、当期应收与实收、预交，户收费率、收费率、清缴率（物业费，与各小区物业费收缴统计一致），集团合计与排名',
  handler: (ctx, input) => groupFeeSummary(ctx.db, ctx.session.groupId, input),
});

const pct = (v: string) => `${v}%`;

const leaderfeesummaryexport = defineMethod('leaderfeesummaryexport', {
  side: 'group',
  roles: GROUP_LEADERS,
  writes: false,
  summary: '导出集团收费汇总（Excel，含集团合计行），在本次调用中返回文件',
  async handler(ctx, input) {
    const r = await groupFeeSummary(ctx.db, ctx.session.groupId, input);
    type Line = GroupFeeFigures & { rank: number | ''; title: string };
    const rows: Line[] = [...r.items, { ...r.totals, rank: '', title: '集团合计' }];
    return xlsxFile(
      `集团收费汇总_${r.start_period}_${r.end_period}.xlsx`,
      '集团收费汇总',
      [
        { header: '排名', value: (x: Line) => x.rank, width: 8 },
        { header: '小区', value: (x: Line) => x.title, width: 20 },
        { header: '收费户', value: (x: Line) => x.households },
        { header: '缴费户', value: (x: Line) => x.paying_households },
        { header: '欠费户', value: (x: Line) => x.owing_households },
        { header: '历史欠费(元)', value: (x: Line) => x.arrears_before },
        { header: '欠费追回(元)', value: (x: Line) => x.recovered },
        { header: '当期应收(元)', value: (x: Line) => x.receivable },
        { header: '当期实收(元)', value: (x: Line) => x.received_current },
        { header: '预交(元)', value: (x: Line) => x.prepaid },
        { header: '实收合计(元)', value: (x: Line) => x.received },
        { header: '户收费率', value: (x: Line) => pct(x.household_rate) },
        { header: '收费率', value: (x: Line) => pct(x.rate) },
        { header: '清缴率', value: (x: Line) => pct(x.clear_rate) },
      ],
      rows,
    );
  },
});

const leaderfeetrend = defineMethod('leaderfeetrend', {
  side: 'group',
  roles: GROUP_LEADERS,
  writes: false,
  summary: '集团收费月度趋势：一个小区（不传 rid 为全集团）账期区间内各月的物业费应收、当期实收、当月收款与收费率',
  handler: (ctx, input) => groupFeeTrend(ctx.db, ctx.session.groupId, input),
});

const leaderfeedetail = defineMethod('leaderfeedetail', {
  side: 'group',
  roles: GROUP_LEADERS,
  writes: false,
  summary: '集团收费汇总下钻：一个小区账期区间内的物业费收缴统计（各楼栋、单元），与该小区物业费收缴统计相同',
  async handler(ctx, input) {
    const region = await groupRegion(ctx.db, ctx.session.groupId, input.rid);
    const r = await propertyPayCount(ctx.db, region.id, input);
    return { rid: region.id, title: region.title, ...r };
  },
});

export const feeSummaryMethods = [leaderfeesummary, leaderfeesummaryexport, leaderfeetrend, leaderfeedetail];
