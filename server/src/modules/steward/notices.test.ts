import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../jobs/queue.js';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { recordNoticeRead } from './noticeScope.js';
import { NOTICE_PUBLISH_KIND } from './noticesJob.js';

let s: TestServer;
let steward: string;
let admin2: string;
let cashier: string;
let tech: string;
beforeAll(async () => {
  s = await startTestServer();
  [steward, admin2, cashier, tech] = await s.logins('steward', 'admin2', 'cashier', 'tech');
});
afterAll(() => s?.close());

const db = () => s.database.db;
const ok = <T = any>(a: { return_code: string; return_msg: string; data: T }): T => {
  expect(a.return_code, a.return_msg).toBe('SUCCESS');
  return a.data;
};
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp) => {
  expect(a.return_code).toBe('FAIL');
  if (typeof msg === 'string') expect(a.return_msg).toBe(msg);
  else expect(a.return_msg).toMatch(msg);
};

const b1 = async (rid = 1) =>
  Number(
    (await db().selectFrom('buildings').select('id').where('rid', '=', rid).where('title', '=', '1号楼').executeTakeFirstOrThrow()).id,
  );
const inMinutes = (m: number) => {
  const d = new Date(Date.now() + m * 60_000 + 8 * 3600_000);
  return d.toISOString().slice(0, 16).replace('T', ' ');
};
const tplId = async () =>
  Number(
    (await db().selectFrom('sms_templates').select('id').where('rid', '=', 1).where('title', '=', '公告提醒').executeTakeFirstOrThrow()).id,
  );

/** Households of 1号楼 with someone living there, counted straight from the tables. */
async function householdsOfB1() {
  const bid = await b1();
  const { rows } = await sql<{ n: number; app: number }>`
    SELECT count(*)::int AS n, count(*) FILTER (WHERE app)::int AS app FROM (
      SELECT r.id, bool_or(m.app_isbind = 'Y' OR m.wx_isbind = 'Y') AS app FROM rooms r
      JOIN room_members rm ON rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y'
      JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE r.rid = 1 AND r.bid = ${bid} GROUP BY r.id) h`.execute(db());
  return rows[0]!;
}

const draft = async (extra: Record<string, unknown> = {}) =>
  ok(
    await s.call(
      'noticeadd',
      {
        title: '1号楼外墙清洗',
        type: 'notice',
        body: '<p>本周三外墙清洗，请关好窗户。</p>',
        scope: 'building',
        scope_ids: [await b1()],
        audience: 'all',
        channels: ['app'],
        ...extra,
      },
      steward,
    ),
  ).id as number;

async function publish(id: number) {
  const reach = ok(await s.call('noticepreview', { id }, steward));
  return ok(await s.call('noticepublish', { id, confirm_households: reach.households }, steward));
}

describe('the demo', () => {
  it('has a notice in every state in community 1, pinned first, with reads', async () => {
    const list = ok(await s.call('noticelist', { limit: 50 }, steward));
    const states = new Set(list.items.map((i: any) => i.status));
    expect([...states].sort()).toEqual(['D', 'P', 'S', 'W', 'X']);
    const firstUnpinned = list.items.findIndex((i: any) => i.pinned === 'N');
    expect(list.items.slice(firstUnpinned).every((i: any) => i.pinned === 'N')).toBe(true);
    const water = list.items.find((i: any) => i.title === '关于1号楼周六停水的通知');
    expect(water.scope_ch).toBe('1号楼');
    expect(water.households).toBeGreaterThan(0);
    expect(water.read_households).toBeGreaterThan(0);
    expect(water.read_households).toBeLessThan(water.households);
    // community 2 sees only its own
    const other = ok(await s.call('noticelist', { limit: 50 }, admin2));
    expect(other.items.map((i: any) => i.title)).toEqual(['南门道闸升级，车辆请走北门']);
  });
});

describe('writing and publishing', () => {
  it('adds a draft with a sanitised body, counts the households, publishes, and then only valid-until and pinned change', async () => {
    const id = await draft({ body: '<p onclick="alert(1)">请关窗<script>alert(1)</script><a href="javascript:alert(1)">详情</a></p>' });
    const info = ok(await s.call('noticeinfo', { id }, steward));
    expect(info.status).toBe('D');
    expect(info.body).toBe('<p>请关窗<a>详情</a></p>');
    expect(info.scope_ch).toBe('1号楼');

    const expected = await householdsOfB1();
    const reach = ok(await s.call('noticepreview', { id }, steward));
    expect(reach.households).toBe(expected.n);
    expect(reach.app).toBe(expected.app);
    expect(reach.sms_only).toBe(expected.n - expected.app);
    expect(reach.unreached).toBe(expected.n - expected.app);
    expect(ok(await s.call('noticereach', { scope: 'building', scope_ids: [await b1()], audience: 'all' }, steward)).households).toBe(
      expected.n,
    );

    refused(
      await s.call('noticepublish', { id, confirm_households: reach.households + 1 }, steward),
      `范围内的户数已变为 ${reach.households} 户，请重新确认后发布`,
    );
    expect(ok(await s.call('noticeinfo', { id }, steward)).status).toBe('D');
    const published = await publish(id);
    expect(published.status).toBe('P');
    expect(published.households).toBe(expected.n);
    const rec = await db()
      .selectFrom('notice_recipients')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('notice_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(rec.n).toBe(expected.n);

    // published: content refused, valid-until and pinned saved
    const fields = {
      id,
      title: info.title,
      type: info.type,
      body: info.body,
      scope: info.scope,
      scope_ids: info.scope_ids,
      audience: info.audience,
      channels: info.channels,
    };
    refused(
      await s.call('noticeedit', { ...fields, title: '改了标题' }, steward),
      '公告已发布，只能修改有效期和置顶；如需更正内容，请复制后重新发布',
    );
    refused(await s.call('noticeedit', { ...fields, scope: 'all', scope_ids: [] }, steward), /只能修改有效期和置顶/);
    ok(await s.call('noticeedit', { ...fields, valid_until: inMinutes(60 * 24), pinned: 'Y' }, steward));
    const after = ok(await s.call('noticeinfo', { id }, steward));
    expect(after.pinned).toBe('Y');
    expect(after.valid_until.slice(0, 16)).toBe(inMinutes(60 * 24));
    expect(after.title).toBe('1号楼外墙清洗');
    refused(await s.call('noticepublish', { id, confirm_households: expected.n }, steward), '该公告已发布，不能发布');
    refused(await s.call('noticedel', { id }, steward), '只有草稿可以删除；已发布的公告请撤回');

    // copy: a draft with the same content, to correct
    const copy = ok(await s.call('noticecopy', { id }, steward)).id;
    const c = ok(await s.call('noticeinfo', { id: copy }, steward));
    expect([c.status, c.title, c.body, c.scope_ids]).toEqual(['D', info.title, info.body, info.scope_ids]);
    ok(await s.call('noticeedit', { ...fields, id: copy, title: '1号楼外墙清洗（更正）' }, steward));
    ok(await s.call('noticedel', { id: copy }, steward));
    refused(await s.call('noticeinfo', { id: copy }, steward), '公告不存在');

    // withdraw: once
    expect(ok(await s.call('noticewithdraw', { id }, steward)).status).toBe('W');
    refused(await s.call('noticewithdraw', { id }, steward), '该公告已撤回，不能撤回');
    refused(await s.call('noticeedit', { ...fields, pinned: 'N' }, steward), '已撤回的公告不能修改，如需重新发布请复制');
    refused(await s.call('noticepin', { id, pinned: 'Y' }, steward), '已撤回的公告不能置顶');
    refused(await s.call('noticepublish', { id, confirm_households: expected.n }, steward), '该公告已撤回，不能发布');
  });

  it('refuses bad fields with a clear message and writes nothing', async () => {
    const before = await db()
      .selectFrom('notices')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const base = { title: '测试', type: 'notice', body: '<p>内容</p>', scope: 'all', scope_ids: [], audience: 'all', channels: ['app'] };
    refused(await s.call('noticeadd', { ...base, title: '' }, steward), /请输入标题/);
    refused(await s.call('noticeadd', { ...base, title: 'x'.repeat(51) }, steward), /标题/);
    refused(await s.call('noticeadd', { ...base, type: 'spam' }, steward), /类型取值不正确/);
    refused(await s.call('noticeadd', { ...base, body: '<script>alert(1)</script>' }, steward), '请输入公告内容');
    refused(await s.call('noticeadd', { ...base, scope: 'building', scope_ids: [] }, steward), '请选择发布范围的楼栋');
    refused(await s.call('noticeadd', { ...base, scope: 'building', scope_ids: [await b1(2)] }, steward), '所选楼栋不存在或不属于当前小区');
    refused(await s.call('noticeadd', { ...base, channels: [] }, steward), /请至少选择一个发布渠道/);
    refused(await s.call('noticeadd', { ...base, channels: ['sms'] }, steward), '选择短信渠道时请选择短信模板');
    refused(await s.call('noticeadd', { ...base, type: 'urgent' }, steward), '紧急公告须填写有效期');
    refused(await s.call('noticeadd', { ...base, send_at: inMinutes(-5) }, steward), '定时发布时间须晚于当前时间至少 1 分钟');
    refused(
      await s.call('noticeadd', { ...base, send_at: inMinutes(60), valid_until: inMinutes(30) }, steward),
      '有效期须晚于定时发布时间',
    );
    refused(await s.call('noticeadd', { ...base, valid_until: '2026-13-45' }, steward), /时间格式/);
    refused(await s.call('noticeadd', { ...base, cover: 'javascript:alert(1)' }, steward), /图片地址无效/);
    const after = await db()
      .selectFrom('notices')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('takes units of several buildings and names each, in order, for the pickers', async () => {
    const units = await db()
      .selectFrom('units as u')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'u.rid').onRef('b.id', '=', 'u.bid'))
      .select(['u.id', 'u.bid', sql<string>`b.title || u.title`.as('name')])
      .where('u.rid', '=', 1)
      .orderBy('u.bid', 'desc')
      .orderBy('u.id')
      .execute();
    // in the order they are kept (by id)
    const picked = [units[0]!, units.find((u) => u.bid !== units[0]!.bid)!].sort((a, b) => Number(a.id) - Number(b.id));
    const id = await draft({ scope: 'unit', scope_ids: picked.map((u) => Number(u.id)) });
    const info = ok(await s.call('noticeinfo', { id }, steward));
    expect(info.scope_names).toEqual(picked.map((u) => u.name));
    expect(info.scope_ch).toBe(picked.map((u) => u.name).join('、'));
    expect(info.scope_bids).toEqual(picked.map((u) => Number(u.bid)));
  });

  it('refuses publishing to a scope without households', async () => {
    const empty = await db()
      .selectFrom('rooms as r')
      .select('r.id')
      .where('r.rid', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('room_members as rm').select('rm.id').whereRef('rm.hid', '=', 'r.id').where('rm.status', '=', 'Y'))),
      )
      .executeTakeFirstOrThrow();
    const id = await draft({ scope: 'room', scope_ids: [Number(empty.id)] });
    refused(await s.call('noticepublish', { id, confirm_households: 0 }, steward), '发布范围内没有住户，请修改范围或受众');
  });

  it('schedules, and the job publishes when the time comes', async () => {
    const id = await draft({ send_at: inMinutes(10) });
    const scheduled = await publish(id);
    expect(scheduled.status).toBe('S');
    // a scheduled notice edited goes back to draft
    const info = ok(await s.call('noticeinfo', { id }, steward));
    const edited = await s.call(
      'noticeedit',
      {
        id,
        title: info.title,
        type: 'notice',
        body: info.body,
        scope: 'building',
        scope_ids: info.scope_ids,
        audience: 'all',
        channels: ['app'],
        send_at: inMinutes(10),
      },
      steward,
    );
    expect(edited.return_msg).toBe('保存成功，公告已改回草稿，请重新发布');
    expect((await publish(id)).status).toBe('S');
    // not due: the job leaves it
    await enqueueJob(db(), { rid: null, kind: NOTICE_PUBLISH_KIND, payload: {}, createdBy: null });
    await s.runJobs();
    expect(ok(await s.call('noticeinfo', { id }, steward)).status).toBe('S');
    await db()
      .updateTable('notices')
      .set({ send_at: sql`now() - interval '1 minute'` })
      .where('rid', '=', 1)
      .where('id', '=', id)
      .execute();
    await enqueueJob(db(), { rid: null, kind: NOTICE_PUBLISH_KIND, payload: {}, createdBy: null });
    await s.runJobs();
    const done = ok(await s.call('noticeinfo', { id }, steward));
    expect(done.status).toBe('P');
    expect(done.households).toBe((await householdsOfB1()).n);
    expect(done.publisher).toBe('钱管家');
  });

  it('shows a notice past its valid-until as 已过期, filtered as such', async () => {
    const id = await draft();
    await publish(id);
    await db()
      .updateTable('notices')
      .set({ valid_until: sql`now() - interval '1 minute'` })
      .where('rid', '=', 1)
      .where('id', '=', id)
      .execute();
    expect(ok(await s.call('noticeinfo', { id }, steward)).status_ch).toBe('已过期');
    expect(ok(await s.call('noticelist', { status: 'X', limit: 100 }, steward)).items.map((i: any) => i.id)).toContain(id);
    expect(ok(await s.call('noticelist', { status: 'P', limit: 100 }, steward)).items.map((i: any) => i.id)).not.toContain(id);
    refused(
      await s.call('noticeresend', { id, template_id: await tplId(), confirm_households: 1 }, steward),
      '只有已发布且在有效期内的公告可以补发短信',
    );
    await expect(recordNoticeRead(db(), 1, id, 1)).rejects.toThrow('该公告未发布或已下线');
  });

  it('filters the list', async () => {
    const list = (f: Record<string, unknown>) => s.call('noticelist', { limit: 100, ...f }, steward).then((a) => ok(a).items as any[]);
    expect((await list({ title: '停水' })).every((i) => i.title.includes('停水'))).toBe(true);
    expect((await list({ type: 'urgent' })).map((i) => i.type_ch)).toEqual(['紧急']);
    expect((await list({ status: 'D' })).every((i) => i.status === 'D')).toBe(true);
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const todays = await list({ date_from: day, date_to: day });
    expect(todays.length).toBeGreaterThan(0);
    expect(todays.every((i) => i.publish_time.startsWith(day))).toBe(true);
  });
});

describe('reads and the SMS to the unread', () => {
  it('records reads per household and member, lists one row per household with totals, filters and exports', async () => {
    const id = await draft();
    await publish(id);
    const rec = await db()
      .selectFrom('notice_recipients as nr')
      .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'nr.rid').onRef('rm.hid', '=', 'nr.hid').on('rm.status', '=', 'Y'))
      .select(['nr.hid', 'rm.member_id'])
      .where('nr.rid', '=', 1)
      .where('nr.notice_id', '=', id)
      .orderBy('nr.hid')
      .limit(1)
      .executeTakeFirstOrThrow();
    await recordNoticeRead(db(), 1, id, Number(rec.member_id));
    await recordNoticeRead(db(), 1, id, Number(rec.member_id));
    // someone not living in the scope
    const bid = await b1();
    const outsider = await db()
      .selectFrom('room_members as rm')
      .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'rm.rid').onRef('r.id', '=', 'rm.hid'))
      .select('rm.member_id')
      .where('rm.rid', '=', 1)
      .where('r.bid', '<>', bid)
      .where('rm.status', '=', 'Y')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('room_members as x')
              .innerJoin('rooms as xr', (j) => j.onRef('xr.rid', '=', 'x.rid').onRef('xr.id', '=', 'x.hid'))
              .select('x.id')
              .whereRef('x.member_id', '=', 'rm.member_id')
              .where('x.status', '=', 'Y')
              .where('xr.bid', '=', sql<number>`${bid}`),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    await expect(recordNoticeRead(db(), 1, id, Number(outsider.member_id))).rejects.toThrow('该住户不在公告的发布范围内');

    const page = ok(await s.call('noticereadlist', { id, limit: 200 }, steward));
    const hh = (await householdsOfB1()).n;
    expect(page.total).toBe(hh);
    expect(page.totals).toEqual({ households: hh, read: 1, unread: hh - 1, read_rate: (100 / hh).toFixed(1) });
    const row = page.items.find((i: any) => i.hid === Number(rec.hid));
    expect([row.read, row.read_count]).toEqual(['Y', 2]);
    expect(row.first_read_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(row.address).toContain('1号楼');
    expect(ok(await s.call('noticereadlist', { id, read: 'Y' }, steward)).total).toBe(1);
    expect(ok(await s.call('noticereadlist', { id, read: 'N' }, steward)).total).toBe(hh - 1);
    expect(ok(await s.call('noticereadlist', { id, keyword: row.address }, steward)).items[0].hid).toBe(row.hid);
    // a resident's name part or mobile number's start finds their household (as the owner search does)
    const resident = await db()
      .selectFrom('room_members as rm')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
      .select(['m.realname', 'm.mobile'])
      .where('rm.rid', '=', 1)
      .where('rm.hid', '=', row.hid)
      .where('rm.status', '=', 'Y')
      .executeTakeFirstOrThrow();
    for (const keyword of [resident.realname.slice(1), resident.mobile.slice(0, 7)]) {
      const found = ok(await s.call('noticereadlist', { id, keyword, limit: 200 }, steward));
      expect(
        found.items.map((i: any) => i.hid),
        keyword,
      ).toContain(row.hid);
      expect(found.total).toBe(found.items.length);
    }
    expect(ok(await s.call('noticereadlist', { id, keyword: '无此住户' }, steward)).total).toBe(0);
    expect(ok(await s.call('noticereadlist', { id, bid: await b1(), limit: 200 }, steward)).total).toBe(hh);

    const file = await s.exportFile('noticereadexport', { id, read: 'Y' }, steward);
    const sheet = await readXlsx(ok(file).content_base64);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.headers).toEqual(expect.arrayContaining(['房屋', '业主', '手机', '状态', '首次阅读时间', '阅读次数']));

    // without contact_whole the mobiles are masked, in the list and in the workbook
    const plain = await s.addAccount('notices_only', { roles: ['notices'] }).then(() => s.login('notices_only'));
    const masked = ok(await s.call('noticereadlist', { id, limit: 5 }, plain)).items as any[];
    expect(masked.every((i) => /^\d{3}\*{4}\d{4}$/.test(i.mobile))).toBe(true);
    const maskedSheet = await readXlsx(ok(await s.exportFile('noticereadexport', { id, read: 'Y' }, plain)).content_base64);
    expect(JSON.stringify(maskedSheet.rows)).toMatch(/\d{3}\*{4}\d{4}/);

    // a draft has no reads yet
    const d = await draft();
    refused(await s.call('noticereadlist', { id: d }, steward), '公告尚未发布，还没有阅读记录');
  });

  it('re-sends to the unread owners by SMS through the SMS jobs and the sandbox', async () => {
    const id = await draft({ type: 'outage', title: '1号楼停电检修' });
    await publish(id);
    const preview = ok(await s.call('noticeresendpreview', { id }, steward));
    expect(preview.households).toBeGreaterThan(0);
    expect(preview.provider_ch).toBe('沙箱（不真实发送）');
    refused(
      await s.call('noticeresend', { id, template_id: await tplId(), confirm_households: preview.households + 1 }, steward),
      `未读户数已变为 ${preview.households} 户，请重新确认后补发`,
    );
    const unapproved = Number(
      (await db().selectFrom('sms_templates').select('id').where('rid', '=', 1).where('approved', '=', 'N').executeTakeFirstOrThrow()).id,
    );
    refused(
      await s.call('noticeresend', { id, template_id: unapproved, confirm_households: preview.households }, steward),
      '只能选择已审核的短信模板',
    );
    const sent = await s.call('noticeresend', { id, template_id: await tplId(), confirm_households: preview.households }, steward);
    const { sms_job_id, recipients } = ok(sent);
    expect(sent.return_msg).toMatch(/^已提交补发：\d+ 户未读，共 \d+ 位业主$/);
    await s.runJobs();
    const outbox = await db()
      .selectFrom('sms_messages')
      .select(['mobile', 'content', 'submit_status'])
      .where('rid', '=', 1)
      .where('sms_job_id', '=', sms_job_id)
      .execute();
    expect(outbox.length).toBeGreaterThan(0);
    expect(outbox.length).toBeLessThanOrEqual(recipients);
    expect(outbox[0]!.content).toContain('《1号楼停电检修》');
    const kept = await db()
      .selectFrom('sms_sandbox_outbox')
      .select('mobile')
      .where('rid', '=', 1)
      .where('out_id', 'like', `1-${sms_job_id}-%`)
      .execute();
    expect(kept.length).toBe(outbox.length);
    const page = ok(await s.call('noticereadlist', { id }, steward));
    expect(page.resends).toHaveLength(1);
    expect(page.resends[0]).toMatchObject({ sms_job_id, households: preview.households });
    expect(['已完成', '部分失败']).toContain(page.resends[0].status_ch);
    expect(page.resends[0].sent + page.resends[0].failed).toBe(outbox.length);
  });

  it('publishing with the SMS channel messages the SMS-only households', async () => {
    const id = await draft({ channels: ['app', 'sms'], sms_template_id: await tplId(), title: '短信渠道公告' });
    await publish(id);
    const job = await db()
      .selectFrom('sms_jobs')
      .select(['id', 'audience'])
      .where('rid', '=', 1)
      .where('name', '=', '公告短信：短信渠道公告')
      .executeTakeFirst();
    const smsOnly = await db()
      .selectFrom('notice_recipients')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', 1)
      .where('notice_id', '=', id)
      .where('reach', '=', 'sms')
      .executeTakeFirstOrThrow();
    if (smsOnly.n > 0) expect(job).toBeTruthy();
    else expect(job).toBeUndefined();
  });
});

describe('who may', () => {
  it('lets only the notices roles write, and the desk read', async () => {
    expect((await s.call('noticelist', {}, cashier)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('noticelist', {}, tech)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('noticeadd', { title: 'x', type: 'notice', body: '<p>x</p>' }, cashier)).return_code).toBe('NO_PERMISSION');
    const id = await draft();
    for (const [m, p] of [
      ['noticepublish', { id, confirm_households: 1 }],
      ['noticewithdraw', { id }],
      ['noticedel', { id }],
      ['noticecopy', { id }],
      ['noticeresend', { id, template_id: 1, confirm_households: 1 }],
    ] as const)
      expect((await s.call(m, p, tech)).return_code).toBe('NO_PERMISSION');
    const deskOnly = await s.addAccount('desk_only', { roles: ['steward'] }).then(() => s.login('desk_only'));
    expect((await s.call('noticelist', {}, deskOnly)).return_code).toBe('SUCCESS');
    expect((await s.call('noticepublish', { id, confirm_households: 1 }, deskOnly)).return_code).toBe('NO_PERMISSION');
  });

  it('answers 不存在 for another community’s notice and changes nothing', async () => {
    const id = await draft();
    const info = ok(await s.call('noticeinfo', { id }, steward));
    const fields = { id, title: '改', type: 'notice', body: '<p>x</p>', scope: 'all', scope_ids: [], audience: 'all', channels: ['app'] };
    for (const [m, p] of [
      ['noticeinfo', { id }],
      ['noticeedit', fields],
      ['noticedel', { id }],
      ['noticecopy', { id }],
      ['noticepreview', { id }],
      ['noticepublish', { id, confirm_households: 1 }],
      ['noticewithdraw', { id }],
      ['noticepin', { id, pinned: 'Y' }],
      ['noticereadlist', { id }],
      ['noticeresendpreview', { id }],
      ['noticeresend', { id, template_id: 1, confirm_households: 1 }],
    ] as const)
      refused(await s.call(m, p, admin2), '公告不存在');
    expect(ok(await s.call('noticeinfo', { id }, steward))).toEqual(info);
  });
});
