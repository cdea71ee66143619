import crypto from 'node:crypto';
import { ALIPAY_APP_ID_RE, WECHAT_APIV3_RE, WECHAT_APP_ID_RE, WECHAT_MCH_ID_RE, WECHAT_SERIAL_RE } from '@wuye/contract';

/**
 * A group's payment merchant as a provider is asked to check it (支付商户, /setup/setpay): the
 * fields in the clear, the keys opened from their sealed form just for the call.
 */
export interface MerchantCredentials {
  provider: 'wechat' | 'alipay';
  mchId: string;
  appId: string;
  serialNo: string;
  /** 微信支付 APIv3 密钥 */
  apiV3Key: string;
  /** 微信支付商户私钥 or 支付宝应用私钥 */
  privateKey: string;
  /** 支付宝公钥 */
  publicKey: string;
}

export interface MerchantTestResult {
  ok: boolean;
  message: string;
}

/** A key as PEM, from PEM text or bare base64 (as the providers' consoles hand them out). */
function pem(text: string, kind: 'PRIVATE KEY' | 'PUBLIC KEY'): string {
  const t = text.trim();
  if (t.startsWith('-----BEGIN')) return t;
  const body = t.replace(/\s+/g, '');
  return `-----BEGIN ${kind}-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END ${kind}-----\n`;
}

function readsAsPrivateKey(text: string): boolean {
  try {
    const key = crypto.createPrivateKey(pem(text, 'PRIVATE KEY'));
    return key.asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

function readsAsPublicKey(text: string): boolean {
  try {
    const key = crypto.createPublicKey(pem(text, 'PUBLIC KEY'));
    return key.asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

/**
 * What the providers' sandboxes check before any call: every field the provider needs is there and
 * well formed (the ids' formats, the APIv3 key's 32 characters, the RSA keys readable). The first
 * problem found is the answer, in words an operator can act on.
 */
export function checkMerchantCredentials(c: MerchantCredentials): MerchantTestResult {
  const problems: string[] = [];
  if (c.provider === 'wechat') {
    if (!c.mchId) problems.push('未填写商户号');
    else if (!WECHAT_MCH_ID_RE.test(c.mchId)) problems.push('商户号应为8至12位数字');
    if (!c.appId) problems.push('未填写AppID');
    else if (!WECHAT_APP_ID_RE.test(c.appId)) problems.push('AppID应以wx开头，共18位');
    if (!c.serialNo) problems.push('未填写证书序列号');
    else if (!WECHAT_SERIAL_RE.test(c.serialNo)) problems.push('证书序列号应为十六进制字符');
    if (!c.apiV3Key) problems.push('未设置APIv3密钥');
    else if (!WECHAT_APIV3_RE.test(c.apiV3Key)) problems.push('APIv3密钥应为32位字母或数字');
    if (!c.privateKey) problems.push('未设置商户私钥');
    else if (!readsAsPrivateKey(c.privateKey)) problems.push('商户私钥无法读取，请粘贴 apiclient_key.pem 的完整内容');
    const base = '微信支付';
    return problems.length
      ? { ok: false, message: `${base}测试未通过：${problems.join('；')}` }
      : { ok: true, message: `${base}测试通过：商户号 ${c.mchId} 的参数完整（沙箱）` };
  }
  if (!c.appId) problems.push('未填写AppID');
  else if (!ALIPAY_APP_ID_RE.test(c.appId)) problems.push('支付宝AppID应为16位数字');
  if (!c.privateKey) problems.push('未设置应用私钥');
  else if (!readsAsPrivateKey(c.privateKey)) problems.push('应用私钥无法读取，请粘贴RSA2私钥的完整内容');
  if (!c.publicKey) problems.push('未设置支付宝公钥');
  else if (!readsAsPublicKey(c.publicKey)) problems.push('支付宝公钥无法读取，请粘贴开放平台中的支付宝公钥');
  return problems.length
    ? { ok: false, message: `支付宝测试未通过：${problems.join('；')}` }
    : { ok: true, message: `支付宝测试通过：应用 ${c.appId} 的参数完整（沙箱）` };
}
