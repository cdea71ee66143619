/**
 * The equipment ledger and its maintenance (docs/product.md#equipment-ledger) of the scale data
 * (bench/README.md#scale-data), per community, set-based (INSERT ... SELECT over generate_series):
 *
 * - the built-in categories and two below each, ASSETS_PER_COMMUNITY assets over them (8 in 10 in
 *   use, the rest stopped, idle or scrapped; first use over the last ten years, a warranty of two to
 *   five years, a price, the community's first staff member responsible), each registration in the
 *   log and a state change for those not in use;
 * - three standards, and PLANS_PER_COMMUNITY weekly plans of PLAN_ASSETS in-use assets each, with a
 *   year of tasks up to today: done (one in fifty with a failed check) up to a week ago, the last week
 *   pending, one in ten of the older ones left overdue.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const ASSET_STEPS = 2;
export const ASSETS_PER_COMMUNITY = 5000;
export const PLANS_PER_COMMUNITY = 40;
export const PLAN_ASSETS = 25;
const TODAY = sql`(now() AT TIME ZONE 'Asia/Shanghai')::date`;

export async function fillAssets(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`assets: categories, ${ASSETS_PER_COMMUNITY} assets a community, their log`, async () => {
    for (const rid of rids) await ledger(c, rid);
    await sql`ANALYZE asset_categories, assets, asset_logs`.execute(c);
  });
  await step(`assets: standards, ${PLANS_PER_COMMUNITY} weekly plans, a year of tasks`, async () => {
    for (const rid of rids) await maintenance(c, rid);
    await sql`ANALYZE maintain_standards, maintain_plans, maintain_tasks`.execute(c);
  });
}

async function ledger(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO asset_categories (rid, code, name, importance, unit, sort)
    SELECT ${rid}, v.code, v.name, v.imp, v.unit, v.ord FROM (VALUES
      ('ACCESS', '门禁设备', 'A', '台', 1), ('GATE', '道闸', 'A', '套', 2), ('METER', '智能电表', 'B', '个', 3),
      ('PILE', '充电桩', 'B', '台', 4), ('ELEVATOR', '电梯', 'A', '部', 5), ('FIRE', '消防', 'A', '套', 6),
      ('WATER', '给排水', 'B', '套', 7), ('CCTV', '监控', 'B', '台', 8), ('POWER', '配电', 'A', '台', 9)
    ) v(code, name, imp, unit, ord)
    ON CONFLICT (rid, code) DO NOTHING`.execute(c);
  await sql`
    INSERT INTO asset_categories (rid, parent_id, code, name, importance, unit, sort)
    SELECT p.rid, p.id, p.code || '-' || g, p.name || '（' || g || '类）', p.importance, p.unit, g
    FROM asset_categories p CROSS JOIN generate_series(1, 2) g
    WHERE p.rid = ${rid} AND p.parent_id IS NULL`.execute(c);
  await sql`
    WITH cates AS (SELECT array_agg(id ORDER BY id) ids FROM asset_categories WHERE rid = ${rid}),
    who AS (SELECT min(a.id) id FROM accounts a JOIN account_regions ar ON ar.account_id = a.id WHERE ar.rid = ${rid})
    INSERT INTO assets (rid, category_id, name, code, brand, model, location, first_use, warranty_end, service_years,
      importance, state, price, staff_ids, created_at)
    SELECT ${rid}, cates.ids[1 + g % cardinality(cates.ids)], '设备' || g, 'S' || ${rid} || '-' || lpad(g::text, 6, '0'),
      (ARRAY['奥的斯', '海康威视', '格兰富', '正泰', '模拟器'])[1 + g % 5], 'M-' || (g % 40), (1 + g % 60) || '号楼 ' || (1 + g % 4) || '层',
      ${TODAY} - (g % 3650), ${TODAY} - (g % 3650) + (730 + g % 1096), 5 + g % 11,
      (ARRAY['A', 'B', 'C'])[1 + g % 3],
      CASE WHEN g % 20 = 0 THEN 'X' WHEN g % 20 IN (1, 2) THEN 'S' WHEN g % 20 IN (3, 4) THEN 'I' ELSE 'U' END,
      (100 + (g * 7919) % 200000)::numeric / 1, ARRAY[who.id]::bigint[], now() - make_interval(days => g % 3650)
    FROM generate_series(1, ${ASSETS_PER_COMMUNITY}) g CROSS JOIN cates CROSS JOIN who`.execute(c);
  await sql`
    INSERT INTO asset_logs (rid, asset_id, action, to_state, to_location, operator, created_at)
    SELECT rid, id, 'add', 'U', location, '管理员', created_at FROM assets WHERE rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO asset_logs (rid, asset_id, action, from_state, to_state, remark, operator, created_at)
    SELECT rid, id, 'state', 'U', state, '状态调整', '管理员', now() - interval '20 days' FROM assets WHERE rid = ${rid} AND state <> 'U'`.execute(
    c,
  );
}

async function maintenance(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO maintain_standards (rid, name, items)
    VALUES (${rid}, '电梯例行保养', ARRAY['曳引机运行无异响', '门机开关门顺畅', '轿厢照明与通风正常', '紧急呼叫对讲畅通']),
      (${rid}, '消防设施巡检', ARRAY['压力表指针在绿区', '箱体与标识完好', '水带枪头齐全']),
      (${rid}, '设备通用点检', ARRAY['外观完好', '运行正常', '无异常声响'])`.execute(c);
  // each plan: PLAN_ASSETS in-use assets in a row, its standard in turn, one weekday, started a year ago
  await sql`
    WITH used AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM assets WHERE rid = ${rid} AND state = 'U'),
    std AS (SELECT array_agg(id ORDER BY id) ids FROM maintain_standards WHERE rid = ${rid}),
    who AS (SELECT min(a.id) id FROM accounts a JOIN account_regions ar ON ar.account_id = a.id WHERE ar.rid = ${rid})
    INSERT INTO maintain_plans (rid, name, standard_id, asset_ids, staff_ids, cycle, cycle_days, start_date, generated_until)
    SELECT ${rid}, '维保计划' || p, std.ids[1 + p % 3],
      (SELECT array_agg(id ORDER BY id) FROM used WHERE used.n / ${PLAN_ASSETS} = p - 1),
      ARRAY[who.id]::bigint[], 'W', ARRAY[1 + p % 7], ${TODAY} - 365, ${TODAY}
    FROM generate_series(1, ${PLANS_PER_COMMUNITY}) p CROSS JOIN std CROSS JOIN who`.execute(c);
  await sql`
    INSERT INTO maintain_tasks (rid, plan_id, asset_id, due_on, staff_ids, status, items, notes, done_at, done_by, done_name, overdue_noted)
    SELECT p.rid, p.id, a.id, d::date, p.staff_ids,
      CASE WHEN d::date >= ${TODAY} - 7 OR (a.id + p.id) % 10 = 0 THEN 'P' WHEN (a.id + extract(doy FROM d)::int) % 50 = 0 THEN 'F' ELSE 'Y' END,
      (SELECT jsonb_agg(jsonb_build_object('title', t, 'passed',
          CASE WHEN d::date >= ${TODAY} - 7 OR (a.id + p.id) % 10 = 0 THEN NULL
               WHEN (a.id + extract(doy FROM d)::int) % 50 = 0 AND o = 1 THEN false ELSE true END, 'note', '') ORDER BY o)
        FROM unnest(s.items) WITH ORDINALITY AS i(t, o)),
      '', CASE WHEN d::date >= ${TODAY} - 7 OR (a.id + p.id) % 10 = 0 THEN NULL ELSE d + interval '10 hours' END,
      CASE WHEN d::date >= ${TODAY} - 7 OR (a.id + p.id) % 10 = 0 THEN NULL ELSE p.staff_ids[1] END,
      CASE WHEN d::date >= ${TODAY} - 7 OR (a.id + p.id) % 10 = 0 THEN '' ELSE '管理员' END,
      d::date < ${TODAY}
    FROM maintain_plans p
    JOIN maintain_standards s ON s.rid = p.rid AND s.id = p.standard_id
    CROSS JOIN LATERAL unnest(p.asset_ids) AS a(id)
    CROSS JOIN LATERAL generate_series(p.start_date::timestamp, ${TODAY}::timestamp, interval '1 day') d
    WHERE p.rid = ${rid} AND extract(isodow FROM d)::int = p.cycle_days[1]`.execute(c);
}
