import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The demo company's org chart: the company at the top, its departments, one sub-group. */
const DEPARTMENTS: Array<{ title: string; parent?: string; leader_name?: string; phone?: string }> = [
  { title: '阳光物业服务有限公司', leader_name: '王总', phone: '021-58881234' },
  { title: '客服部', parent: '阳光物业服务有限公司', leader_name: '钱管家', phone: '021-58881235' },
  { title: '工程部', parent: '阳光物业服务有限公司', leader_name: '陈工', phone: '021-58881236' },
  { title: '维修组', parent: '工程部' },
  { title: '秩序部', parent: '阳光物业服务有限公司', phone: '021-58881237' },
  { title: '财务部', parent: '阳光物业服务有限公司', leader_name: '郑会计', phone: '021-58881238' },
  { title: '环境部', parent: '阳光物业服务有限公司' },
];

const POSITIONS: Array<{ code: string; title: string }> = [
  { code: 'PM', title: '项目经理' },
  { code: 'STEWARD', title: '客服管家' },
  { code: 'CASHIER', title: '收银员' },
  { code: 'ACCOUNTANT', title: '会计' },
  { code: 'TECH', title: '维修工' },
  { code: 'GUARD', title: '保安' },
  { code: 'CLEANER', title: '保洁' },
];

/** Where the demo accounts work (the merchant is not the company's staff). */
const PLACES: Record<string, { dept: string; position?: string }> = {
  leader: { dept: '阳光物业服务有限公司' },
  admin: { dept: '阳光物业服务有限公司', position: '项目经理' },
  admin2: { dept: '阳光物业服务有限公司', position: '项目经理' },
  steward: { dept: '客服部', position: '客服管家' },
  cashier: { dept: '财务部', position: '收银员' },
  cashier2: { dept: '财务部', position: '收银员' },
  expired: { dept: '财务部', position: '收银员' },
  expired2: { dept: '财务部', position: '收银员' },
  finance: { dept: '财务部', position: '会计' },
  tech: { dept: '维修组', position: '维修工' },
  guard: { dept: '秩序部', position: '保安' },
  access: { dept: '秩序部' },
};

/** The demo company's org chart: the first group's departments and positions, and the demo staff placed in them. */
export async function seedOrgChart(db: Kysely<DB>): Promise<void> {
  const group = await db.selectFrom('groups').select('id').orderBy('id').executeTakeFirstOrThrow();
  const deptIds = new Map<string, number>();
  for (const [i, d] of DEPARTMENTS.entries()) {
    const { id } = await db
      .insertInto('departments')
      .values({
        group_id: group.id,
        parent_id: d.parent ? deptIds.get(d.parent)! : null,
        title: d.title,
        leader_name: d.leader_name ?? '',
        phone: d.phone ?? '',
        sort: i,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    deptIds.set(d.title, id);
  }
  const positions = await db
    .insertInto('positions')
    .values(POSITIONS.map((p, i) => ({ group_id: group.id, code: p.code, title: p.title, sort: i + 1 })))
    .returning(['id', 'title'])
    .execute();
  const positionIds = new Map(positions.map((p) => [p.title, p.id]));
  for (const [username, place] of Object.entries(PLACES)) {
    await db
      .updateTable('accounts')
      .set({ dept_id: deptIds.get(place.dept)!, position_id: place.position ? positionIds.get(place.position)! : null })
      .where('username', '=', username)
      .where('group_id', '=', group.id)
      .execute();
  }
}
