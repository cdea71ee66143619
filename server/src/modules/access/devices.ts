/**
 * Door devices (/carpark/current_device; docs/product.md#access-control) as a resource over the
 * one `devices` table (family door), their heartbeats and answers as a terminal sends them, remote
 * open and restart through the command queue, the queue's list, and the simulator's settings.
 */
import { COMMAND_KIND, COMMAND_STATE, DEVICE_ONLINE_MS, accessDevice, enumText, type SimStateItem } from '@wuye/contract';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ackCommand, deviceHeartbeat, isOnline, queueCommand, setSimSettings, simSettings } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { wireTime } from '../../lib/wire.js';
import { linkDeviceAsset } from '../assets/ledger.js';
import { refreshUnitRegions } from './regions.js';
import { pushRoomCodes } from './roomcodes.js';
import { resyncGrants } from './sync.js';

registerDependents({
  devices: '设备',
  access_passes: '门禁通行记录',
  access_region_devices: '门禁区域',
  access_grant_devices: '门禁授权',
});

const onlineCase = sql<string>`CASE WHEN t.last_heartbeat > now() - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval THEN 'Y' ELSE 'N' END`;

/** The community's door device `id`, or 设备不存在 (another community's too). */
export async function doorOf(db: Kysely<DB>, rid: number, id: number, lock = false) {
  const qb = db.selectFrom('devices').selectAll().where('rid', '=', rid).where('id', '=', id).where('family', '=', 'door');
  const row = await (lock ? qb.forUpdate() : qb).executeTakeFirst();
  return row ?? fail('门禁设备不存在');
}

async function checkPlace(ctx: CommunityCtx, values: Record<string, unknown>) {
  const location = values.location as string;
  if (location === 'community') {
    values.bid = null;
    values.tid = null;
    return;
  }
  const bid = Number(values.bid);
  const b = await ctx.db.selectFrom('buildings').select('id').where('rid', '=', ctx.rid).where('id', '=', bid).executeTakeFirst();
  if (!b) fail('所选楼栋不存在');
  if (location === 'building') {
    values.tid = null;
    return;
  }
  const u = await ctx.db
    .selectFrom('units')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('id', '=', Number(values.tid))
    .where('bid', '=', bid)
    .executeTakeFirst();
  if (!u) fail('所选单元不存在或不属于该楼栋');
}

export const deviceMethods = defineResource(accessDevice, {
  table: 'devices',
  rows: { family: 'door' },
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('devices as t')
      .leftJoin('buildings as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.bid'))
      .leftJoin('units as u', (j) => j.onRef('u.rid', '=', 't.rid').onRef('u.id', '=', 't.tid'))
      .selectAll('t')
      .select(sql<string>`concat_ws(' / ', b.title, u.title)`.as('place'))
      .select(onlineCase.as('online'))
      .select(
        sql<number>`(SELECT count(*)::int FROM device_commands c WHERE c.rid = t.rid AND c.device_id = t.id AND c.state <> 'done')`.as(
          'queued',
        ),
      )
      .select(
        sql<number>`(SELECT count(*)::int FROM access_grant_devices g WHERE g.rid = t.rid AND g.device_id = t.id AND g.state = 'held')`.as(
          'held',
        ),
      )
      .where('t.rid', '=', rid)
      .where('t.family', '=', 'door'),
  where: {
    online: (qb, v) => qb.where(onlineCase, '=', String(v)),
  },
  row: (r) => ({
    ...r,
    id: Number(r.id),
    bid: r.bid === null ? null : Number(r.bid),
    tid: r.tid === null ? null : Number(r.tid),
    last_heartbeat: r.last_heartbeat ?? '',
    family: undefined,
    asset_id: undefined,
    created_by: undefined,
  }),
  unique: [{ on: ['code'], message: (v) => `设备编号 ${String(v.code)} 已存在` }],
  async check(ctx, values) {
    await checkPlace(ctx, values);
  },
  values: (input, ctx, before) => ({ ...input, ...(before ? {} : { created_by: ctx.session.accountId }) }),
  async after(ctx, id, values, before) {
    // a device is an asset of the equipment ledger too
    if (!before) await linkDeviceAsset(ctx.db, ctx.rid, id, ctx.session);
    // a simulated terminal is powered on as it is added: it connects (beats) at once
    if (!before && values.vendor === 'simulator' && values.enabled === 'Y') await deviceHeartbeat(ctx.db, ctx.rid, String(values.code));
    await refreshUnitRegions(ctx.db, ctx.rid);
    const served =
      !before ||
      before.enabled !== values.enabled ||
      before.location !== values.location ||
      Number(before.bid ?? 0) !== Number(values.bid ?? 0) ||
      Number(before.tid ?? 0) !== Number(values.tid ?? 0);
    if (served) {
      await resyncGrants(ctx.db, ctx.rid, { deviceId: id }, ctx.session.accountId);
      // the rooms it now serves: their codes (a disabled device is served nothing)
      await pushRoomCodes(ctx.db, ctx.rid, 'all', { deviceId: id, createdBy: ctx.session.accountId });
    }
  },
  async beforeDelete(ctx, row) {
    const id = Number(row.id);
    const held = await ctx.db
      .selectFrom('access_grant_devices')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('device_id', '=', id)
      .executeTakeFirstOrThrow();
    if (held.n > 0) fail(`该设备上还有 ${held.n} 个授权，请先将设备移出门禁区域并等待删除完成`);
    const manual = await ctx.db
      .selectFrom('access_region_devices as rd')
      .innerJoin('access_regions as r', (j) => j.onRef('r.rid', '=', 'rd.rid').onRef('r.id', '=', 'rd.region_id'))
      .select('r.title')
      .where('rd.rid', '=', ctx.rid)
      .where('rd.device_id', '=', id)
      .where('r.auto', '=', 'N')
      .execute();
    if (manual.length > 0) fail(`该设备属于门禁区域「${manual.map((m) => m.title).join('、')}」，请先从区域中移除`);
    await ctx.db.deleteFrom('access_region_devices').where('rid', '=', ctx.rid).where('device_id', '=', id).execute();
  },
  dependents: {
    access_grant_devices: '该设备上还有授权，请先将设备移出门禁区域并等待删除完成',
    access_passes: '该设备已有通行记录，不能删除，可改为停用',
  },
  replace: {
    small: defineMethod('accessdevice_small_list', {
      side: 'community',
      roles: ACCESS_ROLES.staff,
      writes: false,
      summary: '门禁设备下拉（id、title「编号 名称」）',
      async handler(ctx) {
        const items = await ctx.db
          .selectFrom('devices')
          .select(['id', 'code', 'title'])
          .where('rid', '=', ctx.rid)
          .where('family', '=', 'door')
          .orderBy('id')
          .execute();
        return { items: items.map((d) => ({ id: Number(d.id), title: `${d.code} ${d.title}` })) };
      },
    }),
  },
  summaries: {
    list: '门禁设备列表：编号、名称、厂商、版本、IP、MAC、方向、位置（小区大门/楼栋门/单元门）、在线状态（2 分钟内有心跳）、待执行指令数、已下发人员数',
    add: '新增门禁设备（编号在小区内唯一）；单元门设备加入其单元的自动门禁区域，小区大门设备加入每个单元的自动区域',
    del: '删除门禁设备（设备上还有授权、属于手工门禁区域或已有通行记录时拒绝）',
  },
});

const accessdeviceheartbeat = defineMethod('accessdeviceheartbeat', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '门禁设备心跳：按设备编号记录最后心跳（2 分钟内为在线）；离线后恢复时，立即重发该设备待执行和失败的指令',
  async handler(ctx, input) {
    const beat = await deviceHeartbeat(ctx.db, ctx.rid, input.code);
    if (!beat) return fail('设备不存在');
    return { device_id: beat.deviceId, online: 'Y' as const, resent: beat.resent };
  },
});

const accessdeviceack = defineMethod('accessdeviceack', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '门禁设备应答指令：成功或失败（附错误）；失败的指令按退避时间重试',
  async handler(ctx, input) {
    const device = await ctx.db
      .selectFrom('devices')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('code', '=', input.code)
      .where('family', '=', 'door')
      .executeTakeFirst();
    if (!device) return fail('设备不存在');
    const state = await ackCommand(ctx.db, ctx.rid, input.command_id, { ok: input.ok, error: input.error, deviceId: Number(device.id) });
    if (!state) return fail('指令不存在或不在等待应答');
    return { command_id: input.command_id, state };
  },
});

async function command(ctx: CommunityCtx, id: number, kind: 'open' | 'restart') {
  const d = await doorOf(ctx.db, ctx.rid, id);
  if (d.enabled !== 'Y') fail('设备已停用');
  if (!isOnline(d.last_heartbeat)) fail('设备离线，无法下发指令');
  return queueCommand(ctx.db, ctx.rid, {
    deviceId: id,
    kind,
    payload: { operator: ctx.session.name },
    createdBy: ctx.session.accountId,
    priority: 0,
  });
}

const accessdeviceopen = defineMethod('accessdeviceopen', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '远程开门：经指令队列下发，设备应答后记一条远程开门的通行记录',
  async handler(ctx, input) {
    return reply({ command_id: await command(ctx, input.id, 'open') }, '开门指令已下发');
  },
});

const accessdevicerestart = defineMethod('accessdevicerestart', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '重启设备：经指令队列下发，应答见指令记录',
  async handler(ctx, input) {
    return reply({ command_id: await command(ctx, input.id, 'restart') }, '重启指令已下发');
  },
});

const accesscommandlist = defineMethod('accesscommandlist', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: false,
  summary: '设备指令记录：种类、对象、状态（待发送/已发送/已完成/失败）、尝试次数、错误、下次重试、发送与应答时间',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('device_commands as c')
      .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'c.rid').onRef('d.id', '=', 'c.device_id'))
      .leftJoin('accounts as a', 'a.id', 'c.created_by')
      .select([
        'c.id',
        'c.device_id',
        'd.title as device_title',
        'c.kind',
        'c.subject',
        'c.state',
        'c.attempts',
        'c.last_error',
        'c.next_try_at',
        'c.created_at',
        'c.sent_at',
        'c.acked_at',
        'a.name as operator',
      ])
      .where('c.rid', '=', ctx.rid);
    if (input.device_id) qb = qb.where('c.device_id', '=', input.device_id);
    if (input.state) qb = qb.where('c.state', '=', input.state);
    if (input.kind) qb = qb.where('c.kind', '=', input.kind);
    const page = await listPage(qb, { ...input, sort: 'desc' }, 'c.id');
    return {
      total: page.total,
      items: page.items.map((c) => ({
        id: Number(c.id),
        device_id: Number(c.device_id),
        device_title: c.device_title,
        kind: c.kind,
        kind_ch: enumText(COMMAND_KIND, c.kind),
        subject: c.subject,
        state: c.state,
        state_ch: enumText(COMMAND_STATE, c.state),
        attempts: c.attempts,
        last_error: c.last_error,
        next_try_at: c.state === 'failed' || c.state === 'pending' ? wireTime(c.next_try_at) : '',
        create_time: wireTime(c.created_at),
        sent_at: wireTime(c.sent_at),
        acked_at: wireTime(c.acked_at),
        operator: c.operator ?? '',
      })),
    };
  },
});

async function simState(db: Kysely<DB>, rid: number, deviceId: number): Promise<SimStateItem> {
  const d = await doorOf(db, rid, deviceId);
  if (d.vendor !== 'simulator') fail('该设备不是模拟终端');
  const s = await simSettings(db, rid, deviceId);
  const persons = await db
    .selectFrom('device_sim_persons')
    .selectAll()
    .where('rid', '=', rid)
    .where('device_id', '=', deviceId)
    .orderBy('added_at', 'desc')
    .limit(200)
    .execute();
  const count = await db
    .selectFrom('device_sim_persons')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', rid)
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return {
    device_id: deviceId,
    code: d.code,
    title: d.title,
    vendor: d.vendor,
    online: isOnline(d.last_heartbeat) ? 'Y' : 'N',
    last_heartbeat: wireTime(d.last_heartbeat),
    ...s,
    person_count: count.n,
    persons: persons.map((p) => ({
      subject: p.subject,
      person_name: p.person_name,
      face_image: p.face_image,
      card_no: p.card_no,
      valid_from: wireTime(p.valid_from),
      valid_to: wireTime(p.valid_to),
      added_at: wireTime(p.added_at),
    })),
  };
}

const accesssiminfo = defineMethod('accesssiminfo', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: false,
  summary: '模拟人脸终端：容量、拒收照片与离线开关、在线状态、设备人员库',
  async handler(ctx, input) {
    return simState(ctx.db, ctx.rid, input.device_id);
  },
});

const accesssimset = defineMethod('accesssimset', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '设置模拟人脸终端：容量、拒收照片、离线（离线时不再心跳、不应答指令；恢复在线时立即心跳并补发指令）',
  async handler(ctx, input) {
    const d = await doorOf(ctx.db, ctx.rid, input.device_id, true);
    if (d.vendor !== 'simulator') fail('该设备不是模拟终端');
    const values: { capacity?: number; reject_photos?: 'Y' | 'N'; offline?: 'Y' | 'N' } = {};
    if (input.capacity !== undefined) values.capacity = input.capacity;
    if (input.reject_photos !== undefined) values.reject_photos = input.reject_photos;
    if (input.offline !== undefined) values.offline = input.offline;
    const before = await simSettings(ctx.db, ctx.rid, input.device_id);
    await setSimSettings(ctx.db, ctx.rid, input.device_id, values);
    // back online: the terminal beats at once, as a real one does when it reconnects
    if (before.offline === 'Y' && values.offline === 'N' && d.enabled === 'Y') await deviceHeartbeat(ctx.db, ctx.rid, d.code);
    return reply(await simState(ctx.db, ctx.rid, input.device_id), '保存成功');
  },
});

export const deviceModule = [
  ...deviceMethods,
  accessdeviceheartbeat,
  accessdeviceack,
  accessdeviceopen,
  accessdevicerestart,
  accesscommandlist,
  accesssiminfo,
  accesssimset,
];
