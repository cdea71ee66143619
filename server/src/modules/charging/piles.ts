/**
 * The piles (/carpark/charging, charging_add, charging_edit; docs/product.md#charging-piles) as a
 * resource over `chargers`, each a row of the one `devices` table (family pile) whose code, name,
 * vendor and heartbeat live there; the ports are created with the pile. A change of the prices
 * bumps the pile's price version; a session keeps the prices and version it started with.
 */
import {
  CHARGE_PORT_STATE,
  CHARGER_KIND,
  CHARGING_ROLES,
  DEVICE_ONLINE_MS,
  charger,
  enumText,
  fenToYuan,
  pricingProblem,
  toFen,
  type ChargePortItem,
  type ChargePowerBand,
  type ChargePricing,
  type ChargeTouBand,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { publicUrlOf } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { deviceHeartbeat } from '../../devices/access.js';
import { registerDependents } from '../../lib/dependents.js';
import { likePattern, containsOperator } from '../../lib/like.js';
import { linkDeviceAsset } from '../assets/ledger.js';
import { defineResource } from '../../lib/resource.js';
import { wireTime } from '../../lib/wire.js';

registerDependents({
  chargers: '充电桩',
  charger_ports: '充电插座',
  charge_orders: '充电订单',
  charge_frames: '充电计量数据',
  charge_cards: '充电月卡',
  charge_card_orders: '充电月卡订单',
});

const onlineCase = sql<string>`CASE WHEN d.last_heartbeat > now() - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval THEN 'Y' ELSE 'N' END`;

/** The address a pile's QR code carries: the owner's phone opens it to start charging at this pile. */
export const pileQrUrl = (rid: number, code: string) =>
  `${publicUrlOf(process.env.PUBLIC_URL) ?? ''}/h5/charge?rid=${rid}&code=${encodeURIComponent(code)}`;

const asArray = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : typeof v === 'string' ? (JSON.parse(v) as T[]) : []);

/** The prices of a pile row (its jsonb read back). */
export function pricingOf(row: { kind: string; tou: unknown; bands: unknown; service_fee: string }): ChargePricing {
  return {
    kind: row.kind === 'ebike' ? 'ebike' : 'car',
    tou: asArray<ChargeTouBand>(row.tou),
    bands: asArray<ChargePowerBand>(row.bands),
    service_fee: fenToYuan(toFen(row.service_fee)),
  };
}

/** 峰 1.05 / 平 0.70 + 服务费 0.40 元/kWh, or 0-300W 0.50 元/时 … */
export function priceText(p: ChargePricing): string {
  if (p.kind === 'ebike') return p.bands.map((b) => `${b.min_w}-${b.max_w}W ${b.price}元/时`).join('；');
  const tiers = new Map<string, string>();
  for (const b of p.tou) tiers.set(b.tier, b.price);
  const parts = ['sharp', 'peak', 'flat', 'valley']
    .filter((t) => tiers.has(t))
    .map((t) => `${({ sharp: '尖', peak: '峰', flat: '平', valley: '谷' } as Record<string, string>)[t]} ${tiers.get(t)}`);
  return `${parts.join(' / ')} 元/kWh，服务费 ${p.service_fee} 元/kWh`;
}

/** The prices as one text, whatever order jsonb gave the keys in: equal texts, equal prices. */
const pricesKey = (p: ChargePricing) =>
  JSON.stringify([
    p.tou.map((b) => [b.start, b.end, b.tier, toFen(b.price).toString()]),
    p.bands.map((b) => [b.min_w, b.max_w, toFen(b.price).toString()]),
    toFen(p.service_fee).toString(),
  ]);
const samePrices = (a: ChargePricing, b: ChargePricing) => pricesKey(a) === pricesKey(b);

/** The community's pile `id` (its charger row and device), or 充电桩不存在 (another community's too). */
export async function pileOf(db: Kysely<DB>, rid: number, id: number, lock = false) {
  const qb = db
    .selectFrom('chargers as c')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'c.rid').onRef('d.id', '=', 'c.id'))
    .select(['c.id', 'c.kind', 'c.ports', 'c.power_kw', 'c.tou', 'c.bands', 'c.service_fee', 'c.price_version', 'c.sim_lose_final'])
    .select(['d.code', 'd.title', 'd.vendor', 'd.enabled', 'd.last_heartbeat'])
    .where('c.rid', '=', rid)
    .where('c.id', '=', id)
    .where('d.family', '=', 'pile');
  const row = await (lock ? qb.forUpdate('c') : qb).executeTakeFirst();
  return row ?? fail('充电桩不存在');
}

const portText = sql<string>`(SELECT concat_ws(' / ',
    '空闲 ' || count(*) FILTER (WHERE p.state = 'free'),
    '充电中 ' || count(*) FILTER (WHERE p.state IN ('charging', 'finishing')),
    '故障 ' || count(*) FILTER (WHERE p.state = 'fault'))
  FROM charger_ports p WHERE p.rid = t.rid AND p.charger_id = t.id)`;

async function writeDevice(ctx: CommunityCtx, input: Record<string, unknown>, id?: number): Promise<number> {
  const code = String(input.code);
  const dup = await ctx.db
    .selectFrom('devices')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('code', '=', code)
    .$if(id !== undefined, (qb) => qb.where('id', '<>', id!))
    .executeTakeFirst();
  if (dup) fail(`设备编号 ${code} 已存在`);
  const values = {
    code,
    title: String(input.title),
    vendor: String(input.vendor ?? 'simulator'),
    enabled: (input.enabled === 'N' ? 'N' : 'Y') as 'Y' | 'N',
    remark: String(input.remark ?? ''),
  };
  if (id !== undefined) {
    await ctx.db.updateTable('devices').set(values).where('rid', '=', ctx.rid).where('id', '=', id).where('family', '=', 'pile').execute();
    return id;
  }
  const row = await ctx.db
    .insertInto('devices')
    .values({ rid: ctx.rid, family: 'pile', created_by: ctx.session.accountId, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const pileResource = defineResource(charger, {
  table: 'chargers',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('chargers as t')
      .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 't.rid').onRef('d.id', '=', 't.id'))
      .selectAll('t')
      .select(['d.code', 'd.title', 'd.vendor', 'd.enabled', 'd.remark', 'd.last_heartbeat'])
      .select(onlineCase.as('online'))
      .select(portText.as('port_text'))
      // the community of the QR address (the resource's rows carry no rid of their own)
      .select(sql<number>`t.rid`.as('qr_rid'))
      .where('t.rid', '=', rid),
  where: {
    title: (qb, v) => qb.where('d.title', containsOperator(String(v)), likePattern(String(v))),
    code: (qb, v) => qb.where('d.code', containsOperator(String(v)), likePattern(String(v))),
    enabled: (qb, v) => qb.where('d.enabled', '=', v),
    online: (qb, v) => qb.where(onlineCase, '=', String(v)),
  },
  row: (r: Record<string, unknown>) => {
    const p = pricingOf(r as never);
    return {
      ...r,
      id: Number(r.id),
      rid: undefined,
      qr_rid: undefined,
      created_by: undefined,
      tou: p.tou,
      bands: p.bands,
      service_fee: p.service_fee,
      power_kw: fenToYuan(toFen(String(r.power_kw))),
      price_text: priceText(p),
      // the defaults may have made it wire text already
      last_heartbeat: typeof r.last_heartbeat === 'string' ? r.last_heartbeat : wireTime(r.last_heartbeat as Date | null),
      qr_url: pileQrUrl(Number(r.qr_rid), String(r.code)),
    };
  },
  async values(input, ctx, before) {
    const kind = String(before?.kind ?? input.kind);
    const prices: ChargePricing = {
      kind: kind === 'ebike' ? 'ebike' : 'car',
      tou: (input.tou ?? []) as ChargeTouBand[],
      bands: (input.bands ?? []) as ChargePowerBand[],
      service_fee: String(input.service_fee ?? '0'),
    };
    // a car pile is priced by energy, an e-bike pile by the hour: the other kind's prices are not kept
    if (prices.kind === 'car') prices.bands = [];
    else {
      prices.tou = [];
      prices.service_fee = '0.00';
    }
    const problem = pricingProblem(prices);
    if (problem) fail(problem);
    const sorted = {
      tou: [...prices.tou].sort((a, b) => a.start.localeCompare(b.start)),
      bands: [...prices.bands].sort((a, b) => a.min_w - b.min_w),
    };
    const id = await writeDevice(ctx, input, before ? Number(before.id) : undefined);
    const common = {
      power_kw: String(input.power_kw),
      tou: JSON.stringify(sorted.tou),
      bands: JSON.stringify(sorted.bands),
      service_fee: prices.service_fee,
    };
    if (before) {
      const changed = !samePrices(pricingOf(before as never), { ...prices, ...sorted });
      return { ...common, price_version: Number(before.price_version) + (changed ? 1 : 0) };
    }
    return { id, kind: prices.kind, ports: Number(input.ports), ...common, created_by: ctx.session.accountId };
  },
  async after(ctx, id, values, before) {
    if (before) return;
    // a pile is an asset of the equipment ledger too
    await linkDeviceAsset(ctx.db, ctx.rid, id, ctx.session);
    const n = Number(values.ports);
    await ctx.db
      .insertInto('charger_ports')
      .values(
        Array.from({ length: n }, (_, i) => ({
          rid: ctx.rid,
          charger_id: id,
          no: i + 1,
          title: `${i + 1}号插座`,
          created_by: ctx.session.accountId,
        })),
      )
      .execute();
  },
  async beforeDelete(ctx, row) {
    const id = Number(row.id);
    const used = await ctx.db
      .selectFrom('charge_orders')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('charger_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (used) fail('该充电桩已有充电订单，不能删除（可停用）');
    // the ports go with the pile, and the pile with its device (and its commands)
    await ctx.db.deleteFrom('charger_ports').where('rid', '=', ctx.rid).where('charger_id', '=', id).execute();
    await ctx.db.deleteFrom('devices').where('rid', '=', ctx.rid).where('id', '=', id).where('family', '=', 'pile').execute();
  },
  replace: {
    // the name is the device's: the small list reads it there
    small: defineMethod('charger_small_list', {
      side: 'community',
      // the charging staff's pages alone choose a pile (a merchant's account never does)
      roles: CHARGING_ROLES.staff,
      writes: false,
      summary: '充电桩下拉（id、名称）',
      async handler(ctx) {
        const items = await ctx.db
          .selectFrom('chargers as c')
          .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'c.rid').onRef('d.id', '=', 'c.id'))
          .select(['c.id', 'd.title'])
          .where('c.rid', '=', ctx.rid)
          .orderBy('c.id')
          .execute();
        return { items: items.map((r) => ({ id: Number(r.id), title: r.title })) };
      },
    }),
  },
  summaries: {
    add: '新增充电桩：名称、设备编号、厂家、类型、插座个数（插座随之创建）、额定功率、电价（汽车桩：覆盖全天的尖峰平谷分时电价与服务费；电动自行车桩：按功率档位的小时电价）',
    edit: '修改充电桩（类型与插座个数不可改）；电价变化时价格版本加一，进行中的订单仍按开始时的价格结算',
  },
});

export async function portsOf(db: Kysely<DB>, rid: number, chargerId: number): Promise<ChargePortItem[]> {
  const rows = await db
    .selectFrom('charger_ports as p')
    .leftJoin('charge_orders as o', (j) =>
      j.onRef('o.rid', '=', 'p.rid').onRef('o.port_id', '=', 'p.id').on('o.state', 'in', ['starting', 'charging', 'stopping']),
    )
    .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 'o.rid').onRef('m.id', '=', 'o.member_id'))
    .select([
      'p.id',
      'p.charger_id',
      'p.no',
      'p.title',
      'p.state',
      'p.meter_wh',
      'p.power_w',
      'o.id as order_id',
      'o.order_no',
      'm.realname',
    ])
    .where('p.rid', '=', rid)
    .where('p.charger_id', '=', chargerId)
    .orderBy('p.no')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    charger_id: Number(r.charger_id),
    no: r.no,
    title: r.title,
    state: r.state as ChargePortItem['state'],
    state_ch: enumText(CHARGE_PORT_STATE, r.state),
    order_id: r.order_id === null ? null : Number(r.order_id),
    order_no: r.order_no ?? '',
    realname: r.realname ?? '',
    meter_kwh: (Number(r.meter_wh) / 1000).toFixed(3),
    power_w: r.power_w,
  }));
}

const chargerportlist = defineMethod('chargerportlist', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary: '充电桩的插座：编号、状态（桩上报的空闲、充电中、结束中、故障）、当前订单、电表读数与功率',
  async handler(ctx, input) {
    await pileOf(ctx.db, ctx.rid, input.charger_id);
    return { items: await portsOf(ctx.db, ctx.rid, input.charger_id) };
  },
});

const chargerheartbeat = defineMethod('chargerheartbeat', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: true,
  summary: '充电桩心跳（按设备编号）：真实充电桩的接入方式，收到即在线；模拟充电桩每分钟自动心跳',
  async handler(ctx, input) {
    const beat = await deviceHeartbeat(ctx.db, ctx.rid, input.code, new Date(), 'pile');
    if (!beat) fail('充电桩不存在');
    return reply({ id: beat.deviceId }, '已在线');
  },
});

export const kindText = (k: string) => enumText(CHARGER_KIND, k);
export const pileMethods = [...pileResource, chargerportlist, chargerheartbeat];
