/**
 * 公众号/小程序设置 (setwxsys) and 支付渠道 (setchannel), /setup on the group side (issue 45).
 *
 * setwxsys: the group's official account (公众号) and mini-program (小程序), one row of each in
 * wx_accounts. The account permission `is_wechatset_auth` opens the official account's half,
 * `is_microapp_auth` the mini-program's; without it the half is refused (NO_PERMISSION) and left out
 * of setwxsysinfo. AppSecret, Token and EncodingAESKey are sealed by lib/secrets.ts, written only and
 * answered as '已设置 ****1234'; a blank on edit keeps the stored one. 测试 checks a half in the
 * sandbox: every field present and well formed (a real check would fetch an access_token).
 *
 * setchannel: per scene (业主端缴费, 收银台扫码, 付款码, 续费) the provider the group chose. The
 * flows read it through payments/channels.ts (续费 and the booth's 收银台扫码 today); each row says
 * what pays the scene now.
 */
import {
  enumKeys,
  enumText,
  PAY_CHANNEL_PROVIDER,
  PAY_SCENE,
  RC,
  WX_AES_KEY_RE,
  WX_APP_ID_RE,
  WX_APP_SECRET_RE,
  WX_KIND,
  WX_ORIGINAL_ID_RE,
  WX_TOKEN_RE,
  WXSYS_FLAGS,
  WXSYS_ROLES,
  type PayChannelItem,
  type PayChannelProvider,
  type PayScene,
  type WxAccountItem,
  type WxKind,
} from '@wuye/contract';
import { sql, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BizError, fail, MESSAGES } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { decryptSecret, encryptSecret, secretsKey } from '../../lib/secrets.js';
import { wireTime } from '../../lib/wire.js';
import { keyLastFour, maskedKey } from './setpay.js';
import { resolveScene } from '../../payments/channels.js';

type GroupCall = Ctx & { session: Session };
type WxRow = Selectable<DB['wx_accounts']> & { updated_by_name: string | null };

/** Refuses a half the caller's account permissions do not open. */
function requireFlag(session: Session, kind: WxKind): void {
  if (!session.permissions.includes(WXSYS_FLAGS[kind])) throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
}

function blankItem(kind: WxKind): WxAccountItem {
  return {
    kind,
    kind_ch: enumText(WX_KIND, kind),
    saved: false,
    app_id: '',
    name: '',
    original_id: '',
    qrcode_url: '',
    app_secret_masked: '',
    token_masked: '',
    aes_key_masked: '',
    last_test_time: '',
    last_test_ok: '',
    last_test_result: '',
    update_time: '',
    update_by: '',
  };
}

export function toWxItem(r: WxRow): WxAccountItem {
  return {
    ...blankItem(r.kind),
    saved: true,
    app_id: r.app_id,
    name: r.name,
    original_id: r.original_id,
    qrcode_url: r.qrcode_url,
    app_secret_masked: maskedKey(r.app_secret_last4, r.app_secret_blob),
    token_masked: maskedKey(r.token_last4, r.token_blob),
    aes_key_masked: maskedKey(r.aes_key_last4, r.aes_key_blob),
    last_test_time: wireTime(r.last_test_at),
    last_test_ok: (r.last_test_ok ?? '') as WxAccountItem['last_test_ok'],
    last_test_result: r.last_test_result,
    update_time: wireTime(r.updated_at),
    update_by: r.updated_by_name ?? '',
  };
}

function wxRows(ctx: GroupCall) {
  return ctx.db
    .selectFrom('wx_accounts as w')
    .leftJoin('accounts as a', 'a.id', 'w.updated_by')
    .selectAll('w')
    .select('a.name as updated_by_name')
    .where('w.group_id', '=', ctx.session.groupId);
}

/** The plain text of a sealed value; '' when missing or sealed with another key. */
function open(ctx: GroupCall, blob: string | null): string {
  if (!blob) return '';
  try {
    return decryptSecret(blob, secretsKey(ctx.config.dataDir));
  } catch {
    return '';
  }
}

export interface WxCredentials {
  kind: WxKind;
  appId: string;
  originalId: string;
  appSecret: string;
  token: string;
  aesKey: string;
}

/** The sandbox's check of a half: every field present and well formed, or the first reason it is not. */
export function checkWxCredentials(c: WxCredentials): { ok: boolean; message: string } {
  const label = enumText(WX_KIND, c.kind);
  const problems: string[] = [];
  if (!c.appId) problems.push('未填写AppID');
  else if (!WX_APP_ID_RE.test(c.appId)) problems.push('AppID格式不正确（应以wx开头，共18位字母或数字）');
  if (c.originalId && !WX_ORIGINAL_ID_RE.test(c.originalId)) problems.push('原始ID格式不正确（应以gh_开头，共15位）');
  if (!c.appSecret) problems.push('未设置AppSecret');
  else if (!WX_APP_SECRET_RE.test(c.appSecret)) problems.push('AppSecret应为32位字母或数字');
  if (c.kind === 'oa') {
    if (!c.token) problems.push('未设置令牌（Token）');
    else if (!WX_TOKEN_RE.test(c.token)) problems.push('令牌（Token）应为3至32位字母或数字');
    if (!c.aesKey) problems.push('未设置消息加解密密钥（EncodingAESKey）');
    else if (!WX_AES_KEY_RE.test(c.aesKey)) problems.push('EncodingAESKey应为43位字母或数字');
  }
  if (problems.length) return { ok: false, message: `${label}测试未通过：${problems.join('；')}` };
  return { ok: true, message: `${label}测试通过（沙箱：参数齐全，格式正确）` };
}

const NO_WECHAT_CHECK = '未接入微信接口，暂不能测试（测试环境的沙箱只检查参数是否齐全、格式是否正确）';

const setwxsysinfo = defineMethod('setwxsysinfo', {
  side: 'group',
  roles: WXSYS_ROLES,
  writes: false,
  summary: '集团的公众号与小程序设置（AppSecret等密钥只显示后四位）；公众号需要is_wechatset_auth权限，小程序需要is_microapp_auth权限',
  async handler(ctx) {
    const canOa = ctx.session.permissions.includes(WXSYS_FLAGS.oa);
    const canMini = ctx.session.permissions.includes(WXSYS_FLAGS.mini);
    if (!canOa && !canMini) throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
    const rows = await wxRows(ctx).execute();
    const half = (kind: WxKind) => {
      const row = rows.find((r) => r.kind === kind);
      return row ? toWxItem(row) : blankItem(kind);
    };
    return { oa: canOa ? half('oa') : null, mini: canMini ? half('mini') : null };
  },
});

const setwxsysedit = defineMethod('setwxsysedit', {
  side: 'group',
  roles: WXSYS_ROLES,
  writes: true,
  summary:
    '保存公众号（kind=oa：AppID、AppSecret、令牌Token、EncodingAESKey、原始ID、名称、二维码）或小程序（kind=mini：AppID、AppSecret、原始ID、名称）；密钥加密保存，只写不读，留空则不修改',
  async handler(ctx, input) {
    requireFlag(ctx.session, input.kind);
    const oa = input.kind === 'oa';
    if (!WX_APP_ID_RE.test(input.app_id)) fail('AppID应以wx开头，共18位字母或数字');
    if (input.original_id && !WX_ORIGINAL_ID_RE.test(input.original_id)) fail('原始ID应以gh_开头，共15位字母或数字');
    if (input.app_secret && !WX_APP_SECRET_RE.test(input.app_secret)) fail('AppSecret应为32位字母或数字');
    if (oa && input.token_secret && !WX_TOKEN_RE.test(input.token_secret)) fail('令牌（Token）应为3至32位字母或数字');
    if (oa && input.aes_key_secret && !WX_AES_KEY_RE.test(input.aes_key_secret)) fail('消息加解密密钥（EncodingAESKey）应为43位字母或数字');
    const before = await ctx.db
      .selectFrom('wx_accounts')
      .select(['id', 'app_secret_blob'])
      .where('group_id', '=', ctx.session.groupId)
      .where('kind', '=', input.kind)
      .forUpdate()
      .executeTakeFirst();
    if (!input.app_secret && !before?.app_secret_blob) fail('请输入AppSecret');
    const key = () => secretsKey(ctx.config.dataDir);
    const seal = (plain: string, name: 'app_secret' | 'token' | 'aes_key') =>
      plain ? { [`${name}_blob`]: encryptSecret(plain, key()), [`${name}_last4`]: keyLastFour(plain) } : {};
    const values = {
      app_id: input.app_id,
      name: input.name,
      original_id: input.original_id,
      qrcode_url: oa ? input.qrcode_url : '',
      ...seal(input.app_secret, 'app_secret'),
      ...(oa ? seal(input.token_secret, 'token') : {}),
      ...(oa ? seal(input.aes_key_secret, 'aes_key') : {}),
      // changed settings: the last test no longer speaks for them
      last_test_at: null,
      last_test_ok: null,
      last_test_result: '',
      updated_at: sql<Date>`now()`,
      updated_by: ctx.session.accountId,
    };
    if (before) await ctx.db.updateTable('wx_accounts').set(values).where('id', '=', before.id).execute();
    else
      await ctx.db
        .insertInto('wx_accounts')
        .values({ ...values, group_id: ctx.session.groupId, kind: input.kind, created_by: ctx.session.accountId })
        .execute();
    return reply({ kind: input.kind }, '保存成功');
  },
});

const setwxsystest = defineMethod('setwxsystest', {
  side: 'group',
  roles: WXSYS_ROLES,
  writes: true,
  summary: '测试公众号或小程序设置：在沙箱中检查参数是否齐全、格式是否正确，记录测试时间与结果',
  async handler(ctx, input) {
    requireFlag(ctx.session, input.kind);
    const row = await wxRows(ctx).where('w.kind', '=', input.kind).executeTakeFirst();
    if (!row) fail(`请先保存${enumText(WX_KIND, input.kind)}设置`);
    const result = ctx.config.sandbox
      ? checkWxCredentials({
          kind: input.kind,
          appId: row.app_id,
          originalId: row.original_id,
          appSecret: open(ctx, row.app_secret_blob),
          token: open(ctx, row.token_blob),
          aesKey: open(ctx, row.aes_key_blob),
        })
      : { ok: false, message: NO_WECHAT_CHECK };
    const tested = await ctx.db
      .updateTable('wx_accounts')
      .set({ last_test_at: sql<Date>`now()`, last_test_ok: result.ok ? 'Y' : 'N', last_test_result: result.message.slice(0, 500) })
      .where('id', '=', row.id)
      .returning('last_test_at')
      .executeTakeFirstOrThrow();
    return reply({ ...result, test_time: wireTime(tested.last_test_at) }, result.message);
  },
});

/** The flows that read a scene's channel (payments/channels.ts); the other scenes have no online payment yet. */
const SCENE_FLOWS: Partial<Record<PayScene, string>> = { renewal: '续费扫码支付', cashier_qr: '临时车扫码缴费' };

/** What pays a scene now, by the group's choice and the providers this server runs. */
async function inUse(ctx: GroupCall, scene: PayScene): Promise<string> {
  const flow = SCENE_FLOWS[scene];
  if (!flow) return '尚未接入在线支付';
  const r = await resolveScene(ctx.db, ctx.services, ctx.session.groupId, scene);
  if (!r.provider) return `${flow}：${r.reason ?? '未开通'}`;
  const name = r.provider.name in PAY_CHANNEL_PROVIDER ? enumText(PAY_CHANNEL_PROVIDER, r.provider.name) : r.provider.name;
  return `${flow}：${name}`;
}

const setchannellist = defineMethod('setchannellist', {
  side: 'group',
  roles: WXSYS_ROLES,
  writes: false,
  summary:
    '支付渠道：每个支付场景（业主端缴费、收银台扫码、付款码、续费）选用的渠道（微信支付、支付宝、沙箱）及是否启用，以及各场景的在线支付当前实际经由的渠道',
  async handler(ctx) {
    const rows = await ctx.db.selectFrom('pay_channels').selectAll().where('group_id', '=', ctx.session.groupId).execute();
    const scenes = enumKeys(PAY_SCENE);
    const used = await Promise.all(scenes.map((scene) => inUse(ctx, scene)));
    const items: PayChannelItem[] = scenes.map((scene, i) => {
      const r = rows.find((x) => x.scene === scene);
      return {
        scene,
        scene_ch: enumText(PAY_SCENE, scene),
        provider: r?.provider ?? '',
        provider_ch: r ? enumText(PAY_CHANNEL_PROVIDER, r.provider) : '未选择',
        enabled: r?.enabled === 'Y' ? 'Y' : 'N',
        remark: r?.remark ?? '',
        in_use: used[i]!,
        update_time: r ? wireTime(r.updated_at) : '',
      };
    });
    return { items };
  },
});

const setchanneledit = defineMethod('setchanneledit', {
  side: 'group',
  roles: WXSYS_ROLES,
  writes: true,
  summary: '设置支付场景的渠道：微信支付或支付宝须先在支付商户设置中有启用的该渠道商户（续费除外）；沙箱仅限测试环境',
  async handler(ctx, input) {
    const provider: PayChannelProvider = input.provider;
    if (provider === 'sandbox' && !ctx.config.sandbox) fail('沙箱渠道只能在测试环境使用');
    if (input.enabled === 'Y' && provider !== 'sandbox' && input.scene !== 'renewal') {
      const merchant = await ctx.db
        .selectFrom('pay_merchants')
        .select('id')
        .where('group_id', '=', ctx.session.groupId)
        .where('provider', '=', provider)
        .where('status', '=', 'Y')
        .executeTakeFirst();
      if (!merchant) fail(`请先在“支付商户设置”中添加并启用${enumText(PAY_CHANNEL_PROVIDER, provider)}商户`);
    }
    const values = {
      provider,
      enabled: input.enabled,
      remark: input.remark,
      updated_at: sql<Date>`now()`,
      updated_by: ctx.session.accountId,
    };
    await ctx.db
      .insertInto('pay_channels')
      .values({ ...values, group_id: ctx.session.groupId, scene: input.scene })
      .onConflict((oc) => oc.columns(['group_id', 'scene']).doUpdateSet(values))
      .execute();
    return reply({ scene: input.scene }, '保存成功');
  },
});

export const wxsysMethods = [setwxsysinfo, setwxsysedit, setwxsystest];
export const setchannelMethods = [setchannellist, setchanneledit];
