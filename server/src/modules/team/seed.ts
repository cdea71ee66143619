import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The roles every group starts with (docs/product.md#team): edited, never deleted. The
 * administrator's is all of a community.
 */
export const BUILTIN_ROLES: Array<{ title: string; app: 'web' | 'mobile'; codes: string[]; remark: string }> = [
  { title: '管理员', app: 'web', codes: ['admin'], remark: '小区的全部页面与操作' },
  {
    title: '收银员',
    app: 'web',
    codes: ['fees', 'cashier', 'payment', 'refund', 'contact_whole'],
    remark: '收银台、账单与收费记录，可申请退款，看业主完整手机号',
  },
  { title: '财务', app: 'web', codes: ['setfees', 'feecount', 'financecount'], remark: '收费设置、报表，审核退款、优惠与作废' },
  {
    title: '客服管家',
    app: 'web',
    codes: ['steward', 'notices', 'repairs', 'contact_whole'],
    remark: '管家服务、通知公告与报修，看业主完整手机号',
  },
  { title: '维修工', app: 'web', codes: ['repairs', 'devicelist'], remark: '报修工单与设备维保' },
  { title: '保安', app: 'web', codes: ['security'], remark: '巡更' },
  { title: '门禁管理员', app: 'web', codes: ['currents'], remark: '门禁设备、区域、授权与审核、下发与通行记录' },
  { title: '商户', app: 'web', codes: ['card'], remark: '商户的会员卡' },
  { title: '维修工（手机）', app: 'mobile', codes: ['m_repair'], remark: '手机接单、处理工单' },
  { title: '保安（手机）', app: 'mobile', codes: ['m_patrol', 'm_gate'], remark: '手机巡更、开门' },
];

/** Roles the demo company defined itself, beside the built-in ones. */
const DEMO_ROLES = [
  { title: '客服专员', codes: ['memberbasis', 'notices'], remark: '住户资料与通知，不收费' },
  { title: '工程主管', codes: ['steward', 'repairs', 'devicelist'], remark: '工单、管家与设备台账' },
];

/**
 * Every group's built-in roles and the demo company's own; the demo's staff then hold, in each of
 * their communities, the role whose codes are theirs (the group's leader keeps leader_admin).
 */
export async function seedTeam(db: Kysely<DB>): Promise<void> {
  const groups = await db.selectFrom('groups').select('id').execute();
  for (const { id: groupId } of groups) {
    await db
      .insertInto('staff_roles')
      .values([
        ...BUILTIN_ROLES.map((r) => ({ group_id: groupId, ...r, builtin: true })),
        ...DEMO_ROLES.map((r) => ({ group_id: groupId, app: 'web' as const, ...r, builtin: false })),
      ])
      .execute();
  }
  await sql`
    WITH matched AS (
      SELECT a.id AS account_id, sr.id AS role_id FROM accounts a
      JOIN staff_roles sr ON sr.group_id = a.group_id AND sr.builtin AND sr.app = 'web'
        AND sr.codes @> a.roles AND a.roles @> sr.codes
      WHERE a.sys_type <> 'leader'
    ), assigned AS (
      INSERT INTO account_roles (account_id, rid, role_id)
      SELECT m.account_id, ar.rid, m.role_id FROM matched m JOIN account_regions ar ON ar.account_id = m.account_id
      RETURNING account_id
    )
    UPDATE accounts SET roles = '{}' WHERE id IN (SELECT account_id FROM assigned)`.execute(db);
  // the staff list shows whom to call
  await sql`UPDATE accounts SET mobile = '1391000' || lpad(id::text, 4, '0') WHERE mobile = '' AND sys_type <> 'leader'`.execute(db);
}
