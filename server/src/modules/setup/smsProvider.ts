/**
 * The SMS provider interface every message of the product goes through (SMS jobs, resends; next
 * the steward's re-send to unread and the fees area's dunning notices), with two implementations
 * arranged like the payment provider (server/src/payments/provider.ts):
 *
 * - AliyunSmsProvider: Aliyun's 短信服务 (dysmsapi, API version 2017-05-25) over its real HTTP API:
 *   RPC-style requests signed with HMAC-SHA1 (SignatureVersion 1.0): SendSms, QuerySendDetails
 *   (receipts, and finding a message by our OutId after a crash) and QuerySmsSign (test connection).
 * - SandboxSmsProvider: keeps every message in sms_sandbox_outbox and reports it delivered after a
 *   delay; a configured mobile suffix fails deterministically (the demo's partly failed job).
 *
 * A community without a configured provider sends through the sandbox, and the pages say so.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { decryptSecret, secretsKey } from '../../lib/secrets.js';
import { quotaProvider } from '../leader/smsQuota.js';

export interface SmsMessage {
  mobile: string;
  signName: string;
  templateCode: string;
  /** the template's variables */
  params: Record<string, string>;
  /** the rendered text (the sandbox keeps it; a real provider renders its own copy of the template) */
  content: string;
  /** our id of the message, given to the provider, to find it again after a crash */
  outId: string;
}

export type SendResult = { ok: true; bizId: string } | { ok: false; code: string; reason: string };

export interface Receipt {
  outId: string;
  status: 'W' | 'Y' | 'N';
  code?: string;
  reason?: string;
  at?: Date;
}

export interface SmsProvider {
  readonly name: 'sandbox' | 'aliyun';
  send(msg: SmsMessage): Promise<SendResult>;
  /** the delivery receipts of submitted messages */
  receipts(items: Array<{ outId: string; mobile: string; bizId: string; submittedAt: Date }>): Promise<Receipt[]>;
  /** whether the provider received a message of ours (by out id) and its biz id: a claimed message's fate after a crash */
  lookup(item: { outId: string; mobile: string; claimedAt: Date }): Promise<{ bizId: string } | null>;
  /** checks the credentials and the signature; the provider's own answer on failure */
  test(): Promise<{ ok: boolean; message: string }>;
}

// ------------------------------------------------------------------------------------ Aliyun

/** RFC 3986 encoding as Aliyun's signature wants it (space %20, * %2A, ~ kept). */
export function aliyunEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The signed query of an RPC call: StringToSign = GET&%2F&encode(sorted query), key = secret + '&'. */
export function aliyunSignedQuery(params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${aliyunEncode(k)}=${aliyunEncode(params[k]!)}`)
    .join('&');
  const toSign = `GET&${aliyunEncode('/')}&${aliyunEncode(canonical)}`;
  const signature = crypto.createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
  return `Signature=${aliyunEncode(signature)}&${canonical}`;
}

export interface AliyunConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  region: string;
  /** https://dysmsapi.aliyuncs.com; SMS_ALIYUN_ENDPOINT for a test double */
  endpoint?: string;
}

const SEND_STATUS: Record<number, 'W' | 'Y' | 'N'> = { 1: 'W', 2: 'N', 3: 'Y' };

/** yyyyMMdd of a time in China (Aliyun's SendDate). */
const chinaDay = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');

export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  constructor(private readonly cfg: AliyunConfig) {}

  private async call(action: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    const all: Record<string, string> = {
      AccessKeyId: this.cfg.accessKeyId,
      Action: action,
      Format: 'JSON',
      RegionId: this.cfg.region || 'cn-hangzhou',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: crypto.randomUUID(),
      SignatureVersion: '1.0',
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
      ...params,
    };
    const endpoint = this.cfg.endpoint ?? process.env.SMS_ALIYUN_ENDPOINT ?? 'https://dysmsapi.aliyuncs.com';
    const res = await fetch(`${endpoint}/?${aliyunSignedQuery(all, this.cfg.accessKeySecret)}`, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok && !body.Code) return { Code: `HTTP_${res.status}`, Message: `服务商返回 HTTP ${res.status}` };
    return body;
  }

  async send(msg: SmsMessage): Promise<SendResult> {
    try {
      const body = await this.call('SendSms', {
        PhoneNumbers: msg.mobile,
        SignName: msg.signName || this.cfg.signName,
        TemplateCode: msg.templateCode,
        TemplateParam: JSON.stringify(msg.params),
        OutId: msg.outId,
      });
      if (body.Code === 'OK') return { ok: true, bizId: String(body.BizId ?? '') };
      return { ok: false, code: String(body.Code ?? 'UNKNOWN'), reason: String(body.Message ?? '服务商未说明原因') };
    } catch (err) {
      return { ok: false, code: 'NETWORK', reason: `连接服务商失败：${(err as Error).message}` };
    }
  }

  private async details(mobile: string, day: Date, bizId = ''): Promise<Array<Record<string, unknown>>> {
    const body = await this.call('QuerySendDetails', {
      PhoneNumber: mobile,
      SendDate: chinaDay(day),
      PageSize: '50',
      CurrentPage: '1',
      ...(bizId ? { BizId: bizId } : {}),
    });
    if (body.Code !== 'OK') return [];
    const dto = (body.SmsSendDetailDTOs as { SmsSendDetailDTO?: Array<Record<string, unknown>> } | undefined)?.SmsSendDetailDTO;
    return dto ?? [];
  }

  async receipts(items: Array<{ outId: string; mobile: string; bizId: string; submittedAt: Date }>): Promise<Receipt[]> {
    const out: Receipt[] = [];
    for (const it of items) {
      const found = (await this.details(it.mobile, it.submittedAt, it.bizId).catch(() => []))[0];
      if (!found) continue;
      const status = SEND_STATUS[Number(found.SendStatus)] ?? 'W';
      out.push({
        outId: it.outId,
        status,
        code: status === 'N' ? String(found.ErrCode ?? '') : '',
        reason: status === 'N' ? String(found.ErrCode ?? '') : '',
        at: found.ReceiveDate ? new Date(`${String(found.ReceiveDate).replace(' ', 'T')}+08:00`) : undefined,
      });
    }
    return out;
  }

  async lookup(item: { outId: string; mobile: string; claimedAt: Date }): Promise<{ bizId: string } | null> {
    const rows = await this.details(item.mobile, item.claimedAt);
    const found = rows.find((r) => r.OutId === item.outId);
    return found ? { bizId: String(found.BizId ?? '') } : null;
  }

  async test(): Promise<{ ok: boolean; message: string }> {
    try {
      const body = await this.call('QuerySmsSign', { SignName: this.cfg.signName });
      if (body.Code !== 'OK') return { ok: false, message: `${String(body.Code)}：${String(body.Message ?? '')}` };
      const status = Number(body.SignStatus);
      if (status !== 1) return { ok: false, message: `签名“${this.cfg.signName}”${status === 0 ? '审核中' : '未通过审核'}` };
      return { ok: true, message: `连接成功，签名“${this.cfg.signName}”已通过审核` };
    } catch (err) {
      return { ok: false, message: `连接服务商失败：${(err as Error).message}` };
    }
  }
}

// ------------------------------------------------------------------------------------ sandbox

/** How long after submission the sandbox reports a message delivered. */
export const SANDBOX_DELIVERY_MS = Number(process.env.SMS_SANDBOX_DELIVERY_MS ?? 2000);

export class SandboxSmsProvider implements SmsProvider {
  readonly name = 'sandbox';
  constructor(
    private readonly db: Kysely<DB>,
    private readonly rid: number,
    private readonly failSuffix: string,
  ) {}

  async send(msg: SmsMessage): Promise<SendResult> {
    const failed = this.failSuffix !== '' && msg.mobile.endsWith(this.failSuffix);
    const code = failed ? 'isv.BUSINESS_LIMIT_CONTROL' : 'OK';
    const bizId = `SB${crypto.randomBytes(8).toString('hex')}`;
    // the outbox keeps every message it was given, failed ones too, once per out id
    await this.db
      .insertInto('sms_sandbox_outbox')
      .values({
        rid: this.rid,
        out_id: msg.outId,
        biz_id: bizId,
        mobile: msg.mobile,
        sign_name: msg.signName,
        template_code: msg.templateCode,
        params: JSON.stringify(msg.params),
        content: msg.content,
        failed,
        code,
      })
      .execute();
    if (failed) return { ok: false, code, reason: '沙箱：该尾号按设置模拟发送失败（触发号码频控）' };
    return { ok: true, bizId };
  }

  async receipts(items: Array<{ outId: string }>): Promise<Receipt[]> {
    if (!items.length) return [];
    const rows = await this.db
      .selectFrom('sms_sandbox_outbox')
      .select([
        'out_id',
        'failed',
        'created_at',
        sql<boolean>`created_at <= now() - make_interval(secs => ${SANDBOX_DELIVERY_MS / 1000})`.as('due'),
      ])
      .where(
        'out_id',
        'in',
        items.map((i) => i.outId),
      )
      .execute();
    return rows
      .filter((r) => r.due && !r.failed)
      .map((r) => ({ outId: r.out_id, status: 'Y' as const, at: new Date(new Date(r.created_at).getTime() + SANDBOX_DELIVERY_MS) }));
  }

  async lookup(item: { outId: string }): Promise<{ bizId: string } | null> {
    const row = await this.db
      .selectFrom('sms_sandbox_outbox')
      .select(['biz_id', 'failed'])
      .where('out_id', '=', item.outId)
      .executeTakeFirst();
    return row && !row.failed ? { bizId: row.biz_id } : null;
  }

  async test(): Promise<{ ok: boolean; message: string }> {
    return { ok: true, message: '沙箱通道可用：短信只记录在沙箱中，不会真实发送' };
  }
}

// ------------------------------------------------------------------------------------ choosing

export interface SmsSettingRow {
  provider: 'sandbox' | 'aliyun';
  access_key_id: string;
  secret_blob: string;
  sign_name: string;
  region: string;
  sandbox_fail_suffix: string;
}

export async function smsSettingsOf(db: Kysely<DB>, rid: number): Promise<SmsSettingRow | undefined> {
  return db
    .selectFrom('sms_settings')
    .select(['provider', 'access_key_id', 'secret_blob', 'sign_name', 'region', 'sandbox_fail_suffix'])
    .where('rid', '=', rid)
    .executeTakeFirst() as Promise<SmsSettingRow | undefined>;
}

/** Aliyun when its key, secret and signature are all set; otherwise the sandbox. */
export const aliyunConfigured = (s: SmsSettingRow | undefined): boolean =>
  !!s && s.provider === 'aliyun' && !!s.access_key_id && !!s.secret_blob && !!s.sign_name;

/**
 * The provider a community's messages go through now, and its signature. Every send is paid from
 * the group's SMS quota first (modules/leader/smsQuota.ts): a group without a package sends as
 * before; at zero the send answers 短信余量不足 without reaching the provider.
 */
export async function smsProviderFor(db: Kysely<DB>, rid: number, dataDir: string): Promise<{ provider: SmsProvider; signName: string }> {
  const chosen = await chooseProvider(db, rid, dataDir);
  return { provider: quotaProvider(db, rid, chosen.provider), signName: chosen.signName };
}

async function chooseProvider(db: Kysely<DB>, rid: number, dataDir: string): Promise<{ provider: SmsProvider; signName: string }> {
  const s = await smsSettingsOf(db, rid);
  if (aliyunConfigured(s)) {
    const secret = decryptSecret(s!.secret_blob, secretsKey(dataDir));
    return {
      provider: new AliyunSmsProvider({
        accessKeyId: s!.access_key_id,
        accessKeySecret: secret,
        signName: s!.sign_name,
        region: s!.region,
      }),
      signName: s!.sign_name,
    };
  }
  return { provider: new SandboxSmsProvider(db, rid, s?.sandbox_fail_suffix ?? ''), signName: s?.sign_name || '物业服务' };
}
