import crypto from 'node:crypto';
import { smsSegments, smsTemplate, smsUnsub } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';
import { describeResource } from '../../test/describeResource.js';
import { today } from '../../lib/wire.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { aliyunSignedQuery, AliyunSmsProvider, SandboxSmsProvider, type SmsProvider } from './smsProvider.js';
import { afterQuietHours, inQuietHours, runSmsJob } from './smsSend.js';

process.env.SECRETS_KEY ??= crypto.randomBytes(32).toString('hex');

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin');
});
afterAll(() => s?.close());

const db = () => s.database.db;
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};

describeResource(smsTemplate, {
  server: () => s,
  sample: { code: 'SMS_900001', title: '测试模板', content: '您好，${room}的物业费请于${date}前缴纳。', kind: 'notice', approved: 'Y' },
  edit: { title: '测试模板二', approved: 'N' },
  filters: { code: 'SMS_900001', title: '测试模板', kind: 'notice', approved: 'Y' },
  deniedWriter: 'cashier',
  unique: ['code'],
});

describeResource(smsUnsub, {
  server: () => s,
  sample: { mobile: '13900009999', remark: '业主电话要求' },
  edit: {},
  filters: { mobile: '13900009999' },
  deniedWriter: 'cashier',
  unique: ['mobile'],
});

/** An approved template of the community (created once per code). */
async function template(code: string, content: string, approved: 'Y' | 'N' = 'Y'): Promise<number> {
  const list = ok(await s.call('smstemplatelist', { code, limit: 10 }, admin)).items as Array<{ id: number; code: string }>;
  const found = list.find((t) => t.code === code);
  if (found) return found.id;
  return ok(await s.call('smstemplateadd', { code, title: code, content, kind: 'notice', approved }, admin)).id;
}

/** The first two buildings of community 1 (the demo's 1号楼 and 2号楼). */
async function twoBuildings(): Promise<number[]> {
  const rows = await db().selectFrom('buildings').select('id').where('rid', '=', 1).orderBy('sort').orderBy('id').limit(2).execute();
  return rows.map((r) => r.id);
}

const ARREARS = '尊敬的${name}，您的房屋${room}尚欠物业费${amount}元，请尽快缴纳。';

async function arrearsJob(extra: Record<string, unknown> = {}): Promise<number> {
  const tpl = await template('SMS_ARREARS1', ARREARS);
  return ok(
    await s.call(
      'smsjobadd',
      {
        name: '欠费催缴（1、2号楼）',
        kind: 'arrears',
        template_id: tpl,
        var_map: { name: { source: 'name' }, room: { source: 'room' }, amount: { source: 'amount' } },
        audience: { type: 'arrears', bids: await twoBuildings(), min_amount: '0.01', months: 0 },
        schedule: 'now',
        urgent: 'Y',
        dedupe_days: 0,
        ...extra,
      },
      admin,
    ),
  ).id;
}

async function startNow(id: number) {
  const p = ok(await s.call('smsjobpreview', { id }, admin));
  return { preview: p, answer: await s.call('smsjobstart', { id, confirm_count: p.messages }, admin) };
}

const messagesOf = (id: number) =>
  db().selectFrom('sms_messages').selectAll().where('rid', '=', 1).where('sms_job_id', '=', id).orderBy('id').execute();

describe('sms: segments and quiet hours', () => {
  it('counts 70 characters as one message and 67 a segment beyond', () => {
    expect(smsSegments('')).toBe(0);
    expect(smsSegments('字'.repeat(70))).toBe(1);
    expect(smsSegments('字'.repeat(71))).toBe(2);
    expect(smsSegments('字'.repeat(134))).toBe(2);
    expect(smsSegments('字'.repeat(135))).toBe(3);
    expect(smsSegments('a'.repeat(71))).toBe(2);
  });

  it('knows 21:00 to 08:00 business time as quiet, and the next 08:00', () => {
    // 2026-11-29 22:30 in Shanghai is 14:30 UTC
    expect(inQuietHours(new Date('2026-11-29T14:30:00Z'))).toBe(true);
    expect(afterQuietHours(new Date('2026-11-29T14:30:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    // 07:59 is quiet, 08:00 and 20:59 are not
    expect(inQuietHours(new Date('2026-11-29T23:59:00Z'))).toBe(true);
    expect(afterQuietHours(new Date('2026-11-29T23:59:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(inQuietHours(new Date('2026-11-30T00:00:00Z'))).toBe(false);
    expect(inQuietHours(new Date('2026-11-30T12:59:00Z'))).toBe(false);
    expect(inQuietHours(new Date('2026-11-30T13:00:00Z'))).toBe(true);
  });
});

describe('sms: settings and the Aliyun provider', () => {
  it('signs a request as Aliyun documents it (its published example)', () => {
    const q = aliyunSignedQuery(
      {
        AccessKeyId: 'testId',
        Action: 'SendSms',
        Format: 'XML',
        OutId: '123',
        PhoneNumbers: '15300000001',
        RegionId: 'cn-hangzhou',
        SignName: '阿里云短信测试专用',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
        SignatureVersion: '1.0',
        TemplateCode: 'SMS_71390007',
        TemplateParam: '{"customer":"test"}',
        Timestamp: '2017-07-12T02:42:19Z',
        Version: '2017-05-25',
      },
      'testSecret',
    );
    expect(q.startsWith('Signature=zJDF%2BLrzhj%2FThnlvIToysFRq6t4%3D&')).toBe(true);
  });

  it('sends through a double of the Aliyun API that checks the signature, and shows its errors verbatim', async () => {
    const http = await import('node:http');
    const seen: Array<Record<string, string>> = [];
    const server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const params = Object.fromEntries(url.searchParams);
      const { Signature, ...rest } = params;
      const expected = new URLSearchParams(aliyunSignedQuery(rest, 'S3cretKeyABCD').replace(/\+/g, '%2B')).get('Signature');
      seen.push(params);
      res.setHeader('content-type', 'application/json');
      if (Signature !== expected)
        return res.end(
          JSON.stringify({ Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' }),
        );
      if (params.Action === 'SendSms')
        return res.end(
          params.PhoneNumbers === '13000000000'
            ? JSON.stringify({ Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' })
            : JSON.stringify({ Code: 'OK', BizId: 'B1' }),
        );
      if (params.Action === 'QuerySmsSign') return res.end(JSON.stringify({ Code: 'OK', SignStatus: 1 }));
      if (params.Action === 'QuerySendDetails')
        return res.end(
          JSON.stringify({
            Code: 'OK',
            SmsSendDetailDTOs: { SmsSendDetailDTO: [{ OutId: 'o-1', BizId: 'B1', SendStatus: 3, ReceiveDate: '2026-11-29 10:00:00' }] },
          }),
        );
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const good = new AliyunSmsProvider({
        accessKeyId: 'LTAI5tTest',
        accessKeySecret: 'S3cretKeyABCD',
        signName: '阳光物业',
        region: 'cn-hangzhou',
        endpoint,
      });
      const msg = {
        mobile: '13800138000',
        signName: '阳光物业',
        templateCode: 'SMS_1',
        params: { room: '1-1-101' },
        content: '',
        outId: 'o-1',
      };
      expect(await good.send(msg)).toEqual({ ok: true, bizId: 'B1' });
      expect(JSON.parse(seen.at(-1)!.TemplateParam!)).toEqual({ room: '1-1-101' });
      expect(seen.at(-1)!.OutId).toBe('o-1');
      expect(await good.send({ ...msg, mobile: '13000000000' })).toEqual({
        ok: false,
        code: 'isv.MOBILE_NUMBER_ILLEGAL',
        reason: '非法手机号',
      });
      expect((await good.test()).ok).toBe(true);
      expect(await good.lookup({ outId: 'o-1', mobile: '13800138000', claimedAt: new Date() })).toEqual({ bizId: 'B1' });
      expect(await good.lookup({ outId: 'o-2', mobile: '13800138000', claimedAt: new Date() })).toBeNull();
      const [receipt] = await good.receipts([{ outId: 'o-1', mobile: '13800138000', bizId: 'B1', submittedAt: new Date() }]);
      expect(receipt!.status).toBe('Y');
      const bad = new AliyunSmsProvider({
        accessKeyId: 'LTAI5tTest',
        accessKeySecret: 'wrong',
        signName: '阳光物业',
        region: 'cn-hangzhou',
        endpoint,
      });
      const refused = await bad.test();
      expect(refused.ok).toBe(false);
      expect(refused.message).toContain('SignatureDoesNotMatch');
    } finally {
      server.close();
    }
  });

  it('keeps the secret encrypted, answers only its last four characters, and keeps it when left empty', async () => {
    const before = ok(await s.call('smssetting', {}, admin));
    expect(before.active).toBe('sandbox');
    const saved = await s.call(
      'smssettingset',
      {
        provider: 'aliyun',
        access_key_id: 'LTAI5tAbCdEf',
        access_key_secret: 'MySecretValue9Z2b',
        sign_name: '阳光物业',
        region: 'cn-hangzhou',
      },
      admin,
    );
    expect(JSON.stringify(saved)).not.toContain('MySecretValue9Z2b');
    expect(ok(saved).secret_masked).toBe('••••9Z2b');
    expect(ok(saved).active).toBe('aliyun');
    const row = await db().selectFrom('sms_settings').selectAll().where('rid', '=', 1).executeTakeFirstOrThrow();
    expect(row.secret_blob).not.toContain('MySecretValue');
    expect(decryptSecret(row.secret_blob, Buffer.from(process.env.SECRETS_KEY!, 'hex'))).toBe('MySecretValue9Z2b');
    // a tampered blob does not open
    const tampered = row.secret_blob.slice(0, -4) + (row.secret_blob.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(() => decryptSecret(tampered, Buffer.from(process.env.SECRETS_KEY!, 'hex'))).toThrow();
    expect(encryptSecret('x', Buffer.alloc(32))).not.toBe(encryptSecret('x', Buffer.alloc(32)));
    // left empty: kept
    ok(await s.call('smssetting', {}, admin));
    const again = ok(
      await s.call(
        'smssettingset',
        { provider: 'aliyun', access_key_id: 'LTAI5tAbCdEf', access_key_secret: '', sign_name: '阳光物业' },
        admin,
      ),
    );
    expect(again.secret_masked).toBe('••••9Z2b');
    // nothing of it in the audit log
    const audit = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log WHERE payload::text LIKE '%MySecretValue%'`
      .execute(db())
      .catch(() => ({ rows: [{ n: 0 }] }));
    expect(audit.rows[0]!.n).toBe(0);
    // refusals
    const noSign = await s.call('smssettingset', { provider: 'aliyun', access_key_id: 'LTAI5tAbCdEf', sign_name: '' }, admin);
    expect(noSign.return_msg).toBe('请输入短信签名（须已在服务商审核通过）');
    const cashier = await s.login('cashier');
    expect((await s.call('smssetting', {}, cashier)).return_code).not.toBe('SUCCESS');
    // back to the sandbox for the rest of the file
    const back = ok(await s.call('smssettingset', { provider: 'sandbox', sign_name: '阳光物业' }, admin));
    expect(back.active).toBe('sandbox');
    const test = ok(await s.call('smstest', {}, admin));
    expect(test.ok).toBe(true);
    expect(test.message).toContain('沙箱');
  });
});

describe('sms: an arrears reminder for buildings 1 and 2', () => {
  it('previews recipients and the count, sends each message once, and logs them', async () => {
    const id = await arrearsJob();
    const { preview, answer } = await startNow(id);
    expect(preview.recipients).toBeGreaterThan(0);
    expect(preview.messages).toBeGreaterThanOrEqual(preview.recipients);
    expect(preview.sample).toMatch(/^【阳光物业】尊敬的.+，您的房屋.+尚欠物业费\d+\.\d{2}元/);
    expect(answer.return_code, answer.return_msg).toBe('SUCCESS');
    expect(answer.data.status).toBe('P');
    await s.runJobs();
    const info = ok(await s.call('smsjobinfo', { id }, admin));
    expect(info.status_ch).toBe('已完成');
    expect(info.sent).toBe(preview.recipients);
    const msgs = await messagesOf(id);
    expect(msgs).toHaveLength(preview.recipients);
    expect(msgs.reduce((n, m) => n + m.segments, 0)).toBe(preview.messages);
    // every owner in the two buildings with unpaid bills due by today (months 0), and nobody else
    const bids = await twoBuildings();
    const expected = await sql<{ mobile: string }>`
      SELECT DISTINCT m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      WHERE rm.rid = 1 AND rm.relation = 'owner' AND rm.status = 'Y' AND m.mobile <> '' AND r.bid = ANY(${bids}::int[])
        AND EXISTS (SELECT 1 FROM fee_bills b WHERE b.rid = 1 AND b.hid = r.id AND b.status IN ('E', 'N') AND b.due_date <= ${today()}::date)`.execute(
      db(),
    );
    expect(new Set(msgs.map((m) => m.mobile))).toEqual(new Set(expected.rows.map((r) => r.mobile)));
    const outbox = await db()
      .selectFrom('sms_sandbox_outbox')
      .select(['out_id', 'content'])
      .where(
        'out_id',
        'in',
        msgs.map((m) => m.out_id),
      )
      .execute();
    expect(outbox).toHaveLength(msgs.length);
    // the log: masked mobiles, the rendered text, submitted
    const log = ok(await s.call('smsjoblog', { sms_job_id: id, limit: 200 }, admin));
    expect(log.total).toBe(msgs.length);
    expect(log.items[0].mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
    expect(log.items[0].submit_status_ch).toBe('已提交');
    expect(log.items[0].content).toContain('尚欠物业费');
    // receipts after the sandbox's delay: 刷新回执 takes those still awaited (the receipts job the
    // sending queued 2.5 s on may already have taken them, when the drain above ran that long)
    await db()
      .updateTable('sms_sandbox_outbox')
      .set({ created_at: sql`now() - interval '1 minute'` })
      .execute();
    const awaited = await db()
      .selectFrom('sms_messages')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('sms_job_id', '=', id)
      .where('receipt_status', '=', 'W')
      .executeTakeFirstOrThrow();
    const r = ok(await s.call('smsreceipts', {}, admin));
    expect(r.updated).toBeGreaterThanOrEqual(awaited.n);
    const delivered = ok(await s.call('smsjoblog', { sms_job_id: id, receipt_status: 'Y', limit: 200 }, admin));
    expect(delivered.total).toBe(msgs.length);
    // export
    const file = await s.exportFile('smsjoblogexport', { sms_job_id: id }, admin);
    const sheet = await readXlsx(ok(file).content_base64);
    expect(sheet.rows).toHaveLength(msgs.length);
    expect(sheet.headers).toEqual(expect.arrayContaining(['任务', '手机号', '内容', '计费条数', '提交状态', '回执状态']));
    // timeline
    const flow = ok(await s.call('smsjobflowlog', { id }, admin)).items.map((i: { to_state_ch: string }) => i.to_state_ch);
    expect(flow).toEqual(['草稿', '待发送', '发送中', '已完成']);
    // a started job is neither edited nor started again
    expect((await s.call('smsjobstart', { id, confirm_count: preview.messages }, admin)).return_msg).toBe('该短信任务已处理');
    expect((await s.call('smsjobdel', { id }, admin)).return_msg).toBe('只有草稿状态的短信任务可以修改或删除');
  });

  it('refuses a start whose confirmed count is not the current estimate', async () => {
    const id = await arrearsJob();
    const p = ok(await s.call('smsjobpreview', { id }, admin));
    const res = await s.call('smsjobstart', { id, confirm_count: p.messages + 1 }, admin);
    expect(res.return_msg).toBe(`预计条数已变为 ${p.messages} 条，请重新预览后再开始`);
    expect(ok(await s.call('smsjobinfo', { id }, admin)).status).toBe('D');
    ok(await s.call('smsjobdel', { id }, admin));
  });

  it('leaves out the unsubscribed and those reminded within the window', async () => {
    const first = await arrearsJob({ dedupe_days: 7 });
    const p = ok(await s.call('smsjobpreview', { id: first }, admin));
    // the job before this one reminded them all today
    expect(p.recipients).toBe(0);
    expect(p.skipped_dedupe).toBeGreaterThan(0);
    expect((await s.call('smsjobstart', { id: first, confirm_count: 0 }, admin)).return_msg).toBe('没有符合条件的接收人');
    const noWindow = await arrearsJob();
    const all = ok(await s.call('smsjobpreview', { id: noWindow }, admin));
    const someone = (
      await messagesOf(
        (await db().selectFrom('sms_jobs').select('id').where('status', '=', 'Y').orderBy('id').executeTakeFirstOrThrow()).id,
      )
    )[0]!;
    ok(await s.call('smsunsubadd', { mobile: someone.mobile }, admin));
    const less = ok(await s.call('smsjobpreview', { id: noWindow }, admin));
    expect(less.recipients).toBe(all.recipients - 1);
    expect(less.skipped_unsub).toBe(1);
    const unsub = ok(await s.call('smsunsublist', { mobile: someone.mobile }, admin)).items[0];
    ok(await s.call('smsunsubdel', { id: unsub.id }, admin));
  });

  it('pauses a job that is not urgent in quiet hours and carries on at 08:00', async () => {
    const id = await arrearsJob({ urgent: 'N' });
    const p = ok(await s.call('smsjobpreview', { id }, admin));
    await db().updateTable('sms_jobs').set({ status: 'P' }).where('rid', '=', 1).where('id', '=', id).execute();
    const sandbox = new SandboxSmsProvider(db(), 1, '');
    const night = new Date('2026-11-29T14:30:00Z');
    const res = await runSmsJob(db(), 1, id, { provider: sandbox, signName: '阳光物业', queueJobId: 0, now: () => night });
    expect(res).toMatchObject({ paused: true, sent: 0 });
    const row = await db()
      .selectFrom('sms_jobs')
      .select(['status', 'job_id', 'next_run_at'])
      .where('rid', '=', 1)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('S');
    const queued = await db()
      .selectFrom('jobs')
      .select(['status', 'run_after'])
      .where('id', '=', Number(row.job_id))
      .executeTakeFirstOrThrow();
    expect(queued.status).toBe('queued');
    expect(new Date(queued.run_after!).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect((await messagesOf(id)).every((m) => m.submit_status === 'W')).toBe(true);
    // the morning: everything goes, once
    const morning = new Date('2026-11-30T00:00:00Z');
    await runSmsJob(db(), 1, id, { provider: sandbox, signName: '阳光物业', queueJobId: 0, now: () => morning });
    const msgs = await messagesOf(id);
    expect(msgs.filter((m) => m.submit_status === 'S')).toHaveLength(p.recipients);
    await db().updateTable('jobs').set({ status: 'cancelled' }).where('id', '=', Number(row.job_id)).execute();
  });

  it('sends nothing twice when the worker dies after claiming a message (sent or not)', async () => {
    const id = await arrearsJob();
    const p = ok(await s.call('smsjobpreview', { id }, admin));
    expect(p.recipients).toBeGreaterThanOrEqual(4);
    await db().updateTable('sms_jobs').set({ status: 'P' }).where('rid', '=', 1).where('id', '=', id).execute();
    const sandbox = new SandboxSmsProvider(db(), 1, '');
    let calls = 0;
    class Died extends Error {}
    // the 2nd message reaches the provider, then the process dies before its outcome is written
    const diesAfterSending: SmsProvider = Object.assign(Object.create(sandbox) as SmsProvider, {
      async send(m: Parameters<SmsProvider['send']>[0]) {
        calls++;
        if (calls === 2) {
          await sandbox.send(m);
          throw new Died('killed');
        }
        return sandbox.send(m);
      },
    });
    await expect(runSmsJob(db(), 1, id, { provider: diesAfterSending, signName: '阳光物业', queueJobId: 0 })).rejects.toThrow('killed');
    let msgs = await messagesOf(id);
    expect(msgs.filter((m) => m.submit_status === 'C')).toHaveLength(1);
    // the 3rd: claimed, and the process dies before the provider is called
    calls = 0;
    const diesBeforeSending: SmsProvider = Object.assign(Object.create(sandbox) as SmsProvider, {
      async send() {
        throw new Died('killed');
      },
    });
    // the claimed one is settled first (the provider has it), then the next is claimed and lost
    await expect(runSmsJob(db(), 1, id, { provider: diesBeforeSending, signName: '阳光物业', queueJobId: 0 })).rejects.toThrow('killed');
    msgs = await messagesOf(id);
    expect(msgs.filter((m) => m.submit_status === 'S')).toHaveLength(2);
    expect(msgs.filter((m) => m.submit_status === 'C')).toHaveLength(1);
    // started again: runs to the end
    await runSmsJob(db(), 1, id, { provider: sandbox, signName: '阳光物业', queueJobId: 0 });
    msgs = await messagesOf(id);
    const outbox = await db()
      .selectFrom('sms_sandbox_outbox')
      .select('mobile')
      .where(
        'out_id',
        'in',
        msgs.map((m) => m.out_id),
      )
      .execute();
    // each mobile at the provider at most once; the one never sent is failed as interrupted, not resent by itself
    expect(new Set(outbox.map((o) => o.mobile)).size).toBe(outbox.length);
    expect(outbox).toHaveLength(p.recipients - 1);
    const interrupted = msgs.filter((m) => m.submit_status === 'F');
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]!.code).toBe('INTERRUPTED');
    expect(msgs.filter((m) => m.submit_status === 'S')).toHaveLength(p.recipients - 1);
    expect(ok(await s.call('smsjobinfo', { id }, admin)).status_ch).toBe('部分失败');
    // resent on the operator's word: once
    const resent = ok(await s.call('smsresend', { sms_job_id: id }, admin));
    expect(resent.count).toBe(1);
    await s.runJobs();
    const after = await db().selectFrom('sms_sandbox_outbox').select('mobile').where('mobile', '=', interrupted[0]!.mobile).execute();
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(ok(await s.call('smsjobinfo', { id }, admin)).status_ch).toBe('已完成');
    expect((await s.call('smsresend', { ids: [Number(interrupted[0]!.id)] }, admin)).return_msg).toBe(
      '所选短信不存在、不是发送失败的，或已经重发过',
    );
  });

  it('marks a partly failed job, and resends its failures', async () => {
    ok(await s.call('smssettingset', { provider: 'sandbox', sign_name: '阳光物业', sandbox_fail_suffix: '1' }, admin));
    const id = await arrearsJob();
    await startNow(id);
    await s.runJobs();
    const msgs = await messagesOf(id);
    const failing = msgs.filter((m) => m.mobile.endsWith('1'));
    expect(failing.length).toBeGreaterThan(0);
    const info = ok(await s.call('smsjobinfo', { id }, admin));
    expect(info.status_ch).toBe('部分失败');
    expect(info.failed).toBe(failing.length);
    const failedLog = ok(await s.call('smsjoblog', { sms_job_id: id, submit_status: 'F', limit: 200 }, admin));
    expect(failedLog.total).toBe(failing.length);
    expect(failedLog.items[0].code).toBe('isv.BUSINESS_LIMIT_CONTROL');
    expect(failedLog.items[0].reason).toContain('沙箱');
    // the steward may not resend
    const steward = await s.login('steward');
    expect((await s.call('smsresend', { sms_job_id: id }, steward)).return_code).not.toBe('SUCCESS');
    ok(await s.call('smssettingset', { provider: 'sandbox', sign_name: '阳光物业', sandbox_fail_suffix: '' }, admin));
    const one = ok(await s.call('smsresend', { ids: [Number(failing[0]!.id)] }, admin));
    expect(one.count).toBe(1);
    await s.runJobs();
    expect(ok(await s.call('smsjobinfo', { id }, admin)).failed).toBe(failing.length - 1);
  });
});

describe('sms: the rules of a job', () => {
  it("refuses unapproved templates, unmapped variables, empty audiences and other communities' places", async () => {
    const draftTpl = await template('SMS_DRAFT1', '您好${name}', 'N');
    const base = {
      name: '测试',
      kind: 'custom',
      var_map: { name: { source: 'name' } },
      audience: { type: 'all' },
      schedule: 'now',
    };
    expect((await s.call('smsjobadd', { ...base, template_id: draftTpl }, admin)).return_msg).toBe('只能选择已审核的短信模板');
    const tpl = await template('SMS_VARS1', '您好${name}，${date}停水，请提前储水。');
    expect((await s.call('smsjobadd', { ...base, template_id: tpl }, admin)).return_msg).toBe('模板变量 ${date} 还没有设置取值');
    const full = { ...base, template_id: tpl, var_map: { name: { source: 'name' }, date: { source: 'text', text: '12月1日' } } };
    expect((await s.call('smsjobadd', { ...full, audience: { type: 'places' } }, admin)).return_msg).toBe('请选择楼栋或单元');
    const other = await db().selectFrom('buildings').select('id').where('rid', '=', 2).executeTakeFirstOrThrow();
    expect((await s.call('smsjobadd', { ...full, audience: { type: 'places', bids: [other.id] } }, admin)).return_msg).toBe(
      '所选楼栋不存在或不属于当前小区',
    );
    expect((await s.call('smsjobadd', { ...full, audience: { type: 'list', list: [] } }, admin)).return_msg).toBe('请上传或填写发送名单');
    expect((await s.call('smsjobadd', { ...full, audience: { type: 'list', list: [{ mobile: '123' }] } }, admin)).return_code).not.toBe(
      'SUCCESS',
    );
    expect((await s.call('smsjobadd', { ...full, schedule: 'at' }, admin)).return_msg).toBe('请选择定时发送的时间');
    const cashier = await s.login('cashier');
    expect((await s.call('smsjobadd', full, cashier)).return_code).not.toBe('SUCCESS');
    // an uploaded list, rendered with a fixed text
    const id = ok(
      await s.call(
        'smsjobadd',
        { ...full, audience: { type: 'list', list: [{ mobile: '13912345678', name: '张三' }, { mobile: '13912345678' }] } },
        admin,
      ),
    ).id;
    const p = ok(await s.call('smsjobpreview', { id }, admin));
    expect(p.recipients).toBe(1);
    expect(p.sample).toBe('【阳光物业】您好张三，12月1日停水，请提前储水。');
    // edit a draft, cancel it
    ok(await s.call('smsjobedit', { id, ...full, name: '停水通知', audience: { type: 'staff' } }, admin));
    expect(ok(await s.call('smsjobinfo', { id }, admin)).name).toBe('停水通知');
    expect(ok(await s.call('smsjobcancel', { id }, admin)).status_ch).toBe('已取消');
    expect((await s.call('smsjobedit', { id, ...full }, admin)).return_msg).toBe('只有草稿状态的短信任务可以修改或删除');
  });

  it('queues a job at its time, and refuses a time gone by', async () => {
    const tpl = await template('SMS_AT1', '您好${name}');
    const job = (run_at: string) =>
      s.call(
        'smsjobadd',
        {
          name: '定时',
          kind: 'activity',
          template_id: tpl,
          var_map: { name: { source: 'name' } },
          audience: { type: 'staff' },
          schedule: 'at',
          run_at,
          urgent: 'Y',
        },
        admin,
      );
    const past = ok(await job('2020-01-01 10:00')).id;
    const pp = ok(await s.call('smsjobpreview', { id: past }, admin));
    expect((await s.call('smsjobstart', { id: past, confirm_count: pp.messages }, admin)).return_msg).toBe(
      '定时发送的时间已过，请修改任务的发送时间',
    );
    const future = ok(await job('2099-01-01 10:00')).id;
    const started = ok(await s.call('smsjobstart', { id: future, confirm_count: pp.messages }, admin));
    expect(started.status_ch).toBe('待发送');
    expect(started.next_run_time).toBe('2099-01-01 10:00:00');
    await s.runJobs();
    expect(ok(await s.call('smsjobinfo', { id: future }, admin)).status).toBe('P');
    const cancelled = ok(await s.call('smsjobcancel', { id: future }, admin));
    expect(cancelled.status_ch).toBe('已取消');
    const q = await db().selectFrom('jobs').select('status').where('id', '=', started.job_id).executeTakeFirstOrThrow();
    expect(q.status).toBe('cancelled');
  });

  it('answers nothing of another community', async () => {
    const id = await arrearsJob();
    const admin2 = await s.login('admin2');
    expect((await s.call('smsjobinfo', { id }, admin2)).return_msg).toBe('短信任务不存在');
    expect((await s.call('smsjobpreview', { id }, admin2)).return_msg).toBe('短信任务不存在');
    expect((await s.call('smsjobstart', { id, confirm_count: 1 }, admin2)).return_msg).toBe('短信任务不存在');
    expect(ok(await s.call('smsjoblog', { sms_job_id: id }, admin2)).total).toBe(0);
    expect(ok(await s.call('smsjoblist', {}, admin2)).items.find((j: { id: number }) => j.id === id)).toBeUndefined();
  });
});

describe('sms: the demo', () => {
  it('has a reminder sent, a notice partly failed in the sandbox, a draft, and their logs', async () => {
    const jobs = await db()
      .selectFrom('sms_jobs')
      .select(['name', 'status', 'sent', 'failed', 'recipients'])
      .where('rid', '=', 1)
      .where('name', 'in', ['11月欠费催缴（1、2号楼）', '3号楼停水通知', '12月缴费提醒'])
      .execute();
    const by = new Map(jobs.map((j) => [j.name, j]));
    expect(by.get('11月欠费催缴（1、2号楼）')).toMatchObject({ status: 'Y', failed: 0 });
    expect(by.get('11月欠费催缴（1、2号楼）')!.sent).toBeGreaterThan(0);
    const partly = by.get('3号楼停水通知')!;
    expect(partly.status).toBe('F');
    expect(partly.failed).toBeGreaterThan(0);
    expect(partly.sent).toBeGreaterThan(0);
    expect(partly.sent + partly.failed).toBe(partly.recipients);
    expect(by.get('12月缴费提醒')!.status).toBe('D');
    const log = ok(await s.call('smsjoblog', { submit_status: 'F', limit: 5 }, admin));
    expect(log.total).toBeGreaterThan(0);
  });
});
