import type { CategoryModule, Tone } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The demo's categories, by module, for every community. */
const DEMO_CATEGORIES: Array<{
  module: CategoryModule;
  title: string;
  icon: string;
  show_owner?: 'Y' | 'N';
  status?: 'Y' | 'N';
  remark?: string;
}> = [
  { module: 'notice', title: '物业公告', icon: 'notification' },
  { module: 'notice', title: '停水停电', icon: 'tool', remark: '计划停水、停电与检修通知' },
  { module: 'notice', title: '温馨提示', icon: 'message' },
  { module: 'notice', title: '内部通知', icon: 'book', show_owner: 'N', remark: '只发员工，不在业主端显示' },
  { module: 'activity', title: '亲子活动', icon: 'gift' },
  { module: 'activity', title: '节日庆典', icon: 'star' },
  { module: 'activity', title: '健康讲座', icon: 'calendar' },
  { module: 'graphic', title: '社区新闻', icon: 'picture' },
  { module: 'graphic', title: '生活小贴士', icon: 'home' },
  { module: 'repair', title: '水电维修', icon: 'tool' },
  { module: 'repair', title: '门窗维修', icon: 'home' },
  { module: 'repair', title: '公共设施', icon: 'tool', show_owner: 'N' },
  { module: 'complaint', title: '噪音扰民', icon: 'message' },
  { module: 'complaint', title: '环境卫生', icon: 'home' },
  { module: 'complaint', title: '停车秩序', icon: 'car', status: 'N', remark: '并入“环境卫生”后停用' },
];

/**
 * The setup area's demo: every community's business categories; each group's visitor reasons (the
 * causes the demo's visits name) and car brands (those of the demo's cars) as group items; the
 * first community's own owner tags.
 */
export async function seedDictAndCategories(db: Kysely<DB>): Promise<void> {
  const regions = await db.selectFrom('regions').select(['id', 'group_id']).orderBy('id').execute();
  for (const r of regions) {
    await db
      .insertInto('categories')
      .values(DEMO_CATEGORIES.map((c, i) => ({ rid: r.id, sort: i, show_owner: 'Y', status: 'Y', remark: '', ...c })))
      .execute();
  }
  const groups = await db.selectFrom('groups').select('id').orderBy('id').execute();
  for (const { id: groupId } of groups) {
    await sql`
      INSERT INTO dict_items (group_id, type, value, label, sort, tone)
      SELECT ${groupId}, 'visitor_reason', cause, cause, row_number() OVER (ORDER BY cause)::int,
             CASE WHEN cause IN ('装修施工', '维修上门') THEN 'warning' ELSE 'default' END
      FROM (SELECT DISTINCT v.visit_cause AS cause FROM visitors v JOIN regions g ON g.id = v.rid
            WHERE g.group_id = ${groupId} AND v.visit_cause <> '') c`.execute(db);
    await sql`
      INSERT INTO dict_items (group_id, type, value, label, sort)
      SELECT ${groupId}, 'car_brand', brand, brand, row_number() OVER (ORDER BY brand)::int
      FROM (SELECT DISTINCT c.brand FROM cars c JOIN regions g ON g.id = c.rid
            WHERE g.group_id = ${groupId} AND c.brand <> '') b`.execute(db);
  }
  const first = regions[0];
  if (first) {
    await db
      .insertInto('dict_items')
      .values(
        (
          [
            { value: 'elderly_alone', label: '独居老人', tone: 'warning', remark: '台风、停水时优先上门' },
            { value: 'party_member', label: '党员', tone: 'error' },
            { value: 'volunteer', label: '志愿者', tone: 'success' },
            { value: 'vip', label: '重点关注', tone: 'processing', status: 'N' },
          ] as Array<{ value: string; label: string; tone: Tone; remark?: string; status?: 'Y' | 'N' }>
        ).map((t, i) => ({ group_id: first.group_id, rid: first.id, type: 'owner_tag', sort: i, status: 'Y', remark: '', ...t })),
      )
      .execute();
  }
}
