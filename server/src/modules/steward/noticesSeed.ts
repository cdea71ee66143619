/**
 * The demo's notices (docs/product.md#notices), relative to today and deterministic: in community
 * 1 one in every state (a pinned water cut for 1号楼, a fee statement, an urgent typhoon warning,
 * an expired holiday reminder, a withdrawn one, a scheduled activity, a draft), with reads from
 * part of each published notice's households; in community 2 one published notice with reads. The
 * SMS template the notices' SMS use (公告提醒, approved) is added to the communities' templates.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { writeRecipients, type ScopeSpec } from './noticeScope.js';

const BODY = {
  outage: `<h3>停水时间</h3><p>因市政管网检修，<strong>1号楼</strong>将于本周六 08:00–18:00 停水，请提前储水。</p><ul><li>恢复供水后请先放水 1–2 分钟</li><li>如有疑问请联系物业服务中心</li></ul>`,
  fees: `<p>根据《物业服务合同》约定，现将本季度物业费收支情况公示如下：</p><ol><li>物业费收入、公共能耗、保洁绿化、秩序维护等明细见物业服务中心公告栏</li><li>公示期 15 天，如有异议请向物业服务中心反映</li></ol>`,
  typhoon: `<p><strong>台风橙色预警：</strong>请关好门窗，收起阳台、窗台上的花盆和杂物，车辆请勿停放在低洼处和树下。</p><p>物业 24 小时值班电话已开通。</p>`,
  holiday: `<p>国庆假期将至，外出前请关闭水电燃气，锁好门窗；小区将加强巡逻。祝大家节日快乐！</p>`,
  elevator: `<p>2号楼电梯将于下周进行年度维保，期间每部电梯停运约 2 小时。</p>`,
  activity: `<h3>周末亲子手工活动</h3><p>时间：本周日 14:00，地点：小区活动中心。名额 30 组家庭，报名请到物业服务中心。</p>`,
  heating: `<p>冬季供暖将于下月起开始调试，调试期间请家中留人，发现跑冒滴漏请及时报修。</p>`,
  c2: `<p>翠湖苑南门道闸升级，本周三 09:00–12:00 车辆请走北门。</p>`,
};

interface SeedNotice {
  title: string;
  type: 'notice' | 'urgent' | 'outage' | 'activity' | 'fees';
  body: string;
  scope: ScopeSpec;
  status: 'D' | 'S' | 'P' | 'W';
  /** published (or scheduled) this many hours from now: negative in the past */
  atHours?: number;
  validHours?: number;
  pinned?: 'Y' | 'N';
  channels?: string[];
  /** one household in `readEvery` has read it */
  readEvery?: number;
}

export async function seedNotices(db: Kysely<DB>): Promise<void> {
  await seedCommunity(db, 1, 'steward');
  await seedCommunity(db, 2, 'admin2');
}

async function seedCommunity(db: Kysely<DB>, rid: number, username: string) {
  const acct = await db.selectFrom('accounts').select('id').where('username', '=', username).executeTakeFirst();
  const by = acct ? Number(acct.id) : null;
  const tpl = await db
    .insertInto('sms_templates')
    .values({
      rid,
      code: rid === 1 ? 'SMS_468220101' : 'SMS_468220201',
      title: '公告提醒',
      content: '尊敬的${name}，${community}发布了公告《${title}》，请打开业主App或公众号查看。',
      kind: 'notice',
      approved: 'Y',
      created_by: by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const buildings = await db.selectFrom('buildings').select(['id', 'title']).where('rid', '=', rid).orderBy('sort').orderBy('id').execute();
  const b1 = buildings.find((b) => b.title === '1号楼') ?? buildings[0];
  const b2 = buildings.find((b) => b.title === '2号楼') ?? buildings[1] ?? b1;
  if (!b1) return;
  const unit = await db.selectFrom('units').select('id').where('rid', '=', rid).where('bid', '=', b1.id).orderBy('id').executeTakeFirst();
  const all: ScopeSpec = { scope: 'all', scope_ids: [], audience: 'all' };
  const list: SeedNotice[] =
    rid === 1
      ? [
          {
            title: '关于1号楼周六停水的通知',
            type: 'outage',
            body: BODY.outage,
            scope: { scope: 'building', scope_ids: [Number(b1.id)], audience: 'all' },
            status: 'P',
            atHours: -30,
            validHours: 72,
            pinned: 'Y',
            channels: ['app', 'sms'],
            readEvery: 2,
          },
          {
            title: '本季度物业费收支公示',
            type: 'fees',
            body: BODY.fees,
            scope: { ...all, audience: 'owner' },
            status: 'P',
            atHours: -240,
            validHours: 120,
            readEvery: 3,
          },
          {
            title: '台风橙色预警',
            type: 'urgent',
            body: BODY.typhoon,
            scope: all,
            status: 'P',
            atHours: -3,
            validHours: 30,
            pinned: 'Y',
            readEvery: 5,
          },
          {
            title: '国庆假期安全提示',
            type: 'notice',
            body: BODY.holiday,
            scope: all,
            status: 'P',
            atHours: -24 * 40,
            validHours: 24 * 20,
            readEvery: 2,
          },
          {
            title: '2号楼电梯年度维保',
            type: 'notice',
            body: BODY.elevator,
            scope: { scope: 'building', scope_ids: [Number(b2!.id)], audience: 'all' },
            status: 'W',
            atHours: -48,
            readEvery: 4,
          },
          {
            title: '周末亲子手工活动报名',
            type: 'activity',
            body: BODY.activity,
            scope: all,
            status: 'S',
            atHours: 48,
            validHours: 24 * 7,
          },
          {
            title: '冬季供暖调试通知',
            type: 'notice',
            body: BODY.heating,
            scope: { scope: 'unit', scope_ids: unit ? [Number(unit.id)] : [], audience: 'all' },
            status: 'D',
          },
        ]
      : [
          {
            title: '南门道闸升级，车辆请走北门',
            type: 'notice',
            body: BODY.c2,
            scope: all,
            status: 'P',
            atHours: -20,
            validHours: 48,
            readEvery: 2,
          },
        ];

  for (const n of list) {
    if (n.scope.scope !== 'all' && !n.scope.scope_ids.length) continue;
    const at = n.atHours === undefined ? null : sql<Date>`now() + make_interval(mins => ${Math.round(n.atHours * 60)})`;
    const valid =
      n.validHours === undefined ? null : sql<Date>`now() + make_interval(mins => ${Math.round(((n.atHours ?? 0) + n.validHours) * 60)})`;
    const published = n.status === 'P' || n.status === 'W';
    const row = await db
      .insertInto('notices')
      .values({
        rid,
        title: n.title,
        type: n.type,
        body: n.body,
        scope: n.scope.scope,
        scope_ids: n.scope.scope_ids,
        audience: n.scope.audience,
        channels: n.channels ?? ['app'],
        sms_template_id: n.channels?.includes('sms') ? tpl.id : null,
        send_at: n.status === 'S' ? at : null,
        valid_until: valid,
        pinned: n.pinned ?? 'N',
        status: n.status,
        published_at: published ? at : null,
        published_by: published ? by : null,
        withdrawn_at: n.status === 'W' ? sql<Date>`now() - interval '20 hours'` : null,
        withdrawn_by: n.status === 'W' ? by : null,
        created_by: by,
        created_at:
          published && at
            ? sql<Date>`now() + make_interval(mins => ${Math.round(n.atHours! * 60) - 90})`
            : sql<Date>`now() - interval '2 hours'`,
      })
      .returning(['id', 'published_at'])
      .executeTakeFirstOrThrow();
    if (!published) continue;
    const households = await writeRecipients(db, rid, row.id, n.scope);
    await db.updateTable('notices').set({ households }).where('rid', '=', rid).where('id', '=', row.id).execute();
    const every = n.readEvery ?? 0;
    if (!every) continue;
    // one member of every `every`-th household read it, some several times, within two days of publication (never in the future)
    await sql`
      INSERT INTO notice_reads (rid, notice_id, hid, member_id, first_read_at, last_read_at, read_count)
      SELECT nr.rid, nr.notice_id, nr.hid, rm.member_id, t.at, least(t.at + interval '3 hours', now()), 1 + (nr.hid % 3)::int
      FROM notice_recipients nr
      JOIN LATERAL (
        SELECT member_id FROM room_members
        WHERE rid = nr.rid AND hid = nr.hid AND status = 'Y'
          AND (${n.scope.audience} = 'all' OR relation = ${n.scope.audience})
        ORDER BY id LIMIT 1
      ) rm ON true
      CROSS JOIN LATERAL (
        -- and never before the publication (one published in the last minutes is read at once)
        SELECT greatest(${row.published_at}::timestamptz,
          least(${row.published_at}::timestamptz + make_interval(mins => (10 + (nr.hid * 37) % 2880)::int), now() - interval '5 minutes')) AS at
      ) t
      WHERE nr.rid = ${rid} AND nr.notice_id = ${row.id} AND nr.hid % ${every} = 0`.execute(db);
  }
}
