/**
 * 支付商户设置 (setpay; /setup/setpay on the group side, issue 45): the group's payment merchants
 * per community and kind of fee, WeChat Pay or Alipay. A merchant without a community is the
 * group's default; a community's kind of fee is paid to, in this order, its own merchant for the
 * kind, its own for 全部费用, the group's for the kind, the group's for 全部费用 (enabled ones
 * only). Keys are sealed by lib/secrets.ts, written only, answered as '已设置 ****1234'; a blank key
 * on edit keeps the stored one. 测试 asks the payment provider (the sandbox) to check a merchant.
 */
import {
  ALIPAY_APP_ID_RE,
  enumKeys,
  enumText,
  PAY_FEE_KIND,
  PAY_MERCHANT_STATUS,
  PAY_PROVIDER,
  PAY_SOURCE,
  SETPAY_ROLES,
  WECHAT_APP_ID_RE,
  WECHAT_MCH_ID_RE,
  WECHAT_SERIAL_RE,
  type PayApplied,
  type PayFeeKind,
  type PayMerchantItem,
  type PayProvider,
  type PaySource,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { groupRegion } from '../structure/groupRegion.js';
import { defineMethod, reply, type Ctx, type HandlerInput, type Session } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { decryptSecret, encryptSecret, secretsKey } from '../../lib/secrets.js';
import { wireTime } from '../../lib/wire.js';
import type { MerchantCredentials } from '../../payments/merchant.js';

type GroupCall = Ctx & { session: Session };
type PayMerchantsTable = DB['pay_merchants'];
type MerchantRow = Selectable<PayMerchantsTable> & { region_title: string | null };

/** The last four characters a key is shown by: of a PEM key its body's, not its footer's dashes. */
export const keyLastFour = (plain: string): string =>
  plain
    .replace(/-----[A-Z ]+-----/g, '')
    .replace(/\s+/g, '')
    .slice(-4);

/** A stored key as the console shows it. */
export const maskedKey = (last4: string, blob: string | null): string => (blob ? `已设置 ****${last4}` : '');

function merchantQuery(db: Kysely<DB>, groupId: number) {
  return db
    .selectFrom('pay_merchants as t')
    .leftJoin('regions as g', 'g.id', 't.rid')
    .selectAll('t')
    .select('g.title as region_title')
    .where('t.group_id', '=', groupId);
}

export function toMerchantItem(r: MerchantRow): PayMerchantItem {
  return {
    id: Number(r.id),
    rid: r.rid === null ? null : Number(r.rid),
    region_title: r.rid === null ? '集团默认' : (r.region_title ?? ''),
    fee_kind: r.fee_kind as PayFeeKind,
    fee_kind_ch: enumText(PAY_FEE_KIND, r.fee_kind),
    provider: r.provider as PayProvider,
    provider_ch: enumText(PAY_PROVIDER, r.provider),
    title: r.title,
    mch_id: r.mch_id,
    app_id: r.app_id,
    serial_no: r.serial_no,
    api_v3_masked: maskedKey(r.api_v3_last4, r.api_v3_blob),
    private_key_masked: maskedKey(r.private_key_last4, r.private_key_blob),
    public_key_masked: maskedKey(r.public_key_last4, r.public_key_blob),
    status: r.status === 'N' ? 'N' : 'Y',
    status_ch: enumText(PAY_MERCHANT_STATUS, r.status),
    remark: r.remark,
    last_test_time: wireTime(r.last_test_at),
    last_test_ok: (r.last_test_ok ?? '') as PayMerchantItem['last_test_ok'],
    last_test_result: r.last_test_result,
    create_time: wireTime(r.created_at),
    update_time: wireTime(r.updated_at),
  };
}

/** A community of the caller's group, or the refusal. */
const ownRegion = (db: Kysely<DB>, session: Session, rid: number) => groupRegion(db, session.groupId, rid);

/** A merchant of the caller's group, locked for the write, or 不存在. */
async function ownMerchant(db: Kysely<DB>, session: Session, id: number) {
  const row = await db
    .selectFrom('pay_merchants')
    .selectAll()
    .where('id', '=', id)
    .where('group_id', '=', session.groupId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) fail('支付商户不存在');
  return row;
}

type MerchantInput = HandlerInput<'setpayadd'>;

/**
 * The columns of an add or an edit: the provider's fields checked (a WeChat merchant needs 商户号,
 * AppID and 证书序列号; an Alipay one its AppID), the keys sealed, the other provider's fields cleared.
 * A key left blank keeps the stored one, unless the provider changed.
 */
function merchantValues(ctx: GroupCall, input: MerchantInput, before?: Selectable<PayMerchantsTable>) {
  const sameProvider = before?.provider === input.provider;
  const has = (blob: string | null | undefined) => sameProvider && !!blob;
  const wechat = input.provider === 'wechat';
  if (wechat) {
    if (!input.mch_id) fail('请输入微信支付商户号');
    if (!WECHAT_MCH_ID_RE.test(input.mch_id)) fail('商户号应为8至12位数字');
    if (!input.app_id) fail('请输入AppID（公众号或小程序）');
    if (!WECHAT_APP_ID_RE.test(input.app_id)) fail('AppID应以wx开头，共18位');
    if (!input.serial_no) fail('请输入商户API证书序列号');
    if (!WECHAT_SERIAL_RE.test(input.serial_no)) fail('证书序列号应为8至40位十六进制字符');
    if (!input.api_v3_secret && !has(before?.api_v3_blob)) fail('请输入APIv3密钥');
    if (!input.private_key_secret && !has(before?.private_key_blob)) fail('请输入商户私钥（apiclient_key.pem）');
  } else {
    if (!input.app_id) fail('请输入支付宝应用AppID');
    if (!ALIPAY_APP_ID_RE.test(input.app_id)) fail('支付宝AppID应为16位数字');
    if (!input.private_key_secret && !has(before?.private_key_blob)) fail('请输入应用私钥');
    if (!input.public_key_secret && !has(before?.public_key_blob)) fail('请输入支付宝公钥');
  }
  const key = () => secretsKey(ctx.config.dataDir);
  const seal = (plain: string, name: 'api_v3' | 'private_key' | 'public_key') =>
    plain ? { [`${name}_blob`]: encryptSecret(plain, key()), [`${name}_last4`]: keyLastFour(plain) } : {};
  const clear = (name: 'api_v3' | 'public_key') => ({ [`${name}_blob`]: null, [`${name}_last4`]: '' });
  return {
    rid: input.rid ?? null,
    fee_kind: input.fee_kind,
    provider: input.provider,
    title: input.title,
    status: input.status,
    remark: input.remark,
    mch_id: wechat ? input.mch_id : '',
    app_id: input.app_id,
    serial_no: wechat ? input.serial_no : '',
    ...(wechat ? seal(input.api_v3_secret, 'api_v3') : clear('api_v3')),
    ...seal(input.private_key_secret, 'private_key'),
    ...(wechat ? clear('public_key') : seal(input.public_key_secret, 'public_key')),
    updated_at: sql<Date>`now()`,
    updated_by: ctx.session.accountId,
  };
}

/** One merchant per (community or the group's default, kind of fee). */
async function refuseDuplicate(ctx: GroupCall, rid: number | null, feeKind: PayFeeKind, exceptId?: number) {
  let qb = ctx.db
    .selectFrom('pay_merchants')
    .select('id')
    .where('group_id', '=', ctx.session.groupId)
    .where('fee_kind', '=', feeKind)
    .where(rid === null ? sql<boolean>`rid IS NULL` : sql<boolean>`rid = ${rid}`);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  if (await qb.executeTakeFirst())
    fail(`${rid === null ? '集团默认' : '该小区'}已有「${enumText(PAY_FEE_KIND, feeKind)}」的支付商户，请修改原商户`);
}

const KIND_KEYS = enumKeys(PAY_FEE_KIND);

/**
 * The merchant each community's kind of fee is paid to: its own for the kind, its own for 全部费用,
 * the group's for the kind, the group's for 全部费用; stopped merchants are passed over.
 */
export function appliedFor(rid: number, merchants: PayMerchantItem[]): PayApplied[] {
  const enabled = merchants.filter((m) => m.status === 'Y');
  const find = (r: number | null, kind: PayFeeKind) => enabled.find((m) => m.rid === r && m.fee_kind === kind);
  return KIND_KEYS.map((kind) => {
    const chain: Array<[PaySource, PayMerchantItem | undefined]> = [
      ['own', find(rid, kind)],
      ['own_all', kind === 'all' ? undefined : find(rid, 'all')],
      ['group', find(null, kind)],
      ['group_all', kind === 'all' ? undefined : find(null, 'all')],
    ];
    const [source, m] = chain.find(([, found]) => found) ?? ['none', undefined];
    return {
      fee_kind: kind,
      fee_kind_ch: enumText(PAY_FEE_KIND, kind),
      merchant_id: m?.id ?? null,
      merchant_title: m?.title ?? '',
      provider_ch: m?.provider_ch ?? '',
      source,
      source_ch: enumText(PAY_SOURCE, source),
    };
  });
}

const setpayinfo = defineMethod('setpayinfo', {
  side: 'group',
  roles: SETPAY_ROLES,
  writes: false,
  summary: '集团的支付商户（集团默认与各小区的，密钥只显示后四位），及每个小区每类费用实际使用的商户与来源（本小区或集团默认）',
  async handler(ctx) {
    const [rows, regions] = await Promise.all([
      merchantQuery(ctx.db, ctx.session.groupId)
        .orderBy(sql`t.rid IS NOT NULL`)
        .orderBy('t.rid')
        .orderBy('t.id')
        .limit(2000)
        .execute(),
      ctx.db.selectFrom('regions').select(['id', 'title']).where('group_id', '=', ctx.session.groupId).orderBy('id').execute(),
    ]);
    const merchants = rows.map(toMerchantItem);
    return {
      merchants,
      regions: regions.map((r) => ({
        rid: r.id,
        title: r.title,
        own_count: merchants.filter((m) => m.rid === r.id).length,
        applies: appliedFor(r.id, merchants),
      })),
    };
  },
});

const setpaylist = defineMethod('setpaylist', {
  side: 'group',
  roles: SETPAY_ROLES,
  writes: false,
  summary:
    '支付商户列表：适用小区（或集团默认）、费用类型、支付渠道、名称、商户号、AppID、密钥（只显示后四位）、状态、最近测试；按范围、小区、费用类型、渠道、状态、名称筛选',
  async handler(ctx, input) {
    let qb = merchantQuery(ctx.db, ctx.session.groupId);
    if (input.scope === 'group') qb = qb.where('t.rid', 'is', null);
    if (input.scope === 'region') qb = qb.where('t.rid', 'is not', null);
    if (input.rid) qb = qb.where('t.rid', '=', input.rid);
    if (input.fee_kind) qb = qb.where('t.fee_kind', '=', input.fee_kind);
    if (input.provider) qb = qb.where('t.provider', '=', input.provider);
    if (input.status) qb = qb.where('t.status', '=', input.status);
    if (input.title) qb = qb.where('t.title', 'ilike', likePattern(input.title));
    const page = await listPage(qb, input, 't.id');
    return { total: page.total, items: page.items.map(toMerchantItem) };
  },
});

const setpayadd = defineMethod('setpayadd', {
  side: 'group',
  roles: SETPAY_ROLES,
  writes: true,
  summary:
    '新增支付商户（小区留空为集团默认；每个小区每类费用一个；微信支付：商户号、AppID、证书序列号、APIv3密钥、商户私钥；支付宝：AppID、应用私钥、支付宝公钥；密钥加密保存，只写不读）',
  async handler(ctx, input) {
    const values = merchantValues(ctx, input);
    if (input.rid) await ownRegion(ctx.db, ctx.session, input.rid);
    await refuseDuplicate(ctx, input.rid ?? null, input.fee_kind);
    const { id } = await ctx.db
      .insertInto('pay_merchants')
      .values({ ...values, group_id: ctx.session.groupId, created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const setpayedit = defineMethod('setpayedit', {
  side: 'group',
  roles: SETPAY_ROLES,
  writes: true,
  summary: '修改支付商户（密钥留空则不修改；更换支付渠道须重新填写密钥；修改后须重新测试）',
  async handler(ctx, input) {
    const { id, ...rest } = input;
    const before = await ownMerchant(ctx.db, ctx.session, id);
    const values = merchantValues(ctx, rest, before);
    if (rest.rid) await ownRegion(ctx.db, ctx.session, rest.rid);
    await refuseDuplicate(ctx, rest.rid ?? null, rest.fee_kind, id);
    // another merchant now: the last test no longer speaks for it
    await ctx.db
      .updateTable('pay_merchants')
      .set({ ...values, last_test_at: null, last_test_ok: null, last_test_result: '' })
      .where('id', '=', id)
      .where('group_id', '=', ctx.session.groupId)
      .execute();
    return reply({ id }, '保存成功');
  },
});

const setpaydel = defineMethod('setpaydel', {
  side: 'group',
  roles: SETPAY_ROLES,
  writes: true,
  summary: '删除支付商户（删除后该小区的该类费用改用集团默认商户）',
  async handler(ctx, input) {
    await ownMerchant(ctx.db, ctx.session, input.id);
    await ctx.db.deleteFrom('pay_merchants').where('id', '=', input.id).where('group_id', '=', ctx.session.groupId).execute();
    return reply({ id: input.id }, '删除成功');
  },
});

const NO_MERCHANT_CHECK = '支付服务商未开通，暂不能测试商户（请联系平台开通支付通道）';

const setpaytest = defineMethod('setpaytest', {
  side: 'group',
  roles: SETPAY_ROLES,
  writes: true,
  summary: '测试支付商户：由支付服务商（沙箱）检查参数是否完整、格式是否正确，记录测试时间与结果',
  async handler(ctx, input) {
    const row = await ownMerchant(ctx.db, ctx.session, input.id);
    const provider = ctx.services.payments;
    let result: { ok: boolean; message: string };
    if (!provider?.testMerchant) result = { ok: false, message: NO_MERCHANT_CHECK };
    else {
      const open = (blob: string | null): string => {
        if (!blob) return '';
        try {
          return decryptSecret(blob, secretsKey(ctx.config.dataDir));
        } catch {
          // sealed with another key (a data directory moved without secrets.key): as good as missing
          return '';
        }
      };
      const credentials: MerchantCredentials = {
        provider: row.provider === 'alipay' ? 'alipay' : 'wechat',
        mchId: row.mch_id,
        appId: row.app_id,
        serialNo: row.serial_no,
        apiV3Key: open(row.api_v3_blob),
        privateKey: open(row.private_key_blob),
        publicKey: open(row.public_key_blob),
      };
      result = await provider.testMerchant(credentials);
    }
    const tested = await ctx.db
      .updateTable('pay_merchants')
      .set({ last_test_at: sql<Date>`now()`, last_test_ok: result.ok ? 'Y' : 'N', last_test_result: result.message.slice(0, 500) })
      .where('id', '=', row.id)
      .returning('last_test_at')
      .executeTakeFirstOrThrow();
    return reply({ ...result, test_time: wireTime(tested.last_test_at) }, result.message);
  },
});

export const setpayMethods = [setpayinfo, setpaylist, setpayadd, setpayedit, setpaydel, setpaytest];
