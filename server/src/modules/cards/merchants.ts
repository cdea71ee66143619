/**
 * Merchants (商户管理, /carpark/merchantlist; docs/product.md#merchants): the stores of the community
 * as a resource, their settlement account (the number sealed by lib/secrets.ts, written only,
 * answered as its mask), their login account (an account of type merchant holding `card` in the
 * store's community, made with the team area's createAccount, stopped with the store), and the other
 * communities of the group they serve: asked for by the store's community, decided by the served
 * community's staff (merchantServiceFlow). A merchant account never reads or manages any of it.
 */
import {
  CARD_ROLES,
  enumText,
  MERCHANT_KIND,
  MERCHANT_SERVICE_STATUS,
  MERCHANT_STATUS,
  merchant,
  merchantServiceFlow,
  passwordProblem,
  type MerchantItem,
  type MerchantKind,
  type MerchantServiceItem,
  type MerchantServiceStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { encryptSecret, secretsKey } from '../../lib/secrets.js';
import { wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { hashPassword } from '../auth/password.js';
import { resetPassword } from '../auth/reset.js';
import { sessionPolicy } from '../setup/security.js';
import { groupRegion } from '../structure/groupRegion.js';
import { createAccount } from '../team/staff.js';

type Values = Record<string, unknown>;

/** A settlement account number as it may be shown: its first and last four digits (6222 **** **** 1234). */
export const maskAccountNo = (no: string): string => `${no.slice(0, 4)} **** **** ${no.slice(-4)}`;

/** The list's rows: the store, its login account, the communities it serves; never the sealed account number. */
function merchantQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('merchants as t')
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .select([
      't.id',
      't.merchant',
      't.kind',
      't.logo',
      't.contact',
      't.mobile',
      't.hours',
      't.address',
      't.lng',
      't.lat',
      't.bank_name',
      't.bank_holder',
      't.bank_account_mask',
      't.status',
      't.remark',
      't.create_time',
      'a.username as login_username',
      'a.status as login_status',
    ])
    .select(
      sql<Array<{ title: string; status: MerchantServiceStatus; valid_to: string }>>`(
        SELECT coalesce(json_agg(json_build_object('title', g.title, 'status', s.status, 'valid_to', s.valid_to) ORDER BY s.id), '[]')
        FROM merchant_services s JOIN regions g ON g.id = s.rid
        WHERE s.merchant_rid = t.rid AND s.merchant_id = t.id AND s.status IN ('E', 'Y'))`.as('services'),
    )
    .where('t.rid', '=', rid);
}
type MerchantRow = Awaited<ReturnType<ReturnType<typeof merchantQuery>['executeTakeFirstOrThrow']>>;

/** 服务小区 in words: 翠湖苑（已通过，至2027-06-30）、… */
const servicesText = (services: MerchantRow['services']) =>
  services
    .map((s) => `${s.title}（${enumText(MERCHANT_SERVICE_STATUS, s.status)}${s.status === 'Y' ? `，至${s.valid_to}` : ''}）`)
    .join('、');

function toMerchantItem(r: Omit<MerchantRow, 'create_time'> & { create_time: string }): MerchantItem {
  return {
    id: Number(r.id),
    merchant: r.merchant,
    kind: r.kind,
    kind_ch: enumText(MERCHANT_KIND, r.kind),
    logo: r.logo,
    contact: r.contact,
    phone: r.mobile,
    address: r.address,
    lng: r.lng === null ? null : Number(r.lng),
    lat: r.lat === null ? null : Number(r.lat),
    hours: r.hours,
    bank_name: r.bank_name,
    bank_holder: r.bank_holder,
    bank_account_mask: r.bank_account_mask,
    login_username: r.login_username ?? '',
    login_status: (r.login_status as 'Y' | 'N' | null) ?? '',
    services_text: servicesText(r.services),
    status: r.status,
    status_ch: enumText(MERCHANT_STATUS, r.status),
    remark: r.remark,
    create_time: r.create_time,
  };
}

/** Stops or restarts the login account with its store; a stopped account's sessions end now. */
async function followStatus(ctx: CommunityCtx, accountId: number, status: 'Y' | 'N'): Promise<void> {
  const changed = await ctx.db
    .updateTable('accounts')
    .set({ status })
    .where('id', '=', accountId)
    .where('status', '<>', status)
    .executeTakeFirst();
  if (status === 'N')
    await ctx.db
      .updateTable('sessions')
      .set({ ended_at: sql`now()`, end_reason: 'revoked' })
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .execute();
  if (changed.numUpdatedRows > 0n) ctx.services.sessions.clear();
}

/**
 * The store's login account after an add or an edit: made from the row's username and password
 * (type merchant, the code `card`, the store's community), its password reset when one is given,
 * its name and state following the store's. The username is fixed once the account exists.
 */
async function loginAccount(ctx: CommunityCtx, input: Values, before?: Values): Promise<number | null> {
  const username = String(input.login_username ?? '');
  const password = String(input.login_password ?? '');
  const status = input.status as 'Y' | 'N';
  const name = String(input.merchant).slice(0, 30);
  const existing = before?.account_id ? Number(before.account_id) : null;
  if (existing !== null) {
    const account = await ctx.db.selectFrom('accounts').select('username').where('id', '=', existing).executeTakeFirstOrThrow();
    if (username && username !== account.username) fail('登录账号创建后不能修改');
    if (password) {
      const problem = passwordProblem(await sessionPolicy(ctx.db, ctx.session), password);
      if (problem) fail(problem);
      await resetPassword(ctx.db, existing, await hashPassword(password));
      ctx.services.sessions.clear();
    }
    await ctx.db.updateTable('accounts').set({ name }).where('id', '=', existing).execute();
    await followStatus(ctx, existing, status);
    return existing;
  }
  if (!username) return null;
  if (!password) fail('新建登录账号须设置登录密码');
  const taken = await ctx.db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirst();
  if (taken) fail(`登录账号 ${username} 已存在`);
  const phone = String(input.phone ?? '');
  const { id } = await createAccount(ctx, {
    username,
    password,
    name,
    mobile: /^1\d{10}$/.test(phone) ? phone : '',
    sys_type: 'merchant',
    // the card pages, to serve members (CARD_ROLES.staff)
    roles: [...CARD_ROLES.staff],
  });
  await ctx.db.insertInto('account_regions').values({ account_id: id, rid: ctx.rid, sort: 0 }).execute();
  if (status === 'N') await followStatus(ctx, id, 'N');
  return id;
}

const merchantResource = defineResource(merchant, {
  table: 'merchants',
  query: (db, rid) => merchantQuery(db as Kysely<DB>, rid),
  row: toMerchantItem,
  unique: [{ on: ['merchant'], message: (v) => `商户「${String(v.merchant)}」已存在` }],
  async values(input, ctx, before) {
    const { phone, bank_account_no, login_username, login_password, ...rest } = input;
    void login_username;
    void login_password;
    const out: Values = { ...rest, mobile: phone };
    const no = String(bank_account_no ?? '');
    // written only: a blank number keeps the one stored
    if (no)
      Object.assign(out, { bank_account_blob: encryptSecret(no, secretsKey(ctx.config.dataDir)), bank_account_mask: maskAccountNo(no) });
    if (!before) out.created_by = ctx.session.accountId;
    out.account_id = await loginAccount(ctx, input, before);
    return out;
  },
  async beforeDelete(ctx, row) {
    // a store with money or coupons behind it stays (the dependents below say so); its account goes with it
    if (row.account_id) await followStatus(ctx, Number(row.account_id), 'N');
  },
  dependents: {
    bonus_ledger: '该商户已有积分记录，不能删除，可将其停用',
    balance_ledger: '该商户已有储值消费记录，不能删除，可将其停用',
    parking_coupon_orders: '该商户已购买停车劵，不能删除，可将其停用',
    parking_coupon_stock: '该商户还有停车劵库存，不能删除，可将其停用',
    parking_coupon_given: '该商户已发放停车劵，不能删除，可将其停用',
  },
  summaries: {
    list: '商户列表：名称、类型、Logo、联系人、电话、营业时间、地址、结算账户（只显示掩码）、登录账号、服务小区、状态；按名称、类型、状态筛选（商户账号不可用）',
    add: '新增商户：名称在本小区唯一；银行账号加密保存；填写登录账号和密码则同时创建商户登录账号（类型商户，只能使用会员卡页面，首次登录须改密码）',
    edit: '修改商户：银行账号留空不变；填写登录密码则重置密码并结束其登录；停用商户同时停用其登录账号；登录账号创建后不能修改',
    del: '删除商户：已有积分、储值或停车劵记录的商户不能删除（可停用）；其登录账号随之停用',
  },
});

// ------------------------------------------------------------------------------------ service areas

function serviceQuery(db: Kysely<DB>) {
  return db
    .selectFrom('merchant_services as s')
    .innerJoin('merchants as m', (j) => j.onRef('m.rid', '=', 's.merchant_rid').onRef('m.id', '=', 's.merchant_id'))
    .innerJoin('regions as g', 'g.id', 's.rid')
    .innerJoin('regions as mg', 'mg.id', 's.merchant_rid')
    .leftJoin('accounts as d', 'd.id', 's.decided_by')
    .select([
      's.id',
      's.rid',
      'g.title as region_title',
      's.merchant_rid',
      'mg.title as merchant_region_title',
      's.merchant_id',
      'm.merchant',
      'm.kind',
      's.valid_from',
      's.valid_to',
      's.status',
      's.remark',
      's.reason',
      'd.name as decided_by',
      's.decided_at',
      's.created_at',
    ]);
}
type ServiceRow = Awaited<ReturnType<ReturnType<typeof serviceQuery>['executeTakeFirstOrThrow']>>;

const toServiceItem =
  (rid: number) =>
  (r: ServiceRow): MerchantServiceItem => ({
    id: Number(r.id),
    rid: r.rid,
    region_title: r.region_title,
    merchant_rid: r.merchant_rid,
    merchant_region_title: r.merchant_region_title,
    merchant_id: Number(r.merchant_id),
    merchant: r.merchant,
    kind: r.kind as MerchantKind,
    kind_ch: enumText(MERCHANT_KIND, r.kind),
    valid_from: String(r.valid_from),
    valid_to: String(r.valid_to),
    status: r.status,
    status_ch: enumText(MERCHANT_SERVICE_STATUS, r.status),
    remark: r.remark,
    reason: r.reason,
    decided_by: r.decided_by ?? '',
    decided_time: wireTime(r.decided_at),
    create_time: wireTime(r.created_at),
    decides: r.rid === rid,
  });

/** A merchant of the session's community, or 商户不存在. */
async function ownMerchant(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('merchants')
    .select(['id', 'merchant', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? fail('商户不存在');
}

const merchantservicelist = defineMethod('merchantservicelist', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '服务小区：给出本小区商户时为它服务的其他小区及审核状态；不给时为其他小区商户申请服务本小区的记录（本小区审核）',
  async handler(ctx, input) {
    let qb = serviceQuery(ctx.db);
    if (input.merchant_id) {
      await ownMerchant(ctx, input.merchant_id);
      qb = qb.where('s.merchant_rid', '=', ctx.rid).where('s.merchant_id', '=', input.merchant_id);
    } else qb = qb.where('s.rid', '=', ctx.rid);
    if (input.status) qb = qb.where('s.status', '=', input.status);
    const page = await listPage(qb, input, 's.id');
    return { total: page.total, items: page.items.map(toServiceItem(ctx.rid)) };
  },
});

const merchantRegionSmallList = defineMethod('merchant_region_small_list', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '服务小区下拉：本集团的其他小区（id、title）',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('regions')
      .select(['id', 'title'])
      .where('group_id', '=', ctx.session.groupId)
      .where('id', '<>', ctx.rid)
      .orderBy('id')
      .execute();
    return { items };
  },
});

const merchantserviceadd = defineMethod('merchantserviceadd', {
  side: 'community',
  roles: CARD_ROLES.merchants,
  writes: true,
  summary: '为本小区商户申请服务本集团的另一个小区（有效期起止），由该小区审核；同一小区待审核或已通过的只能有一条',
  async handler(ctx, input) {
    const m = await ownMerchant(ctx, input.merchant_id);
    if (m.status !== 'Y') fail('该商户已停用');
    const region = await groupRegion(ctx.db, ctx.session.groupId, input.rid, '小区不存在');
    if (region.id === ctx.rid) fail('商户本就服务所在小区，请选择其他小区');
    const live = await ctx.db
      .selectFrom('merchant_services')
      .select('status')
      .where('rid', '=', region.id)
      .where('merchant_rid', '=', ctx.rid)
      .where('merchant_id', '=', m.id)
      .where('status', 'in', ['E', 'Y'])
      .executeTakeFirst();
    if (live) fail(`${m.merchant}在${region.title}已有${enumText(MERCHANT_SERVICE_STATUS, live.status)}的服务申请`);
    const { id } = await ctx.db
      .insertInto('merchant_services')
      .values({
        rid: region.id,
        merchant_rid: ctx.rid,
        merchant_id: m.id,
        valid_from: input.valid_from,
        valid_to: input.valid_to,
        remark: input.remark,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // the row's log is the served community's, as its decisions are
    await writeFlowLog({ ...ctx, rid: region.id }, merchantServiceFlow.def, Number(id), {
      transition: 'create',
      from: '',
      to: 'E',
      input: { valid_from: input.valid_from, valid_to: input.valid_to, remark: input.remark },
    });
    return reply({ id: Number(id) }, `已提交，等待${region.title}审核`);
  },
});

const merchantservicedel = defineMethod('merchantservicedel', {
  side: 'community',
  roles: CARD_ROLES.merchants,
  writes: true,
  summary: '撤销本小区商户的服务申请，或结束其对另一小区的服务',
  async handler(ctx, input) {
    const gone = await ctx.db
      .deleteFrom('merchant_services')
      .where('id', '=', input.id)
      .where('merchant_rid', '=', ctx.rid)
      .executeTakeFirst();
    if (gone.numDeletedRows === 0n) fail('服务申请不存在');
    return reply(null, '已撤销');
  },
});

const decided = (ctx: CommunityCtx) => ({ decided_by: ctx.session.accountId, decided_at: sql<Date>`now()` });

const serviceFlowMethods = defineWorkflow(merchantServiceFlow, {
  table: 'merchant_services',
  answer: async (ctx, id) =>
    toServiceItem(ctx.rid)(await serviceQuery(ctx.db).where('s.rid', '=', ctx.rid).where('s.id', '=', id).executeTakeFirstOrThrow()),
  transitions: {
    approve: {
      async run(ctx, row) {
        const m = await ctx.db
          .selectFrom('merchants')
          .select('status')
          .where('rid', '=', Number(row.merchant_rid))
          .where('id', '=', Number(row.merchant_id))
          .executeTakeFirstOrThrow();
        if (m.status !== 'Y') fail('该商户已停用，不能通过');
      },
      set: decided,
      message: '已通过',
    },
    refuse: { set: (ctx, input) => ({ ...decided(ctx), reason: input.reason }), message: '已驳回' },
  },
  summaries: {
    merchantserviceapprove: '通过其他小区商户服务本小区的申请（本小区商户管理）',
    merchantservicerefuse: '驳回其他小区商户服务本小区的申请，须填写原因',
  },
});

/** 商户管理: the resource, the service areas and their decisions; none of it a merchant account's. */
export const merchantMethods = notForMerchants([
  ...merchantResource,
  merchantservicelist,
  merchantRegionSmallList,
  merchantserviceadd,
  merchantservicedel,
  ...serviceFlowMethods,
]);
