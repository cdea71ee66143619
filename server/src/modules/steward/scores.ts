/**
 * Scores of the staff (管家评分; docs/product.md#steward-scores): households' scores entered on
 * their behalf (scoreadd, one per household × staff × item × month, a re-score replaces it), the
 * owners' ratings of repair and complaint tickets (recordServiceRating, called by those parts), and
 * the summary per profile for a year, a quarter or a month with its details and export.
 */
import {
  LOW_SCORE,
  periodLabel,
  periodMonths,
  scoreSchemas,
  STEWARD_POST,
  enumText,
  weightText,
  type ScoreDetailRow,
  type ScoreSummaryAnswer,
  type ScoreSummaryRow,
  type ServiceRatingSource,
  type StewardPost,
} from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { today, wireTime } from '../../lib/wire.js';
import { servedRoom } from './profiles.js';

const ROLES = STEWARD_ROLES.profiles;

/** 王*明, 李*: an owner's name as the rated staff's colleagues see it. */
export function maskName(name: string): string {
  const chars = [...name];
  if (chars.length <= 1) return name;
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

const scoreadd = defineMethod('scoreadd', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary:
    '录入住户评分（代住户录入，如电话回访）：一户对一位员工的各考核项目打 1–5 分，按月（YYYY-MM）；同一户、员工、项目、月份再评即覆盖原分',
  async handler(ctx, input) {
    const profile = await ctx.db
      .selectFrom('steward_profiles as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select(['p.id', 'p.account_id', 'p.status', 'a.name'])
      .where('p.rid', '=', ctx.rid)
      .where('p.id', '=', input.profile_id)
      .forShare('p')
      .executeTakeFirst();
    if (!profile) fail('管家档案不存在');
    if (profile.status !== 'Y') fail(`${profile.name}的档案已停用，不能评分`);
    if (input.period > today().slice(0, 7)) fail('不能为以后的月份评分');
    const room = await ctx.db
      .selectFrom('rooms as r')
      .select(['r.id', 'r.address'])
      .select(servedRoom(sql.lit(input.profile_id)).as('served'))
      .where('r.rid', '=', ctx.rid)
      .where('r.id', '=', input.hid)
      .executeTakeFirst();
    if (!room) fail('房屋不存在');
    if (!room.served) fail(`${room.address}不在${profile.name}的负责范围内`);
    const items = await ctx.db
      .selectFrom('steward_profile_items as x')
      .innerJoin('assessment_items as i', (j) => j.onRef('i.rid', '=', 'x.rid').onRef('i.id', '=', 'x.item_id'))
      .select(['x.item_id', 'i.name'])
      .where('x.rid', '=', ctx.rid)
      .where('x.profile_id', '=', input.profile_id)
      .execute();
    const applies = new Set(items.map((i) => Number(i.item_id)));
    if (input.scores.some((s) => !applies.has(s.item_id))) fail(`所选考核项目不在${profile.name}的档案中`);
    const rows = await ctx.db
      .insertInto('score_entries')
      .values(
        input.scores.map((s) => ({
          rid: ctx.rid,
          hid: input.hid,
          account_id: profile.account_id,
          item_id: s.item_id,
          period: input.period,
          score: s.score,
          content: input.content,
          created_by: ctx.session.accountId,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['rid', 'hid', 'account_id', 'item_id', 'period']).doUpdateSet((eb) => ({
          score: eb.ref('excluded.score'),
          content: eb.ref('excluded.content'),
          created_by: eb.ref('excluded.created_by'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .returning(sql<boolean>`(xmax <> 0)`.as('replaced'))
      .execute();
    const replaced = rows.filter((r) => r.replaced).length;
    const added = rows.length - replaced;
    return reply({ replaced, added }, replaced ? `评分已保存（${replaced}项覆盖了该户本月原有的评分）` : '评分已保存');
  },
});

/**
 * Records an owner's rating of a repair or complaint ticket for the staff member who handled it
 * (1–5; a re-rating of the same ticket replaces the first). The repair and complaint parts call it
 * inside their own transaction when the owner rates; scorelist shows the ratings as their own
 * columns and counts each rated ticket as a vote in the staff member's overall figure.
 */
export async function recordServiceRating(
  db: Kysely<DB>,
  r: { rid: number; staffId: number; source: ServiceRatingSource; sourceId: number; score: number; ratedAt: Date },
): Promise<void> {
  if (!Number.isInteger(r.score) || r.score < 1 || r.score > 5) fail('评分应为 1 到 5 的整数');
  if (r.source !== 'repair' && r.source !== 'complaint') fail('评价来源无效');
  const staff = await db
    .selectFrom('account_regions')
    .select('account_id')
    .where('rid', '=', r.rid)
    .where('account_id', '=', r.staffId)
    .executeTakeFirst();
  if (!staff) fail('被评价的员工不在当前小区');
  await db
    .insertInto('service_ratings')
    .values({ rid: r.rid, account_id: r.staffId, source: r.source, source_id: r.sourceId, score: r.score, rated_at: r.ratedAt })
    .onConflict((oc) =>
      oc.columns(['rid', 'source', 'source_id']).doUpdateSet((eb) => ({
        account_id: eb.ref('excluded.account_id'),
        score: eb.ref('excluded.score'),
        rated_at: eb.ref('excluded.rated_at'),
      })),
    )
    .execute();
}

type SummaryInput = z.output<(typeof scoreSchemas)['scorelist']>;

/**
 * A period's months (consecutive) as one range of periods: the same scores as `IN` (a period is
 * YYYY-MM, checked), read as one range of the index score_entries_recent (202611300501).
 */
const inMonths = (col: RawBuilder<unknown>, months: string[]) =>
  sql<boolean>`${col} BETWEEN ${months[0]!} AND ${months[months.length - 1]!}`;

const avgText = (sum: number, count: number) => (count ? (sum / count).toFixed(2) : '');

/** The summary of every profile (filtered) for the period: the figures of docs/product.md#steward-scores. */
export async function scoreSummary(db: Kysely<DB>, rid: number, f: SummaryInput): Promise<ScoreSummaryAnswer> {
  const months = periodMonths(f.period_type, f.period)!;
  const from = `${months[0]}-01`;
  const last = months[months.length - 1]!;
  const [ly, lm] = last.split('-').map(Number) as [number, number];
  const to = lm === 12 ? `${ly + 1}-01-01` : `${ly}-${String(lm + 1).padStart(2, '0')}-01`;

  let pq = db
    .selectFrom('steward_profiles as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 't.account_id', 'a.name', 't.photo', 't.post', 't.sort'])
    .select(
      sql<string>`coalesce((SELECT string_agg(b.title || coalesce(u.title, ''), '、' ORDER BY b.sort, b.id, u.sort NULLS FIRST, u.id)
        FROM steward_profile_areas x JOIN buildings b ON b.rid = x.rid AND b.id = x.bid
        LEFT JOIN units u ON u.rid = x.rid AND u.id = x.tid
        WHERE x.rid = t.rid AND x.profile_id = t.id), '')`.as('areas_text'),
    )
    .select(
      sql<number>`(SELECT count(*)::int FROM rooms r WHERE r.rid = t.rid AND ${servedRoom(sql.ref('t.id'), sql.ref('t.rid'))})`.as(
        'served',
      ),
    )
    .where('t.rid', '=', rid);
  if (f.post) pq = pq.where('t.post', '=', f.post);
  if (f.keyword) {
    const p = likePattern(f.keyword);
    pq = pq.where((eb) => eb.or([eb('a.name', 'ilike', p), eb('a.username', 'ilike', p)]));
  }
  const profiles = await pq.orderBy('t.sort').orderBy('t.id').execute();
  const accountIds = profiles.map((p) => p.account_id);
  const profileIds = profiles.map((p) => Number(p.id));
  if (!profiles.length)
    return {
      period_type: f.period_type,
      period: f.period,
      period_label: periodLabel(f.period_type, f.period),
      columns: [],
      items: [],
      total: 0,
    };

  const [weights, itemStats, households, ratings] = await Promise.all([
    db
      .selectFrom('steward_profile_items as x')
      .innerJoin('assessment_items as i', (j) => j.onRef('i.rid', '=', 'x.rid').onRef('i.id', '=', 'x.item_id'))
      .select(['x.profile_id', 'x.item_id', 'x.weight', 'i.name', 'i.sort'])
      .where('x.rid', '=', rid)
      .where('x.profile_id', 'in', profileIds)
      .orderBy('i.sort')
      .orderBy('i.id')
      .execute(),
    db
      .selectFrom('score_entries')
      .select(['account_id', 'item_id'])
      .select(sql<number>`sum(score)::int`.as('sum'))
      .select(sql<number>`count(*)::int`.as('count'))
      .select(sql<number>`(count(*) FILTER (WHERE score <= ${LOW_SCORE}))::int`.as('low'))
      .where('rid', '=', rid)
      .where(inMonths(sql.ref('period'), months))
      .where('account_id', 'in', accountIds)
      .groupBy(['account_id', 'item_id'])
      .execute(),
    // each staff member's households, made distinct by hashing rather than sorting the period's scores
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('score_entries')
          .select(['account_id', 'hid'])
          .distinct()
          .where('rid', '=', rid)
          .where(inMonths(sql.ref('period'), months))
          .where('account_id', 'in', accountIds)
          .as('s'),
      )
      .select('s.account_id')
      .select(sql<number>`count(*)::int`.as('households'))
      .groupBy('s.account_id')
      .execute(),
    db
      .selectFrom('service_ratings')
      .select(['account_id', 'source'])
      .select(sql<number>`sum(score)::int`.as('sum'))
      .select(sql<number>`count(*)::int`.as('count'))
      .where('rid', '=', rid)
      .where('account_id', 'in', accountIds)
      .where('rated_at', '>=', sql<Date>`${from}::date::timestamp AT TIME ZONE current_setting('TimeZone')`)
      .where('rated_at', '<', sql<Date>`${to}::date::timestamp AT TIME ZONE current_setting('TimeZone')`)
      .groupBy(['account_id', 'source'])
      .execute(),
  ]);

  const columnMap = new Map<number, { item_id: number; name: string; sort: number }>();
  for (const w of weights) columnMap.set(Number(w.item_id), { item_id: Number(w.item_id), name: w.name, sort: w.sort });
  const columns = [...columnMap.values()].map(({ item_id, name }) => ({ item_id, name }));

  const rows: ScoreSummaryRow[] = profiles.map((p) => {
    const pid = Number(p.id);
    let weighted = 0;
    let weightSeen = 0;
    let low = 0;
    const items = weights
      .filter((w) => Number(w.profile_id) === pid)
      .map((w) => {
        const s = itemStats.find((x) => x.account_id === p.account_id && Number(x.item_id) === Number(w.item_id));
        const count = s?.count ?? 0;
        if (s && count) {
          weighted += (s.sum / count) * w.weight;
          weightSeen += w.weight;
        }
        return { item_id: Number(w.item_id), name: w.name, weight: weightText(w.weight), avg: avgText(s?.sum ?? 0, count), count };
      });
    for (const s of itemStats) if (s.account_id === p.account_id) low += s.low;
    const weightedTotal = weightSeen ? weighted / weightSeen : null;
    const rated = households.find((h) => h.account_id === p.account_id)?.households ?? 0;
    const rating = (source: ServiceRatingSource) => ratings.find((r) => r.account_id === p.account_id && r.source === source);
    const repair = rating('repair');
    const complaint = rating('complaint');
    // one vote per household that scored the items, one per rated ticket
    const votes = (weightedTotal === null ? 0 : rated) + (repair?.count ?? 0) + (complaint?.count ?? 0);
    const points = (weightedTotal === null ? 0 : weightedTotal * rated) + (repair?.sum ?? 0) + (complaint?.sum ?? 0);
    return {
      rank: null,
      profile_id: pid,
      account_id: p.account_id,
      name: p.name,
      photo: p.photo,
      post: p.post as StewardPost,
      post_ch: enumText(STEWARD_POST, p.post),
      areas_text: p.areas_text,
      items,
      weighted_total: weightedTotal === null ? '' : weightedTotal.toFixed(2),
      rated_households: rated,
      served_households: p.served,
      coverage: p.served ? ((rated * 100) / p.served).toFixed(1) : '',
      low_count: low,
      repair_avg: avgText(repair?.sum ?? 0, repair?.count ?? 0),
      repair_count: repair?.count ?? 0,
      complaint_avg: avgText(complaint?.sum ?? 0, complaint?.count ?? 0),
      complaint_count: complaint?.count ?? 0,
      overall: votes ? (points / votes).toFixed(2) : '',
    };
  });
  // the best first; ties share a rank (1, 2, 2, 4); staff without any score last, unranked
  const ranked = rows.filter((r) => r.overall !== '').sort((a, b) => Number(b.overall) - Number(a.overall));
  ranked.forEach((r, i) => {
    r.rank = i > 0 && ranked[i - 1]!.overall === r.overall ? ranked[i - 1]!.rank : i + 1;
  });
  const items = [...ranked, ...rows.filter((r) => r.overall === '')];
  return {
    period_type: f.period_type,
    period: f.period,
    period_label: periodLabel(f.period_type, f.period),
    columns,
    items,
    total: items.length,
  };
}

const scorelist = defineMethod('scorelist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary:
    '评分统计：按年（YYYY）、季（YYYY-Q1..Q4）或月（YYYY-MM），每位员工的各考核项目平均分、加权总分、评分户数/服务户数、差评数（≤2分）、维修与投诉评价、综合得分与排名；可按岗位、姓名筛选',
  async handler(ctx, input) {
    return scoreSummary(ctx.db, ctx.rid, input);
  },
});

const scoreexport = defineExport('scoreexport', {
  roles: ROLES,
  summary: '导出评分统计（Excel：排名、员工、岗位、负责楼栋、各项目平均分、加权总分、评分/服务户数、差评数、维修与投诉评价、综合得分）',
  filename: (input) => `管家评分_${input.period}.xlsx`,
  async sheet(scope, input) {
    const s = await scoreSummary(scope.db, scope.rid, input);
    type R = ScoreSummaryRow;
    return sheetOf(
      `管家评分 ${s.period_label}`,
      [
        { header: '排名', value: (r: R) => r.rank ?? '', width: 6 },
        { header: '姓名', value: (r: R) => r.name, width: 10 },
        { header: '岗位', value: (r: R) => r.post_ch, width: 8 },
        { header: '负责楼栋/单元', value: (r: R) => r.areas_text, width: 24 },
        ...s.columns.map((c) => ({
          header: c.name,
          value: (r: R) => r.items.find((i) => i.item_id === c.item_id)?.avg ?? '',
          width: 10,
        })),
        { header: '加权总分', value: (r: R) => r.weighted_total, width: 10 },
        { header: '评分户数', value: (r: R) => r.rated_households, width: 9 },
        { header: '服务户数', value: (r: R) => r.served_households, width: 9 },
        { header: '覆盖率%', value: (r: R) => r.coverage, width: 9 },
        { header: '差评数', value: (r: R) => r.low_count, width: 8 },
        { header: '维修评价', value: (r: R) => r.repair_avg, width: 9 },
        { header: '维修评价数', value: (r: R) => r.repair_count, width: 10 },
        { header: '投诉评价', value: (r: R) => r.complaint_avg, width: 9 },
        { header: '投诉评价数', value: (r: R) => r.complaint_count, width: 10 },
        { header: '综合得分', value: (r: R) => r.overall, width: 10 },
      ],
      s.items,
    );
  },
});

const scoredetail = defineMethod('scoredetail', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary:
    '评分明细：周期内每条住户评分（房屋、业主（打码）、员工、考核项目、分数、评语、月份、录入人），可按档案、项目、楼栋、只看差评筛选，分页',
  async handler(ctx, input): Promise<{ items: ScoreDetailRow[]; total: number }> {
    const months = periodMonths(input.period_type, input.period)!;
    // the scores of staff with a profile here (the profile each row names), filtered on the scores
    // alone; the rooms only for a building
    let profiles = ctx.db.selectFrom('steward_profiles as sp').select('sp.account_id').where('sp.rid', '=', ctx.rid);
    if (input.profile_id) {
      const p = await ctx.db
        .selectFrom('steward_profiles')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.profile_id)
        .executeTakeFirst();
      if (!p) fail('管家档案不存在');
      profiles = profiles.where('sp.id', '=', input.profile_id);
    }
    let qb = ctx.db
      .selectFrom('score_entries as e')
      .where('e.rid', '=', ctx.rid)
      .where(inMonths(sql.ref('e.period'), months))
      .where('e.account_id', 'in', profiles);
    if (input.item_id) qb = qb.where('e.item_id', '=', input.item_id);
    if (input.bid) {
      const bid = input.bid;
      qb = qb.where('e.hid', 'in', (eb) =>
        eb.selectFrom('rooms as br').select('br.id').where('br.rid', '=', ctx.rid).where('br.bid', '=', bid),
      );
    }
    if (input.low_only) qb = qb.where('e.score', '<=', LOW_SCORE);
    // the page's ten scores walked off the index in page order, then their rooms, names and owner
    const page = qb
      .select(['e.rid', 'e.id', 'e.period', 'e.updated_at'])
      .orderBy('e.period', 'desc')
      .orderBy('e.updated_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(input.limit)
      .offset((input.page - 1) * input.limit);
    const [{ total }, rows] = await Promise.all([
      qb.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom(page.as('k'))
        .innerJoin('score_entries as e', (j) => j.onRef('e.rid', '=', 'k.rid').onRef('e.id', '=', 'k.id'))
        .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'e.rid').onRef('r.id', '=', 'e.hid'))
        .innerJoin('assessment_items as i', (j) => j.onRef('i.rid', '=', 'e.rid').onRef('i.id', '=', 'e.item_id'))
        .innerJoin('accounts as a', 'a.id', 'e.account_id')
        .innerJoin('steward_profiles as p', (j) => j.onRef('p.rid', '=', 'e.rid').onRef('p.account_id', '=', 'e.account_id'))
        .select(['e.id', 'e.hid', 'r.address', 'p.id as profile_id', 'a.name as staff_name', 'e.item_id', 'i.name as item_name'])
        .select(['e.score', 'e.content', 'e.period', 'e.updated_at'])
        .select(
          sql<string>`coalesce((SELECT m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
            WHERE rm.rid = e.rid AND rm.hid = e.hid AND rm.status = 'Y' AND rm.relation = 'owner' ORDER BY rm.id LIMIT 1), '')`.as(
            'owner_name',
          ),
        )
        .select(sql<string>`coalesce((SELECT c.name FROM accounts c WHERE c.id = e.created_by), '')`.as('entered_by'))
        .orderBy('k.period', 'desc')
        .orderBy('k.updated_at', 'desc')
        .orderBy('k.id', 'desc')
        .execute(),
    ]);
    return {
      total,
      items: rows.map((r) => ({
        id: Number(r.id),
        hid: Number(r.hid),
        address: r.address,
        owner_name: maskName(r.owner_name),
        profile_id: Number(r.profile_id),
        staff_name: r.staff_name,
        item_id: Number(r.item_id),
        item_name: r.item_name,
        score: r.score,
        content: r.content,
        period: r.period,
        entered_by: r.entered_by,
        update_time: wireTime(r.updated_at),
      })),
    };
  },
});

export const scoreMethodList = [scoreadd, scorelist, scoreexport, scoredetail];
