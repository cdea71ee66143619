/**
 * Who a notice reaches (docs/product.md#notices): the households in its scope (a room with someone
 * of the audience living there now), each reachable in the app or WeChat (a member with
 * app_isbind or wx_isbind) or by SMS only; the recipients frozen at publication; the reads the
 * owner app records (recordNoticeRead); and the SMS a notice sends, as a job of the SMS area
 * (modules/setup/sms*: its provider, sandbox, claim-before-send), never a second sender.
 */
import { smsJobFlow, templateVars, type SmsAudience } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { enqueueJob } from '../../jobs/queue.js';
import { afterQuietHours, SMS_SEND_KIND } from '../setup/smsSend.js';
import type { VarMap } from '../setup/smsAudience.js';

export type NoticeScope = 'all' | 'building' | 'unit' | 'room';
export type NoticeAudience = 'all' | 'owner' | 'tenant';

export interface ScopeSpec {
  scope: NoticeScope;
  scope_ids: number[];
  audience: NoticeAudience;
}

/** The rooms' condition of a scope (rooms aliased r). */
function scopeCond(s: ScopeSpec): RawBuilder<unknown> {
  const ids = s.scope_ids.length ? s.scope_ids : [0];
  if (s.scope === 'building') return sql`AND r.bid = ANY(${ids}::bigint[])`;
  if (s.scope === 'unit') return sql`AND r.tid = ANY(${ids}::bigint[])`;
  if (s.scope === 'room') return sql`AND r.id = ANY(${ids}::bigint[])`;
  return sql``;
}

const relationCond = (a: NoticeAudience) => (a === 'all' ? sql`` : sql`AND rm.relation = ${a}`);

/**
 * The households in scope now, each with how it is reachable. The whole community's are its
 * residents' rooms as they are (every room_members row names a room of its community), without
 * the rooms table: at scale that join was most of the cost (bench/README.md#steward-desk).
 */
export function householdsSql(rid: number, s: ScopeSpec) {
  const rooms = s.scope === 'all' ? sql`` : sql`JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid ${scopeCond(s)}`;
  return sql<{ hid: number; reach: 'app' | 'sms' }>`
    SELECT rm.hid,
      CASE WHEN bool_or(m.app_isbind = 'Y' OR m.wx_isbind = 'Y') THEN 'app' ELSE 'sms' END AS reach
    FROM room_members rm
    ${rooms}
    JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = ${rid} AND rm.status = 'Y' ${relationCond(s.audience)}
    GROUP BY rm.hid`;
}

/** The kept columns (202611300500_household_reach.sql) of an audience: its residents and the bound ones among them. */
const REACH_COLUMNS = {
  all: {
    households: 'households',
    app: 'app',
    residents: 'h.owners + h.family + h.tenants',
    bound: 'h.owners_app + h.family_app + h.tenants_app',
  },
  owner: { households: 'owners', app: 'owners_app', residents: 'h.owners', bound: 'h.owners_app' },
  tenant: { households: 'tenants', app: 'tenants_app', residents: 'h.tenants', bound: 'h.tenants_app' },
} as const;

/**
 * Counts before publishing: households in scope, reachable in the app or WeChat, by SMS only, not
 * at all. They are kept by the residents' triggers (household_reach, 202611300500): the whole
 * community's counts are a few rows, a part of it its rooms' rows; the same households as
 * householdsSql finds, without aggregating the residents (bench/README.md#steward-desk).
 */
export async function reachOf(db: Kysely<DB>, rid: number, s: ScopeSpec, channels: readonly string[]) {
  const c = REACH_COLUMNS[s.audience];
  const { rows } =
    s.scope === 'all'
      ? await sql<{ households: number; app: number; rooms: number }>`
          SELECT coalesce(sum(${sql.ref(c.households)}), 0)::int AS households, coalesce(sum(${sql.ref(c.app)}), 0)::int AS app,
            (SELECT count(*)::int FROM rooms r WHERE r.rid = ${rid}) AS rooms
          FROM household_reach_counts WHERE rid = ${rid}`.execute(db)
      : await sql<{ households: number; app: number; rooms: number }>`
          SELECT (count(*) FILTER (WHERE ${sql.raw(c.residents)} > 0))::int AS households,
            (count(*) FILTER (WHERE ${sql.raw(c.bound)} > 0))::int AS app, count(*)::int AS rooms
          FROM rooms r LEFT JOIN household_reach h ON h.rid = r.rid AND h.hid = r.id
          WHERE r.rid = ${rid} ${scopeCond(s)}`.execute(db);
  const r = rows[0]!;
  const smsOnly = r.households - r.app;
  return {
    households: r.households,
    app: r.app,
    sms_only: smsOnly,
    unreached: channels.includes('sms') ? 0 : smsOnly,
    rooms_without_residents: r.rooms - r.households,
  };
}

/** Refuses a scope whose ids are not all of the community (another community's id answers 不存在). */
export async function checkScope(db: Kysely<DB>, rid: number, s: ScopeSpec): Promise<number[]> {
  if (s.scope === 'all') return [];
  const ids = [...new Set(s.scope_ids)].sort((a, b) => a - b);
  const what = s.scope === 'building' ? '楼栋' : s.scope === 'unit' ? '单元' : '房屋';
  if (!ids.length) fail(`请选择发布范围的${what}`);
  const table = s.scope === 'building' ? 'buildings' : s.scope === 'unit' ? 'units' : 'rooms';
  const n = await db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', rid)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  if (n.n !== ids.length) fail(`所选${what}不存在或不属于当前小区`);
  return ids;
}

/** 全小区; 1号楼、2号楼; 1号楼1单元; 1号楼1单元1101 (or N 户 beyond three rooms). */
export async function scopeTexts(db: Kysely<DB>, rid: number, rows: Array<{ scope: string; scope_ids: number[] }>) {
  const want = { building: new Set<number>(), unit: new Set<number>(), room: new Set<number>() };
  for (const r of rows) if (r.scope !== 'all') for (const i of r.scope_ids) want[r.scope as 'building' | 'unit' | 'room'].add(Number(i));
  const names = new Map<string, { text: string; bid: number; tid: number }>();
  if (want.building.size) {
    const bs = await db
      .selectFrom('buildings')
      .select(['id', 'title'])
      .where('rid', '=', rid)
      .where('id', 'in', [...want.building])
      .execute();
    for (const b of bs) names.set(`building:${b.id}`, { text: b.title, bid: Number(b.id), tid: 0 });
  }
  if (want.unit.size) {
    const us = await db
      .selectFrom('units as u')
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'u.rid').onRef('b.id', '=', 'u.bid'))
      .select(['u.id', 'u.title', 'u.bid', 'b.title as building'])
      .where('u.rid', '=', rid)
      .where('u.id', 'in', [...want.unit])
      .execute();
    for (const u of us) names.set(`unit:${u.id}`, { text: `${u.building}${u.title}`, bid: Number(u.bid), tid: Number(u.id) });
  }
  if (want.room.size) {
    const rs = await db
      .selectFrom('rooms')
      .select(['id', 'address', 'bid', 'tid'])
      .where('rid', '=', rid)
      .where('id', 'in', [...want.room])
      .execute();
    for (const r of rs) names.set(`room:${r.id}`, { text: r.address, bid: Number(r.bid), tid: Number(r.tid) });
  }
  return (r: { scope: string; scope_ids: number[] }) => {
    if (r.scope === 'all') return { text: '全小区', bids: [] as number[], tids: [] as number[], names: [] as string[] };
    const found = r.scope_ids.map((i) => names.get(`${r.scope}:${i}`)).filter((x) => !!x);
    const text = r.scope === 'room' && found.length > 3 ? `${found.length} 户` : found.map((f) => f.text).join('、');
    return {
      text,
      names: r.scope_ids.map((i) => names.get(`${r.scope}:${i}`)?.text ?? ''),
      bids: [...new Set(found.map((f) => f.bid))],
      tids: [...new Set(found.map((f) => f.tid).filter((t) => t > 0))],
    };
  };
}

/** Freezes the households a notice reaches now; answers how many. */
export async function writeRecipients(db: Kysely<DB>, rid: number, noticeId: number, s: ScopeSpec): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    WITH ins AS (
      INSERT INTO notice_recipients (rid, notice_id, hid, reach)
      SELECT ${rid}, ${noticeId}, h.hid, h.reach FROM (${householdsSql(rid, s)}) h
      ON CONFLICT DO NOTHING RETURNING 1
    ) SELECT count(*)::int AS n FROM ins`.execute(db);
  return rows[0]!.n;
}

/**
 * A read in the owner app: the member opened a published notice, valid now, of a household they
 * live in that the notice reached. The first read of a household and member is kept; later ones
 * count. `hid` picks the household when the member lives in several reached by it.
 */
export async function recordNoticeRead(
  db: Kysely<DB>,
  rid: number,
  noticeId: number,
  memberId: number,
  hid?: number,
): Promise<{ households: number }> {
  const notice = await db
    .selectFrom('notices')
    .select(['status', sql<boolean>`valid_until IS NOT NULL AND valid_until <= now()`.as('expired')])
    .where('rid', '=', rid)
    .where('id', '=', noticeId)
    .executeTakeFirst();
  if (!notice) return fail('公告不存在');
  if (notice.status !== 'P' || notice.expired) fail('该公告未发布或已下线');
  let qb = db
    .selectFrom('notice_recipients as nr')
    .innerJoin('room_members as rm', (j) =>
      j.onRef('rm.rid', '=', 'nr.rid').onRef('rm.hid', '=', 'nr.hid').on('rm.status', '=', 'Y').on('rm.member_id', '=', memberId),
    )
    .select('nr.hid')
    .distinct()
    .where('nr.rid', '=', rid)
    .where('nr.notice_id', '=', noticeId);
  if (hid) qb = qb.where('nr.hid', '=', hid);
  const hids = (await qb.execute()).map((r) => Number(r.hid));
  if (!hids.length) fail('该住户不在公告的发布范围内');
  for (const h of hids) {
    await db
      .insertInto('notice_reads')
      .values({ rid, notice_id: noticeId, hid: h, member_id: memberId })
      .onConflict((oc) =>
        oc.columns(['rid', 'notice_id', 'hid', 'member_id']).doUpdateSet({
          read_count: sql`notice_reads.read_count + 1`,
          last_read_at: sql`now()`,
        }),
      )
      .execute();
  }
  return { households: hids.length };
}

/** A template's variables filled for a notice: the owner's name, room, community, date; anything else the notice's title. */
export function noticeVarMap(content: string, title: string): VarMap {
  const map: VarMap = {};
  for (const v of templateVars(content)) {
    map[v] = ['name', 'room', 'community', 'date'].includes(v) ? { source: v, text: '' } : { source: 'text', text: title.slice(0, 20) };
  }
  return map;
}

/** The approved SMS templates of the community (what a notice's SMS may use). */
export async function approvedTemplate(db: Kysely<DB>, rid: number, templateId: number) {
  const tpl = await db
    .selectFrom('sms_templates')
    .select(['id', 'content', 'approved', 'title'])
    .where('rid', '=', rid)
    .where('id', '=', templateId)
    .executeTakeFirst();
  if (!tpl) return fail('短信模板不存在');
  if (tpl.approved !== 'Y') fail('只能选择已审核的短信模板');
  return tpl;
}

/** The owners (living there now, with a mobile) of these households. */
export async function ownersOf(db: Kysely<DB>, rid: number, hids: number[]): Promise<number[]> {
  if (!hids.length) return [];
  const rows = await db
    .selectFrom('room_members')
    .select('member_id')
    .distinct()
    .where('rid', '=', rid)
    .where('hid', 'in', hids)
    .where('relation', '=', 'owner')
    .where('status', '=', 'Y')
    .execute();
  return rows.map((r) => Number(r.member_id));
}

/**
 * Sends a notice's SMS to these owners: an SMS job of the SMS area (kind 通知, an approved
 * template, the owners as its audience), started at once as smsjobstart starts one, so the SMS
 * area's sender, its provider (or sandbox), its log and its resends do the rest. Urgent notices
 * (紧急, 停水停电) are sent in quiet hours too. Answers the SMS job's id.
 */
export async function startNoticeSms(
  db: Kysely<DB>,
  rid: number,
  o: { name: string; title: string; templateId: number; memberIds: number[]; urgent: boolean; createdBy: number | null; operator: string },
): Promise<number> {
  const tpl = await approvedTemplate(db, rid, o.templateId);
  const audience: SmsAudience = { type: 'members', bids: [], tids: [], min_amount: '0', months: 0, member_ids: o.memberIds, list: [] };
  const now = new Date();
  const at = o.urgent ? now : afterQuietHours(now);
  const job = await db
    .insertInto('sms_jobs')
    .values({
      rid,
      name: o.name.slice(0, 60),
      kind: 'custom',
      template_id: tpl.id,
      var_map: JSON.stringify(noticeVarMap(tpl.content, o.title)),
      audience: JSON.stringify(audience),
      schedule: 'now',
      urgent: o.urgent ? 'Y' : 'N',
      status: 'P',
      recipients: o.memberIds.length,
      next_run_at: at,
      remark: '公告短信',
      created_by: o.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // the SMS job's timeline: created and started in one step, by the notice
  await db
    .insertInto('workflow_logs')
    .values({
      rid,
      flow: smsJobFlow.def.name,
      row_id: job.id,
      transition: 'start',
      from_state: 'D',
      to_state: 'P',
      input: JSON.stringify({ notice: o.title }),
      operator: o.operator,
      created_by: o.createdBy,
    })
    .execute();
  const queued = await enqueueJob(db, {
    rid,
    kind: SMS_SEND_KIND,
    payload: { sms_job_id: job.id },
    createdBy: o.createdBy,
    total: o.memberIds.length,
    runAfter: at.getTime() > now.getTime() ? at : null,
  });
  await db.updateTable('sms_jobs').set({ job_id: queued }).where('rid', '=', rid).where('id', '=', job.id).execute();
  return job.id;
}

/** YYYY-MM-DD HH:mm(:ss) of the business time zone as an instant (the database session runs in that zone). */
export async function wireToDate(db: Kysely<DB>, text: string): Promise<Date> {
  const t = text.length === 16 ? `${text}:00` : text;
  const { rows } = await sql<{ at: Date }>`SELECT ${t}::timestamp AT TIME ZONE current_setting('TimeZone') AS at`.execute(db);
  return new Date(rows[0]!.at);
}
