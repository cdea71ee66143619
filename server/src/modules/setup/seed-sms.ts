import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { writeRunMessages } from './smsSend.js';

const TEMPLATES = [
  {
    code: 'SMS_468220001',
    title: '欠费催缴',
    content: '尊敬的${name}，您的房屋${room}尚欠物业费${amount}元，请尽快到物业服务中心或线上缴纳，如已缴纳请忽略。',
    kind: 'notice' as const,
    approved: 'Y' as const,
  },
  {
    code: 'SMS_468220002',
    title: '停水通知',
    content: '尊敬的业主：因管网检修，${room}所在楼栋将于${date}停水，请提前储水，给您带来不便敬请谅解。',
    kind: 'notice' as const,
    approved: 'Y' as const,
  },
  {
    code: 'SMS_468220003',
    title: '缴费提醒',
    content: '尊敬的${name}，${room}的物业费账单已生成，请于月底前缴纳。',
    kind: 'notice' as const,
    approved: 'Y' as const,
  },
  {
    code: 'SMS_468220004',
    title: '社区活动',
    content: '${community}邀您参加周末亲子活动，详情请见业主小程序。',
    kind: 'marketing' as const,
    approved: 'N' as const,
  },
];

/**
 * The demo's messaging (issue 36) in community 1, through the sandbox (no provider configured):
 * templates, an arrears reminder for buildings 1 and 2 sent and delivered ten days ago, a water
 * cut notice a week ago that partly failed (the sandbox failed the mobiles ending in 7, as the
 * settings then said), a payment reminder left as a draft, and an unsubscribed number.
 */
export async function seedSms(db: Kysely<DB>): Promise<void> {
  await seedCommunity(db, 1, 'admin', '阳光物业', true);
  // community 2 (翠湖苑): its own reminder, sent
  await seedCommunity(db, 2, 'admin2', '翠湖苑物业', false);
}

async function seedCommunity(db: Kysely<DB>, rid: number, username: string, signName: string, full: boolean): Promise<void> {
  const admin = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', username).executeTakeFirst();
  const by = admin?.id ?? null;
  await db.insertInto('sms_settings').values({ rid, provider: 'sandbox', sign_name: signName, created_by: by, updated_by: by }).execute();
  const ids: number[] = [];
  for (const t of full ? TEMPLATES : TEMPLATES.slice(0, 1)) {
    const row = await db
      .insertInto('sms_templates')
      .values({ rid, ...t, created_by: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  const bids = (await db.selectFrom('buildings').select('id').where('rid', '=', rid).orderBy('sort').orderBy('id').limit(3).execute()).map(
    (b) => b.id,
  );
  const first2 = bids.slice(0, 2);
  const third = bids.slice(2, 3);
  const audience = (type: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type, bids: [], tids: [], min_amount: '0', months: 0, member_ids: [], list: [], ...extra });
  const job = async (values: {
    name: string;
    kind: 'arrears' | 'outage' | 'payment';
    template: number;
    var_map: object;
    audience: string;
    daysAgo: number;
    status: 'D' | 'Y' | 'F';
  }) => {
    const row = await db
      .insertInto('sms_jobs')
      .values({
        rid,
        name: values.name,
        kind: values.kind,
        template_id: values.template,
        var_map: JSON.stringify(values.var_map),
        audience: values.audience,
        status: values.status === 'D' ? 'D' : 'S',
        run_no: values.status === 'D' ? 0 : 1,
        urgent: 'N',
        dedupe_days: 7,
        created_by: by,
        created_at: sql`now() - make_interval(days => ${values.daysAgo}, hours => 1)`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = (transition: string, from: string, to: string) =>
      db
        .insertInto('workflow_logs')
        .values({
          rid,
          flow: 'smsjob',
          row_id: row.id,
          transition,
          from_state: from,
          to_state: to,
          input: '{}',
          operator: transition === 'create' || transition === 'start' ? (admin?.name ?? username) : '系统',
          created_by: transition === 'create' || transition === 'start' ? by : null,
          created_at: sql`now() - make_interval(days => ${values.daysAgo}, hours => 1)`,
        })
        .execute();
    await log('create', '', 'D');
    if (values.status === 'D') return;
    await log('start', 'D', 'P');
    await log('sending', 'P', 'S');
    await log('done', 'S', values.status);
    const n = await writeRunMessages(db, rid, row.id, 1, by);
    const at = sql<Date>`now() - make_interval(days => ${values.daysAgo})`;
    const failing = values.status === 'F' ? sql<boolean>`right(mobile, 1) = '7'` : sql<boolean>`false`;
    await db
      .updateTable('sms_messages')
      .set({
        submit_status: sql`CASE WHEN ${failing} THEN 'F' ELSE 'S' END`,
        receipt_status: sql`CASE WHEN ${failing} THEN '' ELSE 'Y' END`,
        code: sql`CASE WHEN ${failing} THEN 'isv.BUSINESS_LIMIT_CONTROL' ELSE '' END`,
        reason: sql`CASE WHEN ${failing} THEN '沙箱：该尾号按设置模拟发送失败（触发号码频控）' ELSE '' END`,
        biz_id: sql`CASE WHEN ${failing} THEN '' ELSE 'SB' || md5(out_id) END`,
        claimed_at: at,
        submitted_at: at,
        receipt_at: sql`CASE WHEN ${failing} THEN NULL ELSE ${at} + interval '3 seconds' END`,
        created_at: at,
      })
      .where('rid', '=', rid)
      .where('sms_job_id', '=', row.id)
      .execute();
    // the sandbox's own records of what it was given
    const msgs = await db.selectFrom('sms_messages').selectAll().where('rid', '=', rid).where('sms_job_id', '=', row.id).execute();
    const tpl = TEMPLATES[ids.indexOf(values.template)]!;
    if (msgs.length)
      await db
        .insertInto('sms_sandbox_outbox')
        .values(
          msgs.map((m) => ({
            rid,
            out_id: m.out_id,
            biz_id: m.biz_id || `SB${crypto.randomBytes(8).toString('hex')}`,
            mobile: m.mobile,
            sign_name: signName,
            template_code: tpl.code,
            params: JSON.stringify(m.params),
            content: m.content,
            failed: m.submit_status === 'F',
            code: m.submit_status === 'F' ? m.code : 'OK',
            created_at: m.submitted_at ?? new Date(),
          })),
        )
        .execute();
    const c = await db
      .selectFrom('sms_messages')
      .select([
        sql<number>`count(*) FILTER (WHERE submit_status = 'S')::int`.as('sent'),
        sql<number>`count(*) FILTER (WHERE submit_status = 'F')::int`.as('failed'),
      ])
      .where('rid', '=', rid)
      .where('sms_job_id', '=', row.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('sms_jobs')
      .set({
        status: c.failed > 0 ? 'F' : 'Y',
        recipients: n,
        sent: c.sent,
        failed: c.failed,
        started_at: at,
        finished_at: sql`${at} + interval '2 minutes'`,
      })
      .where('rid', '=', rid)
      .where('id', '=', row.id)
      .execute();
  };
  await job({
    name: full ? '11月欠费催缴（1、2号楼）' : '11月欠费催缴',
    kind: 'arrears',
    template: ids[0]!,
    var_map: { name: { source: 'name', text: '' }, room: { source: 'room', text: '' }, amount: { source: 'amount', text: '' } },
    audience: audience('arrears', { bids: first2, min_amount: '0.01' }),
    daysAgo: 10,
    status: 'Y',
  });
  if (!full) return;
  await job({
    name: '3号楼停水通知',
    kind: 'outage',
    template: ids[1]!,
    var_map: { room: { source: 'room', text: '' }, date: { source: 'text', text: '本周六 9:00–17:00' } },
    audience: audience('places', { bids: third }),
    daysAgo: 7,
    status: 'F',
  });
  await job({
    name: '12月缴费提醒',
    kind: 'payment',
    template: ids[2]!,
    var_map: { name: { source: 'name', text: '' }, room: { source: 'room', text: '' } },
    audience: audience('places', { bids: first2 }),
    daysAgo: 1,
    status: 'D',
  });
  await db.insertInto('sms_unsubscribes').values({ rid, mobile: '13800000000', remark: '业主来电要求不再接收', created_by: by }).execute();
}
