/**
 * Grants (/carpark/current, currentadd/edit) and their review (/carpark/currentexamine, _info,
 * _show; docs/product.md#access-control): a person's right to pass the doors of some regions with
 * a face photo, a card or a QR code within a validity. A new grant waits for review (W); approved it
 * is pushed (P) and is in force (Y) once every device holds it; refused or failed it is N. A new
 * photo sends it back to review; a change of validity, regions, card or QR alone is pushed at once.
 */
import { livingPeople } from '../owners/livingPeople.js';
import { roomsAddressed } from '../owners/access.js';
import { GRANT_STATUS, PERSON_KIND, SYNC_STATE, enumText, grantFlow, type GrantItem } from '@wuye/contract';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { defineWorkflow, flowLog, writeFlowLog } from '../../lib/workflow.js';
import { grantReviewBacklog } from './backlog.js';
import { grantStatusFromDevices, syncGrant } from './sync.js';

const ROLES = ACCESS_ROLES.staff;

/**
 * The grant lists' keyword (grants `g`): the person's name or mobile contains it, or their room's
 * address does. The rooms are found first through the addresses' own index paths
 * (roomsAddressed): matching the joined address of every grant's room read them all (158 ms at
 * 76,000 grants; bench/README.md#access-and-visitors).
 */
export async function grantKeyword(db: Kysely<DB>, rid: number, keyword: string) {
  const hids = (await roomsAddressed(rid, keyword).execute(db)).rows.map((r) => r.id);
  const pattern = likePattern(keyword);
  return (eb: ExpressionBuilder<DB & { g: DB['access_grants'] }, 'g'>) =>
    eb.or([
      eb('g.person_name', containsOperator(keyword), pattern),
      eb('g.mobile', 'like', pattern),
      ...(hids.length ? [sql<boolean>`g.hid = ANY(${hids}::bigint[])`] : []),
    ]);
}

function grantQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('access_grants as g')
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'g.rid').onRef('r.id', '=', 'g.hid'))
    .select([
      'g.id',
      'g.person_kind',
      'g.person_name',
      'g.mobile',
      'g.member_id',
      'g.hid',
      'r.address',
      'g.door_start_time',
      'g.door_end_time',
      'g.face_image',
      'g.card_no',
      'g.qr_code',
      'g.status',
      'g.reason',
      'g.revoked_at',
      'g.create_user',
      'g.create_time',
    ])
    .select(
      sql<
        string[]
      >`coalesce((SELECT array_agg(gr.region_id::text ORDER BY gr.region_id) FROM access_grant_regions gr WHERE gr.rid = g.rid AND gr.grant_id = g.id), '{}')`.as(
        'region_list',
      ),
    )
    .select(
      sql<string>`coalesce((SELECT string_agg(ar.title, '、' ORDER BY ar.id) FROM access_grant_regions gr JOIN access_regions ar ON ar.rid = gr.rid AND ar.id = gr.region_id WHERE gr.rid = g.rid AND gr.grant_id = g.id), '')`.as(
        'region_titles',
      ),
    )
    .select(
      sql<string>`(SELECT concat_ws(',', count(*) FILTER (WHERE s.state = 'held'), count(*) FILTER (WHERE s.state = 'pending'), count(*) FILTER (WHERE s.state = 'failed')) FROM access_grant_devices s WHERE s.rid = g.rid AND s.grant_id = g.id)`.as(
        'sync_counts',
      ),
    )
    .where('g.rid', '=', rid);
}
type GrantRow = Awaited<ReturnType<ReturnType<typeof grantQuery>['executeTakeFirstOrThrow']>>;

const day = (d: Date | null) => (d ? wireTime(d).slice(0, 10) : '');

function grantItem(g: GrantRow): GrantItem {
  const [held, pending, failed] = (g.sync_counts ?? '0,0,0').split(',').map(Number) as [number, number, number];
  const revoked = g.revoked_at !== null;
  return {
    id: Number(g.id),
    person_kind: g.person_kind,
    person_kind_ch: enumText(PERSON_KIND, g.person_kind),
    person_name: g.person_name,
    mobile: g.mobile,
    member_id: g.member_id === null ? null : Number(g.member_id),
    hid: g.hid === null ? null : Number(g.hid),
    address: g.address ?? '',
    region_ids: (g.region_list as string[]).map(Number),
    region_titles: g.region_titles,
    door_start_time: day(g.door_start_time),
    door_end_time: day(g.door_end_time),
    face_image: g.face_image,
    card_no: g.card_no,
    qr_code: g.qr_code,
    status: g.status,
    status_ch: revoked ? '已注销' : enumText(GRANT_STATUS, g.status),
    reason: g.reason,
    revoked: revoked ? 'Y' : 'N',
    revoked_at: wireTime(g.revoked_at),
    held,
    pending,
    failed,
    create_user: g.create_user,
    create_time: wireTime(g.create_time),
  };
}

export async function grantOf(db: Kysely<DB>, rid: number, id: number): Promise<GrantItem> {
  const g = await grantQuery(db, rid).where('g.id', '=', id).executeTakeFirst();
  if (!g) return fail('门禁授权不存在');
  return grantItem(g);
}

const accessgrantlist = defineMethod('accessgrantlist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary:
    '门禁授权列表：人员（类型、姓名、手机号、房屋）、门禁区域、有效期、凭证（人脸、卡号、二维码）、状态（未下发/待审核/下发中/已生效/驳回或失败）与各设备下发数；按姓名手机号房屋、状态、类型、区域、房屋筛选，默认不含已注销',
  async handler(ctx, input) {
    let qb = grantQuery(ctx.db, ctx.rid);
    if (input.keyword) qb = qb.where(await grantKeyword(ctx.db, ctx.rid, input.keyword));
    if (input.person_kind) qb = qb.where('g.person_kind', '=', input.person_kind);
    if (input.hid) qb = qb.where('g.hid', '=', input.hid);
    if (input.region_id)
      qb = qb.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('access_grant_regions as gr')
            .select('gr.grant_id')
            .whereRef('gr.rid', '=', 'g.rid')
            .whereRef('gr.grant_id', '=', 'g.id')
            .where('gr.region_id', '=', input.region_id!),
        ),
      );
    if (input.revoked === 'N') qb = qb.where('g.revoked_at', 'is', null);
    if (input.revoked === 'Y') qb = qb.where('g.revoked_at', 'is not', null);
    const beforeStatus = qb;
    if (input.status) qb = qb.where('g.status', '=', input.status === 'none' ? '' : input.status);
    // the status bar's counts give the total too: one grouped count instead of two counts
    const rows = await beforeStatus
      .clearSelect()
      .select(['g.status', sql<number>`count(*)::int`.as('n')])
      .groupBy('g.status')
      .execute();
    const counts: Record<string, number> = Object.fromEntries(rows.map((c) => [c.status === '' ? 'none' : c.status, c.n]));
    const total = input.status ? (counts[input.status] ?? 0) : rows.reduce((sum, c) => sum + c.n, 0);
    const page = await listPage(qb, input, 'g.id', async () => total);
    return { total: page.total, items: page.items.map(grantItem), counts };
  },
});

const accessgrantinfo = defineMethod('accessgrantinfo', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '门禁授权详情：人员、照片、区域、有效期、状态，各设备的下发状态与错误，审核与处理记录',
  async handler(ctx, input) {
    const item = await grantOf(ctx.db, ctx.rid, input.id);
    const devices = await ctx.db
      .selectFrom('access_grant_devices as a')
      .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'a.rid').onRef('d.id', '=', 'a.device_id'))
      .select(['a.device_id', 'd.title', 'a.state', 'a.last_error', 'a.updated_at'])
      .where('a.rid', '=', ctx.rid)
      .where('a.grant_id', '=', input.id)
      .orderBy('a.device_id')
      .execute();
    return {
      ...item,
      devices: devices.map((d) => ({
        device_id: Number(d.device_id),
        device_title: d.title,
        state: d.state as 'pending' | 'held' | 'failed' | 'deleting',
        state_ch: enumText(SYNC_STATE, d.state),
        last_error: d.last_error,
        updated_at: wireTime(d.updated_at),
      })),
      log: await flowLog(ctx.db, ctx.rid, grantFlow.def, input.id),
    };
  },
});

async function checkRegions(ctx: CommunityCtx, ids: number[]) {
  const unique = [...new Set(ids)];
  const found = await ctx.db.selectFrom('access_regions').select('id').where('rid', '=', ctx.rid).where('id', 'in', unique).execute();
  if (found.length !== unique.length) fail('所选门禁区域不存在');
  return unique;
}

async function setGrantRegions(ctx: CommunityCtx, grantId: number, ids: number[]) {
  await ctx.db.deleteFrom('access_grant_regions').where('rid', '=', ctx.rid).where('grant_id', '=', grantId).execute();
  await ctx.db
    .insertInto('access_grant_regions')
    .values(ids.map((region_id) => ({ rid: ctx.rid, grant_id: grantId, region_id })))
    .execute();
}

/** A card number is one person's in the community (among grants in use). */
async function refuseCardTaken(ctx: CommunityCtx, card: string, except?: number) {
  if (!card) return;
  let qb = ctx.db
    .selectFrom('access_grants')
    .select('person_name')
    .where('rid', '=', ctx.rid)
    .where('card_no', '=', card)
    .where('revoked_at', 'is', null);
  if (except) qb = qb.where('id', '!=', except);
  const other = await qb.executeTakeFirst();
  if (other) fail(`卡号 ${card} 已授权给 ${other.person_name}`);
}

const endOfDay = (d: string) => sql<Date>`(${d}::date + interval '1 day' - interval '1 second')`;
const startOfDay = (d: string) => sql<Date>`${d}::date::timestamptz`;

const accessgrantadd = defineMethod('accessgrantadd', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary:
    '新增门禁授权：业主、家属、租户须为所选房屋的在住住户（类型取其与房屋的关系），员工和其他人员填姓名；至少一种凭证（人脸照片、卡号、二维码）；提交后待审核',
  async handler(ctx, input) {
    const regions = await checkRegions(ctx, input.region_ids);
    let name = input.person_name;
    let mobile = input.mobile;
    let kind: 'owner' | 'family' | 'tenant' | 'staff' | 'other' = input.person_kind;
    let memberId: number | null = null;
    let hid: number | null = null;
    if (kind === 'owner' || kind === 'family' || kind === 'tenant') {
      if (!input.hid) fail('请选择房屋');
      if (!input.member_id) fail('请选择人员');
      const link = await ctx.db
        .selectFrom('room_members as rm')
        .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
        .select(['m.realname', 'm.mobile', 'rm.relation'])
        .where('rm.rid', '=', ctx.rid)
        .where('rm.hid', '=', input.hid)
        .where('rm.member_id', '=', input.member_id)
        .where('rm.status', '=', 'Y')
        .executeTakeFirst();
      if (!link) fail('人员必须是该房屋的在住住户');
      name = link.realname;
      mobile = link.mobile;
      kind = link.relation as 'owner' | 'family' | 'tenant';
      memberId = input.member_id;
      hid = input.hid;
    } else if (!name) fail('请填写姓名');
    await refuseCardTaken(ctx, input.card_no);
    const row = await ctx.db
      .insertInto('access_grants')
      .values({
        rid: ctx.rid,
        person_kind: kind,
        person_name: name,
        mobile,
        member_id: memberId,
        hid,
        area_title: '',
        door_start_time: startOfDay(input.door_start_time),
        door_end_time: endOfDay(input.door_end_time),
        face_image: input.face_image,
        card_no: input.card_no,
        qr_code: input.qr_code,
        status: 'W',
        create_user: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await setGrantRegions(ctx, id, regions);
    await updateAreaTitle(ctx, id);
    await writeFlowLog(ctx, grantFlow.def, id, { transition: 'create', from: '', to: 'W' });
    await grantReviewBacklog.raise(ctx.db, ctx.rid, { sourceId: id, title: `审核门禁授权：${name}`, submitter: ctx.session });
    return reply({ id }, '添加成功，等待审核');
  },
});

/** The drawer's 区域 column: the regions' names. */
async function updateAreaTitle(ctx: CommunityCtx, id: number) {
  await sql`UPDATE access_grants g SET area_title = coalesce((SELECT string_agg(ar.title, '、' ORDER BY ar.id) FROM access_grant_regions gr
    JOIN access_regions ar ON ar.rid = gr.rid AND ar.id = gr.region_id WHERE gr.rid = g.rid AND gr.grant_id = g.id), '')
    WHERE g.rid = ${ctx.rid} AND g.id = ${id}`.execute(ctx.db);
}

const accessgrantedit = defineMethod('accessgrantedit', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '修改门禁授权：换了人脸照片须重新审核（待审核，设备上的旧授权删除）；只改有效期、区域、卡号或二维码的已审核授权直接重新下发',
  async handler(ctx, input) {
    const g = await ctx.db
      .selectFrom('access_grants')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!g) return fail('门禁授权不存在');
    if (g.revoked_at) return fail('该门禁授权已注销，不能修改');
    if (g.visitor_id !== null) return fail('访客的人脸授权随访客登记变化，请在访客管理中修改');
    const regions = await checkRegions(ctx, input.region_ids);
    await refuseCardTaken(ctx, input.card_no, input.id);
    const staffLike = g.member_id === null;
    if (staffLike && !input.person_name) fail('请填写姓名');
    const photoChanged = input.face_image !== g.face_image;
    const from = g.status;
    const to = photoChanged ? 'W' : g.approved_at ? 'P' : g.status;
    await ctx.db
      .updateTable('access_grants')
      .set({
        ...(staffLike ? { person_name: input.person_name, mobile: input.mobile } : {}),
        door_start_time: startOfDay(input.door_start_time),
        door_end_time: endOfDay(input.door_end_time),
        face_image: input.face_image,
        card_no: input.card_no,
        qr_code: input.qr_code,
        status: to,
        reason: '',
        ...(photoChanged ? { approved_at: null, approved_by: null } : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    await setGrantRegions(ctx, input.id, regions);
    await updateAreaTitle(ctx, input.id);
    await syncGrant(ctx.db, ctx.rid, input.id, { force: true, createdBy: ctx.session.accountId });
    const now = await ctx.db
      .selectFrom('access_grants')
      .select('status')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirstOrThrow();
    await writeFlowLog(ctx, grantFlow.def, input.id, { transition: 'edit', from, to: now.status, input: { photo_changed: photoChanged } });
    if (now.status === 'W')
      await grantReviewBacklog.raise(ctx.db, ctx.rid, {
        sourceId: input.id,
        title: `审核门禁授权：${g.person_name}（换照片）`,
        submitter: ctx.session,
      });
    return reply({ id: input.id, status: now.status }, photoChanged ? '保存成功，照片已更换，等待重新审核' : '保存成功');
  },
});

const accessgrantrevoke = defineMethod('accessgrantrevoke', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '注销门禁授权：填写原因，所有设备删除该人员',
  async handler(ctx, input) {
    const g = await ctx.db
      .selectFrom('access_grants')
      .select(['id', 'status', 'revoked_at'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!g) return fail('门禁授权不存在');
    if (g.revoked_at) return fail('该门禁授权已注销');
    await ctx.db
      .updateTable('access_grants')
      .set({ revoked_at: sql<Date>`now()`, status: '', reason: input.reason, updated_at: sql<Date>`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    await syncGrant(ctx.db, ctx.rid, input.id, { createdBy: ctx.session.accountId });
    await writeFlowLog(ctx, grantFlow.def, input.id, { transition: 'revoke', from: g.status, to: '', input: { reason: input.reason } });
    await grantReviewBacklog.settle(ctx.db, ctx.rid, input.id, ctx.session.accountId);
    return reply({ id: input.id }, '已注销，设备将删除该人员');
  },
});

const flowMethods = defineWorkflow(grantFlow, {
  table: 'access_grants',
  answer: (ctx, id) => grantOf(ctx.db, ctx.rid, id),
  transitions: {
    approve: {
      async run(ctx, row) {
        if (row.revoked_at) fail('该门禁授权已注销');
        await ctx.db
          .updateTable('access_grants')
          .set({ approved_at: sql<Date>`now()`, approved_by: ctx.session.accountId, status: 'P', reason: '' })
          .where('rid', '=', ctx.rid)
          .where('id', '=', row.id as number)
          .execute();
        await syncGrant(ctx.db, ctx.rid, Number(row.id), { force: true, createdBy: ctx.session.accountId });
        await grantReviewBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      // no device to push to: in force at once
      to: async (ctx, row) => (await grantStatusFromDevices(ctx.db, ctx.rid, Number(row.id))).status,
      message: '审核通过，正在下发到设备',
    },
    reject: {
      run: async (ctx, row, input) => {
        if (row.revoked_at) fail('该门禁授权已注销');
        if (!String(input.reason ?? '').trim()) fail('请填写驳回原因');
        await grantReviewBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: (_ctx, input) => ({ reason: String(input.reason ?? '') }),
      message: '已驳回',
    },
  },
  summaries: {
    accessgrantapprove: '审核门禁授权：通过（下发到授权区域的所有设备）或驳回（须填原因）',
    accessgrantlog: '门禁授权的审核与处理记录',
  },
});

const accessmemberSmallList = defineMethod('accessmember_small_list', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '房屋的在住人员下拉（门禁授权表单用）：id、title「姓名（关系）」',
  async handler(ctx, input) {
    return { items: await livingPeople(ctx.db, ctx.rid, input.hid) };
  },
});

export const grantModule = [
  accessmemberSmallList,
  accessgrantlist,
  accessgrantinfo,
  accessgrantadd,
  accessgrantedit,
  accessgrantrevoke,
  ...flowMethods,
];
