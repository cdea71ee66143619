import crypto from 'node:crypto';
import { addDays, addMonths, REFUND_APPROVE_ROLES } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../modules/auth/password.js';
import { today } from '../lib/wire.js';
import type { DB } from './schema.js';
import { seedStructure } from '../modules/structure/seed.js';
import { analyzePeople, seedOwners } from '../modules/owners/seed.js';
import { seedParking } from '../modules/carpark/seed.js';
import { seedCards } from '../modules/cards/seed.js';
import { seedCouponRuleGive } from '../modules/cards/seedCoupons.js';
import { seedAccess } from '../modules/access/seed.js';
import { seedVisitors } from '../modules/visitors/seed.js';
import { seedActivities } from '../modules/activities/seed.js';
import { seedFees } from '../modules/fees/seed.js';
import { seedCosts } from '../modules/fees/costsSeed.js';
import { seedTeam } from '../modules/team/seed.js';
import { seedSettings } from '../modules/setup/seed.js';
import { seedDictAndCategories } from '../modules/setup/dictSeed.js';
import { seedSms } from '../modules/setup/seed-sms.js';
import { seedOperationLog } from '../modules/system/seed-oplog.js';
import { seedOrgChart } from '../modules/team/orgchart.js';
import { seedRosters } from '../modules/setup/seed-roster.js';
import { seedPatrols } from '../modules/patrols/seed.js';
import { seedStewardProfiles } from '../modules/steward/profilesSeed.js';
import { seedNotices } from '../modules/steward/noticesSeed.js';
import { seedComplaints } from '../modules/steward/complaintsSeed.js';
import { seedInternalOrders } from '../modules/steward/internalOrdersSeed.js';
import { seedRepairs } from '../modules/steward/repairsSeed.js';
import { seedCarparkFees } from '../modules/carpark/feesSeed.js';
import { seedParkingStays } from '../modules/carpark/staysSeed.js';
import { seedOwnerApp } from '../modules/mobilesys/seed.js';
import { seedAssets, seedDeviceAssets } from '../modules/assets/seed.js';
import { seedInvoices } from '../modules/invoice/seed.js';
import { seedCrmContracts } from '../modules/crm/contractsSeed.js';
import { seedCrmCare } from '../modules/crm/careSeed.js';
import { seedCrmLeases } from '../modules/crm/leasesSeed.js';
import { seedCrmSales } from '../modules/crm/salesSeed.js';
import { seedMeters } from '../modules/meters/seed.js';
import { seedCharging } from '../modules/charging/seed.js';
import { seedPayMerchants } from '../modules/leader/setpaySeed.js';
import { seedPayMethodUse, seedPayMethods } from '../modules/leader/paytypesSeed.js';
import { seedWxSettings } from '../modules/leader/wxsysSeed.js';
import { seedGroupBanners } from '../modules/leader/bannersSeed.js';
import { seedGroupGraphics } from '../modules/leader/graphicsSeed.js';
import { seedGroupCatalogue } from '../modules/leader/applysSeed.js';
import { seedSmsQuota } from '../modules/leader/smsQuotaSeed.js';
import { seedNotifications } from '../modules/setup/notifySeed.js';
import { seedDiyPages } from '../modules/setdiy/seed.js';

export const DEMO_PASSWORD = 'demo123456';

/** Demo accounts printed at start-up and listed in the README. */
export const DEMO_ACCOUNTS = [
  {
    username: 'admin',
    name: '张经理',
    roles: ['admin'],
    sys_type: 'property',
    regions: [1, 2],
    note: '管理员，阳光花园（也可切换到翠湖苑）',
  },
  { username: 'admin2', name: '李经理', roles: ['admin'], sys_type: 'property', regions: [2], note: '管理员，翠湖苑（20 天后到期）' },
  { username: 'leader', name: '王总', roles: ['leader_admin'], sys_type: 'leader', regions: [], note: '集团总部' },
  { username: 'merchant', name: '便利店老板', roles: ['card'], sys_type: 'merchant', regions: [1], note: '商户账号' },
  {
    username: 'cashier',
    name: '赵收银',
    roles: ['cashier', 'fees', 'payment', 'refund', 'contact_whole'],
    sys_type: 'property',
    regions: [1],
    note: '收银员',
  },
  {
    username: 'finance',
    name: '郑会计',
    roles: ['financecount', 'setfees', 'feecount', 'invoicelist'],
    sys_type: 'property',
    regions: [1],
    note: '财务主管（审核退款与超限优惠，开具发票）',
  },
  {
    username: 'steward',
    name: '钱管家',
    roles: ['steward', 'notices', 'repairs', 'contact_whole'],
    sys_type: 'property',
    regions: [1],
    note: '管家（弱密码提示）',
    weak: true,
  },
  {
    username: 'cashier2',
    name: '孙收银',
    roles: ['cashier', 'fees', 'payment', 'refund', 'contact_whole'],
    sys_type: 'property',
    regions: [2],
    note: '收银员，翠湖苑（到期提醒）',
  },
  {
    username: 'expired',
    name: '周收银',
    roles: ['cashier', 'fees', 'payment', 'refund', 'contact_whole'],
    sys_type: 'property',
    regions: [3],
    note: '收银员，老城小区（已到期，强制续费）',
  },
  {
    username: 'expired2',
    name: '吴收银',
    roles: ['cashier', 'fees', 'payment', 'refund', 'contact_whole'],
    sys_type: 'property',
    regions: [4],
    note: '收银员，东湖小区（已到期，强制续费）',
  },
  { username: 'tech', name: '孙师傅', roles: ['repairs', 'devicelist'], sys_type: 'property', regions: [1], note: '维修工（含设备维保）' },
  { username: 'guard', name: '周保安', roles: ['security'], sys_type: 'property', regions: [1], note: '保安' },
  { username: 'parking', name: '吴停车', roles: ['carpark'], sys_type: 'property', regions: [1], note: '停车管理员' },
  { username: 'access', name: '郑门禁', roles: ['currents'], sys_type: 'property', regions: [1, 2], note: '门禁管理员' },
  { username: 'service', name: '何专员', roles: ['service'], sys_type: 'property', regions: [1], note: '活动专员（社区活动报名）' },
  { username: 'sales', name: '冯顾问', roles: ['crm', 'care'], sys_type: 'property', regions: [1], note: '置业顾问（销售客户与客户关怀）' },
  {
    username: 'leasing',
    name: '陈招商',
    roles: ['rentroom', 'tenant', 'crm'],
    sys_type: 'property',
    regions: [1],
    note: '招商租赁（合同与租赁，审批由管理员）',
  },
] as const;

/** How many activation codes the demo gets (12 months each); they are random, printed at start-up. */
export const DEMO_ACTIVATION_CODE_COUNT = 5;
const DEMO_CODE_REMARK = '演示';

/** Crockford's base 32: no I, L, O or U to misread. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random activation code, WY- and four groups of five (100 bits): guessing one is hopeless. */
export function newActivationCode(): string {
  const bytes = crypto.randomBytes(20);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % 32]).join('');
  return `WY-${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}-${chars.slice(15, 20)}`;
}

/** The demo's activation codes not used yet, for the start-up banner. */
export async function demoActivationCodes(db: Kysely<DB>): Promise<string[]> {
  const rows = await db
    .selectFrom('activation_codes')
    .select('code')
    .where('remark', '=', DEMO_CODE_REMARK)
    .where('used_at', 'is', null)
    .orderBy('created_at')
    .orderBy('code')
    .execute();
  return rows.map((r) => r.code);
}

/**
 * Seeds of the feature areas, run after the foundation's; each fills its own tables (the coming
 * areas' too: server/src/db/OWNERS.md), in this order: the rooms before their people, the people
 * before their cars' spaces, ledgers and visits before the bills, the sign-ups' bills after the property bills.
 */
export type AreaSeeder = (db: Kysely<DB>) => Promise<void>;
const areaSeeders: AreaSeeder[] = [
  seedTeam,
  seedOrgChart,
  // duty rosters (issue 36)
  seedRosters,
  seedStructure,
  seedOwners,
  // the group's own payment methods (the front desk's POS and 支票), before the parking desk's renewals take the POS
  seedPayMethods,
  seedParking,
  seedCards,
  // temporary-car fee standards and parking coupons (after the lots and the merchants)
  seedCarparkFees,
  seedAccess,
  // the visitors of the week (after the lots and spaces; before the dictionary, which takes their reasons)
  seedVisitors,
  seedDictAndCategories,
  analyzePeople,
  // a month of stays at the gates (their receipts first: the fees' seed numbers the bills' after them)
  seedParkingStays,
  seedFees,
  // cost items and fourteen months of costs of 阳光花园 and 翠湖苑 (成本登记, 成本统计)
  seedCosts,
  // activities and their sign-ups (a paid sign-up's bill after the property bills)
  seedActivities,
  seedOperationLog,
  seedSettings,
  seedSms,
  seedStewardProfiles,
  // notices (steward desk)
  seedNotices,
  seedComplaints,
  seedInternalOrders,
  // the steward desk's repairs (after the rooms, people and the fees' cost types)
  seedRepairs,
  seedOwnerApp,
  // the equipment ledger and its maintenance (a failed check opens an internal order)
  seedAssets,
  // security patrols: points, plans and a month of tasks (after the rosters and the steward desk's staff)
  seedPatrols,
  // invoices of paid receipts (after the fees and the activities' bills)
  seedInvoices,
  // sales customers of 阳光花园 with their deposits (after the invoices: their receipts are not invoiced)
  (db) => seedCrmSales(db, 1),
  // a year of the property fee prepaid, which a coupon rule rewards (after the invoices: its receipt is today's last but the leases')
  seedCouponRuleGive,
  // room-sales and other contracts of 阳光花园 (after the fees: their instalments become bills the cashier takes)
  (db) => seedCrmContracts(db, 1),
  // customer care of 阳光花园 (after the owners and the demo accounts)
  (db) => seedCrmCare(db, 1),
  // tenant leases of 阳光花园's shops and 6号楼 (last: their receipts after the invoices' and everyone's bills)
  (db) => seedCrmLeases(db, 1),
  // smart meters of 阳光花园: a gateway, 40 meters, ninety days of readings (after the fee items)
  seedMeters,
  // two charging piles of 阳光花园 with a month of sessions (after the cards: the prepayments are the members' balance)
  seedCharging,
  // the gateways and piles seeded above join the equipment ledger as devices added later do
  seedDeviceAssets,
  // the group's payment merchants: its default and 阳光花园's own (/setup/setpay on the group side)
  seedPayMerchants,
  // what the group's POS took: 阳光花园's recent bank-card receipts
  seedPayMethodUse,
  // the group's WeChat settings and payment channels; the demo leader's is_wechatset_auth and is_microapp_auth
  seedWxSettings,
  // the group's owner-app banners and app catalogue (/apply/bannerlist, /applys/applyslist on the group side)
  seedGroupBanners,
  // the group's owner-app articles (/mobile/graphiclist on the group side)
  seedGroupGraphics,
  seedGroupCatalogue,
  // the group's SMS quota package (5,000, less the demo SMS jobs' sends); the demo leader's is_smsset_auth
  seedSmsQuota,
  // the group's DIY home template (published, with a draft); the demo leader's is_diyhome_auth
  seedDiyPages,
  // the group's message settings and what they sent of 阳光花园's recent tickets, payments and arrivals (last: it reads them all)
  seedNotifications,
];

/** Creates the demo on an empty database; answers false when there was data already. */
export async function seedDemo(db: Kysely<DB>): Promise<boolean> {
  const existing = await db.selectFrom('groups').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction().execute(async (trx) => {
    // processes starting together on an empty database: one seeds, the others wait here and find it done
    await sql`SELECT pg_advisory_xact_lock(724312)`.execute(trx);
    if (await trx.selectFrom('groups').select('id').limit(1).executeTakeFirst()) return false;
    await seedFoundation(trx, passwordHash);
    for (const seed of areaSeeders) await seed(trx);
    return true;
  });
}

export async function seedFoundation(db: Kysely<DB>, passwordHash: string) {
  const day = today();
  const { id: groupId } = await db
    .insertInto('groups')
    .values({ title: '幸福里物业集团', website_url: 'https://www.example.com' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('regions')
    .values([
      {
        group_id: groupId,
        title: '阳光花园',
        address: '上海市浦东新区张杨路 1288 号',
        phone: '021-58881234',
        area: '128000.00',
        sub_title: '阳光花园物业管理平台',
        end_time: addDays(day, 300),
        price_per_year: '3600.00',
        copyright: '© 2026 幸福里物业集团 版权所有',
        help_work_url: '/updatelog/updatelog',
      },
      {
        group_id: groupId,
        title: '翠湖苑',
        address: '杭州市西湖区文一西路 66 号',
        phone: '0571-88776655',
        area: '86000.00',
        sub_title: '翠湖苑物业管理平台',
        end_time: addDays(day, 20),
        price_per_year: '2400.00',
        copyright: '© 2026 幸福里物业集团 版权所有',
      },
      {
        group_id: groupId,
        title: '老城小区',
        address: '南京市秦淮区中华路 18 号',
        phone: '025-86661234',
        area: '32000.00',
        sub_title: '老城小区物业管理平台',
        end_time: addDays(day, -5),
        price_per_year: '1200.00',
      },
      {
        group_id: groupId,
        title: '东湖小区',
        address: '武汉市武昌区东湖路 9 号',
        phone: '027-86661234',
        area: '21000.00',
        sub_title: '东湖小区物业管理平台',
        end_time: addDays(day, -40),
        price_per_year: '1000.00',
      },
    ])
    .execute();
  // 阳光花园's renewal log (/setup/regiondelaylog): opened by the group, then renewed by QR payment
  const sunnyEnd = addDays(day, 300);
  await db
    .insertInto('region_delay_log')
    .values([
      {
        rid: 1,
        kind: 'manual',
        ref: '集团开通',
        old_end: addMonths(sunnyEnd, -24),
        new_end: addMonths(sunnyEnd, -12),
        amount: '0',
        operator: 'leader',
        created_at: sql<Date>`now() - interval '430 days'`,
      },
      {
        rid: 1,
        kind: 'pay',
        ref: 'RD202609210001',
        old_end: addMonths(sunnyEnd, -12),
        new_end: sunnyEnd,
        amount: '3600.00',
        operator: 'admin',
        created_at: sql<Date>`now() - interval '65 days'`,
      },
    ])
    .execute();
  for (const a of DEMO_ACCOUNTS) {
    const { id } = await db
      .insertInto('accounts')
      .values({
        username: a.username,
        password_hash: passwordHash,
        name: a.name,
        roles: [...a.roles],
        sys_type: a.sys_type,
        group_id: groupId,
        password_status: 'weak' in a && a.weak ? 'N' : 'Y',
        permissions: a.username === 'admin' ? ['updatelog'] : [],
        introduction: a.note,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (a.regions.length) {
      await db
        .insertInto('account_regions')
        .values(a.regions.map((rid, sort) => ({ account_id: id, rid, sort })))
        .execute();
    }
  }
  await db
    .insertInto('activation_codes')
    .values(
      Array.from({ length: DEMO_ACTIVATION_CODE_COUNT }, () => ({
        code: newActivationCode(),
        group_id: groupId,
        months: 12,
        remark: DEMO_CODE_REMARK,
      })),
    )
    .execute();
  await db
    .insertInto('backlog')
    .values([
      // reminders with no record behind them; the desk's to-dos come from its demo records (modules/steward/*Seed.ts)
      {
        rid: 1,
        title: '审核退款申请：2 号楼 801 物业费',
        kind: 'refund',
        link: '/fees/refundlist',
        content: '重复缴费，申请退回 1 个月',
        // as the refunds' registration raises them (modules/fees/refunds.ts): for those who approve refunds
        roles: [...REFUND_APPROVE_ROLES],
      },
      { rid: 1, title: '本月物业费账单待生成', kind: 'fees', link: '/fees/feebillworkadd', content: '每月 1 日前生成下月账单' },
      { rid: 1, title: '消防设施年度检测到期提醒', kind: 'other', content: '联系维保单位，月底前完成检测' },
      { rid: 2, title: '电梯年检到期提醒', kind: 'other', content: '1 号楼两部电梯' },
    ])
    .execute();
  await db
    .insertInto('common_links')
    .values([
      { rid: 1, title: '集团官网', url: 'https://www.example.com', sort: 1 },
      { rid: 1, title: '操作手册', url: '/updatelog/updatelog', sort: 2 },
    ])
    .execute();
  await db
    .insertInto('resources')
    .values([{ group_id: groupId, title: '物业管理系统操作手册', url: '/updatelog/updatelog', kind: 'doc', sort: 1 }])
    .execute();
}
