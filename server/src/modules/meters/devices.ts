/**
 * The meters' device admin (docs/product.md#smart-meters): gateways (devices of family meter), price
 * plans, meters and the vendor platforms, as resources; read now, the valve, a failed command
 * retried, a manual reading, a meter's readings, the read-time settings.
 */
import {
  DEVICE_ONLINE_MS,
  enumText,
  meter,
  METER_KIND,
  meterGateway,
  meterPlan,
  meterVendor,
  VALVE_COMMAND,
  VALVE_REASON,
  type MeterTier,
} from '@wuye/contract';
import { METER_ROLES } from '@wuye/contract/meters/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { deviceHeartbeat, queueCommand, retryFailedCommands } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { linkDeviceAsset } from '../assets/ledger.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource, wireRows } from '../../lib/resource.js';
import { encryptSecret, lastFour, maskSecret, secretsKey } from '../../lib/secrets.js';
import { wireTime } from '../../lib/wire.js';
import { meterOf, queueValve, recordReading, subjectOf } from './core.js';

registerDependents({ meters: '表计', meter_readings: '读数记录', meter_recharges: '充值记录' });

const onlineCase = (alias: string) =>
  sql<string>`CASE WHEN ${sql.ref(`${alias}.last_heartbeat`)} > now() - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval THEN 'Y' ELSE 'N' END`;

/** The community's gateway, or 采集器不存在. */
async function gatewayOf(db: Kysely<DB>, rid: number, id: number) {
  const g = await db
    .selectFrom('devices')
    .select(['id', 'enabled'])
    .where('rid', '=', rid)
    .where('id', '=', id)
    .where('family', '=', 'meter')
    .executeTakeFirst();
  return g ?? fail('采集器不存在');
}

export const gatewayMethods = defineResource(meterGateway, {
  table: 'devices',
  rows: { family: 'meter' },
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('devices as t')
      .selectAll('t')
      .select(onlineCase('t').as('online'))
      .select(sql<number>`(SELECT count(*)::int FROM meters m WHERE m.rid = t.rid AND m.gateway_id = t.id)`.as('meters'))
      .where('t.rid', '=', rid)
      .where('t.family', '=', 'meter'),
  where: { online: (qb, v) => qb.where(onlineCase('t'), '=', String(v)) },
  row: (r) => ({
    id: Number(r.id),
    code: r.code,
    title: r.title,
    vendor: r.vendor,
    vendor_ch: r.vendor_ch,
    protocol: r.protocol,
    protocol_ch: r.protocol_ch,
    sim_no: r.sim_no,
    address: r.address,
    enabled: r.enabled,
    enabled_ch: r.enabled_ch,
    remark: r.remark,
    online: r.online,
    online_ch: r.online_ch,
    last_heartbeat: r.last_heartbeat ?? '',
    meters: r.meters,
    create_time: r.create_time,
  }),
  unique: [{ on: ['code'], message: (v) => `设备编号 ${String(v.code)} 已存在` }],
  values: (input, ctx, before) => ({ ...input, ...(before ? {} : { created_by: ctx.session.accountId }) }),
  async after(ctx, id, values, before) {
    // a gateway is an asset of the equipment ledger too
    if (!before) await linkDeviceAsset(ctx.db, ctx.rid, id, ctx.session);
    // a simulated gateway is powered on as it is added: it connects (beats) at once
    if (!before && values.vendor === 'simulator' && values.enabled === 'Y') {
      await deviceHeartbeat(ctx.db, ctx.rid, String(values.code), new Date(), 'meter');
    }
  },
  dependents: { meters: '该采集器下还有表计，请先删除或移走表计' },
  replace: {
    small: defineMethod('metergateway_small_list', {
      side: 'community',
      roles: METER_ROLES.staff,
      writes: false,
      summary: '采集器下拉（id、title「编号 名称」）',
      async handler(ctx) {
        const items = await ctx.db
          .selectFrom('devices')
          .select(['id', 'code', 'title'])
          .where('rid', '=', ctx.rid)
          .where('family', '=', 'meter')
          .orderBy('id')
          .execute();
        return { items: items.map((d) => ({ id: Number(d.id), title: `${d.code} ${d.title}` })) };
      },
    }),
  },
  summaries: {
    list: '采集器（DTU/集中器）列表：编号、名称、厂商、通讯方式、SIM 卡号、在线（2 分钟内有心跳）、表计数',
    del: '删除采集器（其下还有表计时拒绝）',
  },
});

const tiersOf = (v: unknown): MeterTier[] => (typeof v === 'string' ? JSON.parse(v) : v) as MeterTier[];
export const tiersText = (tiers: MeterTier[]) =>
  tiers.length === 1 ? tiers[0]!.price : tiers.map((t) => (t.upto === null ? t.price : `${t.price}（≤${t.upto}）`)).join(' / ');

export const planMethods = defineResource(meterPlan, {
  table: 'meter_price_plans',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('meter_price_plans as t')
      .selectAll('t')
      .select(sql<number>`(SELECT count(*)::int FROM meters m WHERE m.rid = t.rid AND m.plan_id = t.id)`.as('meters'))
      .where('t.rid', '=', rid),
  row: (r) => {
    const tiers = tiersOf(r.tiers);
    return { ...r, id: Number(r.id), tiers, tiers_text: tiersText(tiers), rid: undefined, created_by: undefined };
  },
  unique: [{ on: ['title'], message: (v) => `单价方案 ${String(v.title)} 已存在` }],
  async check(ctx, values, before) {
    if (before && before.kind !== values.kind) {
      const used = await ctx.db
        .selectFrom('meters')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('plan_id', '=', Number(before.id))
        .limit(1)
        .executeTakeFirst();
      if (used) fail('该方案已有表计使用，不能修改表类型');
    }
  },
  values: (input, ctx, before) => {
    const tiers = JSON.stringify(input.tiers);
    const changed = before ? JSON.stringify(tiersOf(before.tiers)) !== tiers : false;
    return {
      ...input,
      tiers,
      // a price change is a new version: the bill logs keep the version they were charged by
      ...(before ? { version: Number(before.version) + (changed ? 1 : 0) } : { created_by: ctx.session.accountId }),
    };
  },
  dependents: { meters: '该单价方案已有表计使用，不能删除' },
  replace: {
    // the meter form's plans: the meter staff's, never a merchant account's
    small: defineMethod('meterplan_small_list', {
      side: 'community',
      roles: METER_ROLES.staff,
      writes: false,
      summary: '单价方案下拉（id、title「名称（表类型）」）',
      async handler(ctx) {
        const items = await ctx.db
          .selectFrom('meter_price_plans')
          .select(['id', 'title', 'kind'])
          .where('rid', '=', ctx.rid)
          .orderBy('id')
          .execute();
        return { items: items.map((p) => ({ id: Number(p.id), title: `${p.title}（${enumText(METER_KIND, p.kind)}）` })) };
      },
    }),
  },
});

const valveCommand = sql<string | null>`(
  SELECT CASE WHEN c.state = 'failed' THEN 'failed' ELSE 'pending' END || ':' || c.id FROM device_commands c
  WHERE c.rid = t.rid AND c.subject = 'meter:' || t.id AND c.kind IN ('valve_open', 'valve_close')
    AND c.state IN ('pending', 'sent', 'failed')
  ORDER BY c.id DESC LIMIT 1)`;

export function meterQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('meters as t')
    .innerJoin('devices as g', (j) => j.onRef('g.rid', '=', 't.rid').onRef('g.id', '=', 't.gateway_id'))
    .innerJoin('meter_price_plans as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.plan_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
    .leftJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 't.rid').onRef('i.id', '=', 't.item_id'))
    .selectAll('t')
    .select([
      'g.title as gateway_title',
      'p.title as plan_title',
      'r.tid',
      sql<string>`coalesce(r.address, '')`.as('address'),
      sql<string>`coalesce(i.title, '')`.as('item_title'),
    ])
    .select(onlineCase('g').as('online'))
    .select(valveCommand.as('valve_cmd'))
    .select(
      sql<string>`coalesce((SELECT mb.realname FROM room_members rm JOIN members mb ON mb.rid = rm.rid AND mb.id = rm.member_id
        WHERE rm.rid = t.rid AND rm.hid = t.hid AND rm.status = 'Y' ORDER BY rm.relation = 'owner' DESC, rm.id LIMIT 1), '')`.as('owner'),
    )
    .where('t.rid', '=', rid);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row of meterQuery after the resource's defaults (times, *_ch)
export function meterRow(r: Record<string, any>) {
  const [cmd, cmdId] = r.valve_cmd ? String(r.valve_cmd).split(':') : ['', ''];
  return {
    id: Number(r.id),
    meter_no: r.meter_no,
    title: r.title,
    kind: r.kind,
    kind_ch: r.kind_ch,
    mode: r.mode,
    mode_ch: r.mode_ch,
    gateway_id: Number(r.gateway_id),
    gateway_title: r.gateway_title,
    online: r.online,
    online_ch: r.online_ch,
    hid: r.hid === null ? null : Number(r.hid),
    bid: r.bid === null || r.bid === undefined ? null : Number(r.bid),
    tid: r.tid === null || r.tid === undefined ? null : Number(r.tid),
    address: r.address,
    owner: r.owner,
    plan_id: Number(r.plan_id),
    plan_title: r.plan_title,
    item_id: r.item_id === null ? null : Number(r.item_id),
    item_title: r.item_title,
    reading: r.reading,
    read_at: r.read_at instanceof Date ? wireTime(r.read_at) : (r.read_at ?? ''),
    balance: r.mode === 'prepaid' ? r.balance : '',
    valve: r.valve,
    valve_ch: r.valve_ch,
    valve_reason: r.valve_reason,
    valve_reason_ch: enumText(VALVE_REASON, r.valve_reason),
    valve_command: (cmd ?? '') as '' | 'pending' | 'failed',
    valve_command_ch: cmd ? enumText(VALVE_COMMAND, cmd) : '',
    valve_command_id: cmdId ? Number(cmdId) : null,
    read_day: r.read_day,
    read_hour: r.read_hour,
    enabled: r.enabled,
    enabled_ch: r.enabled_ch,
    remark: r.remark,
    create_time: r.create_time,
  };
}

async function checkMeter(ctx: CommunityCtx, values: Record<string, unknown>, before?: Record<string, unknown>) {
  await gatewayOf(ctx.db, ctx.rid, Number(values.gateway_id));
  const plan = await ctx.db
    .selectFrom('meter_price_plans')
    .select(['kind'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', Number(values.plan_id))
    .executeTakeFirst();
  if (!plan) fail('单价方案不存在');
  if (plan.kind !== values.kind) fail('单价方案的表类型与表计不一致');
  if (values.mode === 'read') {
    const item = await ctx.db
      .selectFrom('fee_items')
      .select('pricing')
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(values.item_id))
      .executeTakeFirst();
    if (!item) fail('收费项目不存在');
    if (item.pricing !== 'meter') fail('请选择按抄表读数计费的收费项目');
  } else values.item_id = null;
  if (before && before.mode !== values.mode) {
    const used = await ctx.db
      .selectFrom('meter_readings')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('meter_id', '=', Number(before.id))
      .limit(1)
      .executeTakeFirst();
    if (used) fail('表计已有读数，不能修改计费模式');
  }
}

export const meterMethods = defineResource(meter, {
  table: 'meters',
  query: (db, rid) => meterQuery(db as Kysely<DB>, rid),
  where: {
    bid: (qb, v) => qb.where('t.bid', '=', Number(v)),
    online: (qb, v) => qb.where(onlineCase('g'), '=', String(v)),
  },
  row: meterRow,
  unique: [{ on: ['meter_no'], message: (v) => `表号 ${String(v.meter_no)} 已存在` }],
  check: checkMeter,
  values: async (input, ctx, before) => {
    const room = await ctx.db
      .selectFrom('rooms')
      .select('bid')
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(input.hid))
      .executeTakeFirst();
    return {
      ...input,
      bid: room?.bid ?? null,
      item_id: input.mode === 'read' ? input.item_id : null,
      ...(before ? {} : { created_by: ctx.session.accountId }),
    };
  },
  async beforeDelete(ctx, row) {
    const id = Number(row.id);
    if (row.mode === 'prepaid' && Number(row.balance) > 0) fail(`该表还有余额 ${String(row.balance)} 元，不能删除，可改为停用`);
    const read = await ctx.db
      .selectFrom('meter_readings')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('meter_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (read) fail('该表已有读数记录，不能删除，可改为停用');
  },
  dependents: { meter_recharges: '该表已有充值记录，不能删除，可改为停用' },
  summaries: {
    list: '表计列表：表号、类型、计费模式、房屋、业主、采集器、单价方案、当前读数与时间、剩余金额（预付费）、阀门状态与其指令（下发中/下发失败）、在线',
    add: '新增表计（表号在小区内唯一；单价方案须与表类型一致；抄表计费的表须选按抄表读数计费的收费项目）',
    del: '删除表计（有余额、读数或充值记录时拒绝，可改为停用）',
  },
});

export const vendorMethods = defineResource(meterVendor, {
  table: 'meter_vendors',
  row: (r) => ({
    id: Number(r.id),
    vendor: r.vendor,
    vendor_ch: r.vendor_ch,
    title: r.title,
    endpoint: r.endpoint,
    app_id: r.app_id,
    secret: r.secret_last4 ? maskSecret(r.secret_last4) : '',
    callback_url: r.callback_url,
    enabled: r.enabled,
    enabled_ch: r.enabled_ch,
    create_time: r.create_time,
  }),
  unique: [{ on: ['vendor'], message: () => '该厂商的平台已设置' }],
  values: (input, ctx, before) => {
    const { app_secret, ...rest } = input as Record<string, unknown> & { app_secret?: string };
    const secret = String(app_secret ?? '');
    // written only: an empty secret on edit keeps the one stored
    const sealed = secret ? { secret_blob: encryptSecret(secret, secretsKey(ctx.config.dataDir)), secret_last4: lastFour(secret) } : {};
    return { ...rest, ...sealed, ...(before ? {} : { created_by: ctx.session.accountId }) };
  },
  summaries: { list: '表计平台设置：厂商、接口地址、AppID、AppSecret（加密保存，只显示后四位）、回调地址' },
});

const meteritem_small_list = defineMethod('meteritem_small_list', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '按抄表读数计费的收费项目（抄表计费的表出账用）',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('fee_items')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('pricing', '=', 'meter')
      .orderBy('id')
      .execute();
    return { items: items.map((i) => ({ id: Number(i.id), title: i.title })) };
  },
});

const wireMeter = wireRows(meter.def);
const meterpick = defineMethod('meterpick', {
  side: 'community',
  roles: METER_ROLES.recharge,
  writes: false,
  summary: '收银台查找预付费表：按表号或房屋地址，最多 20 块（表号、类型、房屋、业主、剩余金额、阀门）',
  async handler(ctx, input) {
    const pattern = likePattern(input.keyword);
    const rows = await meterQuery(ctx.db, ctx.rid)
      .where('t.mode', '=', 'prepaid')
      .where('t.enabled', '=', 'Y')
      .where((eb) => eb.or([eb('t.meter_no', 'like', pattern), eb('r.address', 'like', pattern)]))
      .orderBy('t.meter_no')
      .limit(20)
      .execute();
    return { items: rows.map((r) => meterRow(wireMeter(r as Record<string, unknown>))) };
  },
});

const meterrecordlist = defineMethod('meterrecordlist', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary: '一块表的读数记录（最新在前）：读数、时间、来源（自动/人工/估抄）、换表、用量、金额、操作人',
  async handler(ctx, input) {
    await meterOf(ctx.db, ctx.rid, input.meter_id);
    const qb = ctx.db
      .selectFrom('meter_readings as t')
      .leftJoin('accounts as a', 'a.id', 't.created_by')
      .where('t.rid', '=', ctx.rid)
      .where('t.meter_id', '=', input.meter_id);
    const page = await listPage(
      qb
        .select(['t.id', 't.meter_id', 't.value', 't.read_at', 't.source', 't.swap', 't.usage', 't.amount', 't.remark'])
        .select(sql<string>`coalesce(a.name, '')`.as('operator')),
      { ...input, sort: 'desc' },
      't.id',
      ctx.db.selectFrom('meter_readings as t').where('t.rid', '=', ctx.rid).where('t.meter_id', '=', input.meter_id),
    );
    return {
      total: page.total,
      items: page.items.map((r) => ({
        id: Number(r.id),
        meter_id: Number(r.meter_id),
        value: r.value,
        read_at: wireTime(r.read_at),
        source: r.source,
        source_ch: ({ auto: '自动', manual: '人工', estimated: '估抄' } as Record<string, string>)[r.source] ?? r.source,
        swap: r.swap,
        usage: r.usage,
        amount: r.amount,
        remark: r.remark,
        operator: r.operator || (r.source === 'auto' ? '表计上报' : ''),
      })),
    };
  },
});

const meterrecordadd = defineMethod('meterrecordadd', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '人工录入读数（或估抄）：不得小于上次读数，换表时勾选换表（读数从新表起算，不计用量）；预付费表按阶梯价扣费',
  async handler(ctx, input) {
    const r = await recordReading(ctx.db, ctx.rid, input.meter_id, {
      value: input.value,
      at: new Date(),
      source: input.source,
      swap: input.swap,
      remark: input.remark,
      createdBy: ctx.session.accountId,
    });
    return reply(r, input.swap ? '换表读数已记录' : '读数已记录');
  },
});

async function liveMeter(ctx: CommunityCtx, id: number) {
  const m = await meterOf(ctx.db, ctx.rid, id, true);
  if (m.enabled !== 'Y') fail('该表已停用');
  return m;
}

const meterread = defineMethod('meterread', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '立即抄表：向表计下发抄表指令，表计应答后记录一条自动读数',
  async handler(ctx, input) {
    const m = await liveMeter(ctx, input.id);
    const commandId = await queueCommand(ctx.db, ctx.rid, {
      deviceId: Number(m.gateway_id),
      kind: 'meter_read',
      subject: subjectOf(Number(m.id)),
      payload: { meter_id: Number(m.id), meter_no: m.meter_no },
      createdBy: ctx.session.accountId,
      priority: 0,
    });
    return reply({ command_id: commandId }, '抄表指令已下发');
  },
});

const metervalve = defineMethod('metervalve', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '开阀或关阀：指令经采集器下发，应答前显示下发中，超时失败可重试',
  async handler(ctx, input) {
    const m = await liveMeter(ctx, input.id);
    if (input.action === 'close') {
      const h = await ctx.db
        .selectFrom('meter_houses')
        .select('protected')
        .where('rid', '=', ctx.rid)
        .where('hid', '=', m.hid ?? 0)
        .executeTakeFirst();
      if (h?.protected === 'Y') fail('该房屋已设为保护（不断供），不能关阀');
    }
    const commandId = await queueValve(ctx.db, m, input.action, 'manual', ctx.session.accountId);
    return reply({ command_id: commandId }, input.action === 'open' ? '开阀指令已下发' : '关阀指令已下发');
  },
});

const metercommandretry = defineMethod('metercommandretry', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '立即重试一条下发失败的表计指令',
  async handler(ctx, input) {
    const cmd = await ctx.db
      .selectFrom('device_commands')
      .select(['id', 'state', 'subject'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .where('subject', 'like', 'meter:%')
      .executeTakeFirst();
    if (!cmd) fail('指令不存在');
    if (cmd.state !== 'failed') fail('只有下发失败的指令可以重试');
    const retried = await retryFailedCommands(ctx.db, ctx.rid, ['meter_read', 'valve_open', 'valve_close', 'meter_recharge'], {
      id: input.id,
    });
    return reply({ retried }, '已重新下发');
  },
});

const meterreadtime = defineMethod('meterreadtime', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '抄表时间设置：为选中的表设置每月抄表日与抄表时（抄表计费的表在此时出账）',
  async handler(ctx, input) {
    const ids = [...new Set(input.ids)];
    const found = await ctx.db
      .selectFrom('meters')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    if (found.n !== ids.length) fail('所选表计不存在');
    const r = await ctx.db
      .updateTable('meters')
      .set({ read_day: input.read_day, read_hour: input.read_hour })
      .where('rid', '=', ctx.rid)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return reply({ updated: Number(r.numUpdatedRows) }, '抄表时间已设置');
  },
});

export const deviceAdminMethods = [
  ...gatewayMethods,
  ...planMethods,
  ...meterMethods,
  ...vendorMethods,
  meteritem_small_list,
  meterpick,
  meterrecordlist,
  meterrecordadd,
  meterread,
  metervalve,
  metercommandretry,
  meterreadtime,
];
