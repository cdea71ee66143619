/**
 * The meters' money (docs/product.md#smart-meters): recharges at the cashier or from the member
 * balance, pushed to the meter through the device queue (待下发 → 已下发, or 下发失败: retried or
 * refunded), the recharge amounts per meter kind, and the rooms' prepaid settings (house admin).
 */
import {
  enumText,
  fenToYuan,
  METER_KIND,
  METER_RECHARGE_STATUS,
  PAY_TYPE,
  payMethodLabel,
  toFen,
  type MeterAmountItem,
  type MeterKind,
  type PayTypeName,
} from '@wuye/contract';
import { METER_ROLES } from '@wuye/contract/meters/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { queueCommand, retryFailedCommands } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { cappedTotal, listPage } from '../../lib/paging.js';
import { withinDays, wireTime } from '../../lib/wire.js';
import { likePattern } from '../../lib/like.js';
import { naturalName, placeOrder } from '../../lib/placeOrder.js';
import { moveBalance } from '../cards/ledger.js';
import { requirePayType } from '../leader/paytypes.js';
import { meterOf, subjectOf } from './core.js';

const KINDS: MeterKind[] = ['power', 'water', 'gas'];
/** The recharge list counts up to this many orders (共 10000+ 笔). */
const COUNT_CAP = 10_000;
const DEFAULT_AMOUNTS: Record<MeterKind, string[]> = {
  power: ['50.00', '100.00', '200.00'],
  water: ['30.00', '50.00', '100.00'],
  gas: ['50.00', '100.00', '200.00'],
};

export async function amountsOf(db: Kysely<DB>, rid: number, kind: MeterKind): Promise<MeterAmountItem> {
  const r = await db.selectFrom('meter_recharge_amounts').selectAll().where('rid', '=', rid).where('kind', '=', kind).executeTakeFirst();
  const amounts = r ? ((typeof r.amounts === 'string' ? JSON.parse(r.amounts) : r.amounts) as string[]) : DEFAULT_AMOUNTS[kind];
  return {
    kind,
    kind_ch: enumText(METER_KIND, kind),
    amounts,
    custom: (r?.custom ?? 'Y') as 'Y' | 'N',
    min_amount: r?.min_amount ?? '10.00',
    max_amount: r?.max_amount ?? '2000.00',
  };
}

const meteramountlist = defineMethod('meteramountlist', {
  side: 'community',
  roles: METER_ROLES.recharge,
  writes: false,
  summary: '充值金额档位：每种表的预设金额、是否允许自定义金额、单笔最小与最大金额（收银台与业主端共用）',
  async handler(ctx) {
    return { items: await Promise.all(KINDS.map((k) => amountsOf(ctx.db, ctx.rid, k))) };
  },
});

const meteramountset = defineMethod('meteramountset', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '设置一种表的充值金额档位、是否允许自定义、单笔最小与最大金额',
  async handler(ctx, input) {
    const amounts = [...new Set(input.amounts.map((a) => fenToYuan(toFen(a))))].sort((a, b) => Number(toFen(a) - toFen(b)));
    const values = { amounts: JSON.stringify(amounts), custom: input.custom, min_amount: input.min_amount, max_amount: input.max_amount };
    await ctx.db
      .insertInto('meter_recharge_amounts')
      .values({ rid: ctx.rid, kind: input.kind, ...values, created_by: ctx.session.accountId })
      .onConflict((oc) => oc.columns(['rid', 'kind']).doUpdateSet(values))
      .execute();
    return reply(await amountsOf(ctx.db, ctx.rid, input.kind), '保存成功');
  },
});

/** An order number: MR + the time + 4 random digits (unique in the community by the table's key). */
const orderNo = () =>
  `MR${new Date()
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 14)}${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;

const meterrecharge = defineMethod('meterrecharge', {
  side: 'community',
  roles: METER_ROLES.recharge,
  writes: true,
  summary:
    '表计充值：预付费表，金额须在该类表的最小与最大金额之间（不允许自定义时须为预设档位）；余额支付时从在住住户的余额扣款；生成充值单并下发到表，表计确认后到账（欠费关阀的表随即开阀）',
  async handler(ctx, input) {
    const m = await meterOf(ctx.db, ctx.rid, input.meter_id, true);
    if (m.mode !== 'prepaid') fail('只有预付费表可以充值');
    if (m.enabled !== 'Y') fail('该表已停用');
    const rule = await amountsOf(ctx.db, ctx.rid, m.kind as MeterKind);
    const fen = toFen(input.amount);
    if (fen < toFen(rule.min_amount) || fen > toFen(rule.max_amount)) {
      fail(`充值金额须在 ${rule.min_amount} 至 ${rule.max_amount} 元之间`);
    }
    if (rule.custom === 'N' && !rule.amounts.some((a) => toFen(a) === fen)) fail(`请选择预设金额：${rule.amounts.join('、')} 元`);
    // the group's rules for the way (支付方式): a disabled one, a missing reference, an own way of another base are refused
    const method = await requirePayType(ctx.db, ctx.session.groupId, input.paytype, input.pay_ref, input.pay_method_id);
    const no = orderNo();
    let memberId: number | null = null;
    if (input.paytype === 'balance') {
      if (!input.member_id) fail('余额支付请选择付款的住户');
      const living = await ctx.db
        .selectFrom('room_members')
        .select('member_id')
        .where('rid', '=', ctx.rid)
        .where('hid', '=', m.hid ?? 0)
        .where('member_id', '=', input.member_id)
        .where('status', '=', 'Y')
        .executeTakeFirst();
      if (!living) fail('付款人须为该房屋的在住住户');
      memberId = input.member_id;
      await moveBalance(ctx.db, {
        rid: ctx.rid,
        memberId,
        hid: m.hid === null ? null : Number(m.hid),
        fen,
        ioType: 2,
        feetype: 'meter',
        paytype: 'balance',
        orderid: no,
        remark: `${enumText(METER_KIND, m.kind)}充值 表号 ${m.meter_no}`,
        createUser: ctx.session.name,
      });
    } else if (input.member_id) memberId = input.member_id;
    const rc = await ctx.db
      .insertInto('meter_recharges')
      .values({
        rid: ctx.rid,
        order_no: no,
        meter_id: m.id,
        hid: m.hid,
        member_id: memberId,
        amount: input.amount,
        paytype: input.paytype,
        pay_method_id: method.id,
        pay_method: method.name,
        pay_ref: input.pay_ref,
        remark: input.remark,
        operator: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const commandId = await queueCommand(ctx.db, ctx.rid, {
      deviceId: Number(m.gateway_id),
      kind: 'meter_recharge',
      subject: subjectOf(Number(m.id)),
      payload: { recharge_id: Number(rc.id), meter_no: m.meter_no, amount: input.amount },
      createdBy: ctx.session.accountId,
      priority: 0,
    });
    await ctx.db.updateTable('meter_recharges').set({ command_id: commandId }).where('rid', '=', ctx.rid).where('id', '=', rc.id).execute();
    return reply({ id: Number(rc.id), order_no: no, command_id: commandId, status: 'W' }, '充值单已生成，正在下发到表');
  },
});

async function rechargeOf(db: Kysely<DB>, rid: number, id: number) {
  const r = await db.selectFrom('meter_recharges').selectAll().where('rid', '=', rid).where('id', '=', id).forUpdate().executeTakeFirst();
  return r ?? fail('充值记录不存在');
}

const meterrechargeretry = defineMethod('meterrechargeretry', {
  side: 'community',
  roles: METER_ROLES.recharge,
  writes: true,
  summary: '重新下发一笔下发失败的充值',
  async handler(ctx, input) {
    const rc = await rechargeOf(ctx.db, ctx.rid, input.id);
    if (rc.status !== 'F') fail('只有下发失败的充值可以重新下发');
    const n = rc.command_id ? await retryFailedCommands(ctx.db, ctx.rid, ['meter_recharge'], { id: Number(rc.command_id) }) : 0;
    if (n === 0) fail('该充值的指令不在失败状态，请稍后刷新');
    await ctx.db
      .updateTable('meter_recharges')
      .set({ status: 'W', error: '' })
      .where('rid', '=', ctx.rid)
      .where('id', '=', rc.id)
      .execute();
    return reply({ id: Number(rc.id) }, '已重新下发');
  },
});

const meterrechargerefund = defineMethod('meterrechargerefund', {
  side: 'community',
  roles: METER_ROLES.recharge,
  writes: true,
  summary: '退款一笔下发失败的充值：取消其下发指令；余额支付的退回住户余额，其他方式记为已退款（现场退还）',
  async handler(ctx, input) {
    const rc = await rechargeOf(ctx.db, ctx.rid, input.id);
    if (rc.status !== 'F') fail('只有下发失败的充值可以退款');
    if (rc.command_id) {
      const cmd = await ctx.db
        .selectFrom('device_commands')
        .select('state')
        .where('rid', '=', ctx.rid)
        .where('id', '=', rc.command_id)
        .forUpdate()
        .executeTakeFirst();
      if (cmd && (cmd.state === 'sent' || cmd.state === 'done')) fail('该充值正在下发或已到账，不能退款，请稍后刷新');
      await ctx.db
        .updateTable('device_commands')
        .set({ state: 'cancelled' })
        .where('rid', '=', ctx.rid)
        .where('id', '=', rc.command_id)
        .execute();
    }
    if (rc.paytype === 'balance' && rc.member_id) {
      await moveBalance(ctx.db, {
        rid: ctx.rid,
        memberId: Number(rc.member_id),
        hid: rc.hid === null ? null : Number(rc.hid),
        fen: toFen(rc.amount),
        ioType: 1,
        feetype: 'refund',
        paytype: 'balance',
        orderid: rc.order_no,
        remark: `表计充值下发失败退款：${input.remark}`,
        createUser: ctx.session.name,
      });
    }
    await ctx.db
      .updateTable('meter_recharges')
      .set({ status: 'R', refunded_at: new Date(), refund_by: ctx.session.accountId, remark: input.remark })
      .where('rid', '=', ctx.rid)
      .where('id', '=', rc.id)
      .execute();
    const m = await meterOf(ctx.db, ctx.rid, Number(rc.meter_id));
    await ctx.db
      .insertInto('meter_bill_logs')
      .values({ rid: ctx.rid, meter_id: m.id, hid: m.hid, kind: 'refund', amount: rc.amount, balance_after: m.balance, recharge_id: rc.id })
      .execute();
    return reply({ id: Number(rc.id) }, rc.paytype === 'balance' ? '已退款，金额已退回住户余额' : '已退款，请现场退还');
  },
});

const meterrechargelist = defineMethod('meterrechargelist', {
  side: 'community',
  roles: METER_ROLES.recharge,
  writes: false,
  summary: '表计充值记录：订单号、房屋、表号、类型、金额、支付方式、状态（待下发/已下发/下发失败/已退款）、操作人、时间；合计金额',
  async handler(ctx, input) {
    // counted and summed on the orders alone; the meter only when a filter needs it, the rest for the page
    let qb = ctx.db.selectFrom('meter_recharges as t').where('t.rid', '=', ctx.rid);
    if (input.meter_no || input.kind) {
      qb = qb.where('t.meter_id', 'in', (eb) => {
        let m = eb.selectFrom('meters as mm').select('mm.id').where('mm.rid', '=', ctx.rid);
        if (input.meter_no) m = m.where('mm.meter_no', 'like', likePattern(input.meter_no));
        if (input.kind) m = m.where('mm.kind', '=', input.kind);
        return m;
      });
    }
    if (input.order_no) qb = qb.where('t.order_no', 'like', likePattern(input.order_no));
    if (input.status) qb = qb.where('t.status', '=', input.status);
    if (input.paytype) qb = qb.where('t.paytype', '=', input.paytype);
    if (input.create_time) qb = qb.where(withinDays('t.created_at', input.create_time as [string, string]));
    const capped = cappedTotal(ctx.db, qb, COUNT_CAP);
    const page = await listPage(
      qb
        .innerJoin('meters as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.meter_id'))
        .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
        .leftJoin('members as mb', (j) => j.onRef('mb.rid', '=', 't.rid').onRef('mb.id', '=', 't.member_id'))
        .select([
          't.id',
          't.order_no',
          't.meter_id',
          'm.meter_no',
          'm.kind',
          't.amount',
          't.paytype',
          't.pay_method',
          't.pay_ref',
          't.status',
          't.error',
          't.operator',
          't.created_at',
          't.confirmed_at',
          't.refunded_at',
          sql<string>`coalesce(r.address, '')`.as('address'),
          sql<string>`coalesce(mb.realname, '')`.as('member_name'),
        ]),
      { ...input, sort: 'desc' },
      't.created_at',
      capped.total,
    );
    // the sums of a list narrowed to at most COUNT_CAP orders (a day's, a month's; years of them are many)
    const sums =
      !capped.more() && page.total <= COUNT_CAP
        ? await qb
            .select(sql<string>`coalesce(sum(t.amount) FILTER (WHERE t.status <> 'R'), 0)::text`.as('amount'))
            .executeTakeFirstOrThrow()
        : null;
    return {
      total: page.total,
      more: capped.more(),
      sums: sums ? { amount: fenToYuan(toFen(sums.amount)) } : null,
      items: page.items.map((r) => ({
        id: Number(r.id),
        order_no: r.order_no,
        meter_id: Number(r.meter_id),
        meter_no: r.meter_no,
        kind: r.kind as MeterKind,
        kind_ch: enumText(METER_KIND, r.kind),
        address: r.address,
        member_name: r.member_name,
        amount: r.amount,
        paytype: r.paytype,
        paytype_ch: r.pay_method ? payMethodLabel(r.paytype as PayTypeName, r.pay_method) : enumText(PAY_TYPE, r.paytype),
        pay_ref: r.pay_ref,
        status: r.status as 'W' | 'S' | 'F' | 'R',
        status_ch: enumText(METER_RECHARGE_STATUS, r.status),
        error: r.error,
        operator: r.operator,
        create_time: wireTime(r.created_at),
        confirmed_at: wireTime(r.confirmed_at),
        refunded_at: wireTime(r.refunded_at),
      })),
    };
  },
});

/* ---------------------------------------------------------------------------- house admin */

const meterhouselist = defineMethod('meterhouselist', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary:
    '房屋管理：有表的房屋，其业主、各类表的余额、预警金额、透支额度、保护（不断供）、关阀数、最后读表时间；可按楼栋单元、低于预警、关阀、保护筛选',
  async handler(ctx, input) {
    // the rooms with meters in the rooms' order, each room's meters summed for the page's rows only
    // (a lateral per room: a page reads its ten rooms' meters, not the community's)
    const lowSql = sql<boolean>`EXISTS (SELECT 1 FROM meters x WHERE x.rid = r.rid AND x.hid = r.id AND x.mode = 'prepaid'
      AND coalesce(h.alarm_threshold, 0) > 0 AND x.balance <= h.alarm_threshold)`;
    const closedSql = sql<boolean>`EXISTS (SELECT 1 FROM meters x WHERE x.rid = r.rid AND x.hid = r.id AND x.valve = 'closed')`;
    let qb = ctx.db
      .selectFrom('rooms as r')
      .leftJoin('meter_houses as h', (j) => j.onRef('h.rid', '=', 'r.rid').onRef('h.hid', '=', 'r.id'))
      .where('r.rid', '=', ctx.rid)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('meters as x').select('x.id').whereRef('x.rid', '=', 'r.rid').whereRef('x.hid', '=', 'r.id')),
      );
    if (input.bid) qb = qb.where('r.bid', '=', input.bid);
    if (input.tid) qb = qb.where('r.tid', '=', input.tid);
    if (input.keyword) qb = qb.where('r.address', 'like', likePattern(input.keyword));
    if (input.low === 'Y') qb = qb.where(lowSql);
    if (input.closed === 'Y') qb = qb.where(closedSql);
    if (input.protected) qb = qb.where(sql`coalesce(h.protected, 'N')`, '=', input.protected);
    const page = await listPage(
      qb
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('meters as m')
              .whereRef('m.rid', '=', 'r.rid')
              .whereRef('m.hid', '=', 'r.id')
              .select([
                sql<number>`count(*)::int`.as('meters'),
                sql<string | null>`sum(m.balance) FILTER (WHERE m.mode = 'prepaid' AND m.kind = 'power')::text`.as('power_balance'),
                sql<string | null>`sum(m.balance) FILTER (WHERE m.mode = 'prepaid' AND m.kind = 'water')::text`.as('water_balance'),
                sql<string | null>`sum(m.balance) FILTER (WHERE m.mode = 'prepaid' AND m.kind = 'gas')::text`.as('gas_balance'),
                sql<number>`count(*) FILTER (WHERE m.valve = 'closed')::int`.as('closed'),
                sql<Date | null>`max(m.read_at)`.as('last_read_at'),
              ])
              .as('a'),
          (j) => j.onTrue(),
        )
        .select([
          'r.id as hid',
          'a.meters',
          'a.power_balance',
          'a.water_balance',
          'a.gas_balance',
          'a.closed',
          'a.last_read_at',
          'r.address',
          sql<string>`coalesce(h.alarm_threshold, 0)::text`.as('alarm_threshold'),
          sql<string>`coalesce(h.overdraft, 0)::text`.as('overdraft'),
          sql<string>`coalesce(h.protected, 'N')`.as('protected'),
          sql<string>`coalesce(h.remark, '')`.as('remark'),
          lowSql.as('low'),
          sql<string>`coalesce((SELECT mb.realname || ' ' || mb.mobile FROM room_members rm JOIN members mb ON mb.rid = rm.rid AND mb.id = rm.member_id
            WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y' ORDER BY rm.relation = 'owner' DESC, rm.id LIMIT 1), '')`.as(
            'owner',
          ),
        ]),
      input,
      'r.id',
    );
    const money = (v: string | null) => (v === null ? null : fenToYuan(toFen(v)));
    return {
      total: page.total,
      items: page.items.map((r) => {
        const [owner = '', mobile = ''] = r.owner.split(' ');
        return {
          hid: Number(r.hid),
          address: r.address,
          owner,
          mobile,
          meters: r.meters,
          power_balance: money(r.power_balance),
          water_balance: money(r.water_balance),
          gas_balance: money(r.gas_balance),
          alarm_threshold: fenToYuan(toFen(r.alarm_threshold)),
          overdraft: fenToYuan(toFen(r.overdraft)),
          protected: r.protected as 'Y' | 'N',
          protected_ch: r.protected === 'Y' ? '保护' : '',
          low: r.low ? ('Y' as const) : ('N' as const),
          closed: r.closed,
          last_read_at: wireTime(r.last_read_at),
          remark: r.remark,
        };
      }),
    };
  },
});

async function saveHouse(
  db: Kysely<DB>,
  rid: number,
  hid: number,
  v: { alarm_threshold: string; overdraft: string; protected: 'Y' | 'N'; remark?: string },
  by: number,
) {
  const values = {
    alarm_threshold: v.alarm_threshold,
    overdraft: v.overdraft,
    protected: v.protected,
    ...(v.remark !== undefined ? { remark: v.remark } : {}),
  };
  await db
    .insertInto('meter_houses')
    .values({ rid, hid, ...values, created_by: by })
    .onConflict((oc) => oc.columns(['rid', 'hid']).doUpdateSet(values))
    .execute();
  // the alarm is told again once the balance falls below a new threshold
  await sql`UPDATE meters SET alarm_sent = false WHERE rid = ${rid} AND hid = ${hid} AND alarm_sent AND balance > ${v.alarm_threshold}::numeric`.execute(
    db,
  );
}

const meterhouseedit = defineMethod('meterhouseedit', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '设置一个房屋的预警金额、透支额度、保护（不断供：医疗等需要，欠费也不关阀）',
  async handler(ctx, input) {
    const room = await ctx.db.selectFrom('rooms').select('id').where('rid', '=', ctx.rid).where('id', '=', input.hid).executeTakeFirst();
    if (!room) fail('房屋不存在');
    await saveHouse(ctx.db, ctx.rid, input.hid, input, ctx.session.accountId);
    return reply({ hid: input.hid }, '保存成功');
  },
});

const meterhousebatch = defineMethod('meterhousebatch', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary: '按楼栋（或单元）批量设置有表房屋的预警金额、透支额度、保护',
  async handler(ctx, input) {
    const b = await ctx.db.selectFrom('buildings').select('id').where('rid', '=', ctx.rid).where('id', '=', input.bid).executeTakeFirst();
    if (!b) fail('所选楼栋不存在');
    let rooms = ctx.db
      .selectFrom('rooms as r')
      .select('r.id')
      .where('r.rid', '=', ctx.rid)
      .where('r.bid', '=', input.bid)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('meters as m').select('m.id').whereRef('m.rid', '=', 'r.rid').whereRef('m.hid', '=', 'r.id')),
      );
    if (input.tid) rooms = rooms.where('r.tid', '=', input.tid);
    const hids = (await rooms.execute()).map((r) => Number(r.id));
    for (const hid of hids) await saveHouse(ctx.db, ctx.rid, hid, input, ctx.session.accountId);
    return reply({ rooms: hids.length }, `已设置 ${hids.length} 个房屋`);
  },
});

/** The building's (unit's) rooms, refused when the building or the unit is not the community's (of that building). */
async function placeRooms(db: Kysely<DB>, rid: number, bid: number, tid: number | undefined) {
  const b = await db.selectFrom('buildings').select('id').where('rid', '=', rid).where('id', '=', bid).executeTakeFirst();
  if (!b) fail('所选楼栋不存在');
  if (tid) {
    const u = await db
      .selectFrom('units')
      .select('id')
      .where('rid', '=', rid)
      .where('id', '=', tid)
      .where('bid', '=', bid)
      .executeTakeFirst();
    if (!u) fail('所选单元不存在');
  }
  let qb = db
    .selectFrom('rooms as r')
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
    .where('r.rid', '=', rid)
    .where('r.bid', '=', bid);
  if (tid) qb = qb.where('r.tid', '=', tid);
  return qb;
}

/** The rooms of the place without a meter of the kind, in the places' order (units, then rooms by number). */
async function freeRooms(db: Kysely<DB>, rid: number, bid: number, tid: number | undefined, kind: MeterKind) {
  let qb = (await placeRooms(db, rid, bid, tid))
    .select(['r.id', 'r.bid'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('meters as m')
            .select('m.id')
            .whereRef('m.rid', '=', 'r.rid')
            .whereRef('m.hid', '=', 'r.id')
            .where('m.kind', '=', kind),
        ),
      ),
    );
  for (const term of [...placeOrder('u.'), sql`r.tid`, ...naturalName('r.title'), sql`r.id`]) qb = qb.orderBy(term);
  return qb.execute();
}

/** The kind's enabled meters bound to no room, in meter-number order. */
function unboundMeters(db: Kysely<DB>, rid: number, kind: MeterKind) {
  return db
    .selectFrom('meters')
    .select(['id', 'meter_no'])
    .where('rid', '=', rid)
    .where('kind', '=', kind)
    .where('hid', 'is', null)
    .where('enabled', '=', 'Y')
    .orderBy('meter_no')
    .orderBy('id');
}

const meterhousepreview = defineMethod('meterhousepreview', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: false,
  summary:
    '按楼栋（单元）批量设置或绑定前的预览：房屋数、有表的房屋（批量设置作用于它们）、没有该类表的房屋、未绑定房屋的该类表、将绑定的房屋数',
  async handler(ctx, input) {
    const counts = await (
      await placeRooms(ctx.db, ctx.rid, input.bid, input.tid)
    )
      .select([
        sql<number>`count(*)::int`.as('rooms'),
        sql<number>`count(*) FILTER (WHERE EXISTS (SELECT 1 FROM meters m WHERE m.rid = r.rid AND m.hid = r.id))::int`.as('with_meters'),
        sql<number>`count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM meters m WHERE m.rid = r.rid AND m.hid = r.id AND m.kind = ${input.kind}))::int`.as(
          'free_rooms',
        ),
      ])
      .executeTakeFirstOrThrow();
    const unbound = await unboundMeters(ctx.db, ctx.rid, input.kind)
      .clearSelect()
      .clearOrderBy()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return {
      rooms: counts.rooms,
      with_meters: counts.with_meters,
      free_rooms: counts.free_rooms,
      unbound_meters: unbound.n,
      to_bind: Math.min(counts.free_rooms, unbound.n),
    };
  },
});

const meterhousebind = defineMethod('meterhousebind', {
  side: 'community',
  roles: METER_ROLES.staff,
  writes: true,
  summary:
    '按楼栋（单元）批量绑定：把未绑定房屋的该类表按表号顺序，依次绑定到该楼栋（单元）还没有该类表的房屋（按单元、房号顺序），数量取两者较少者',
  async handler(ctx, input) {
    const rooms = await freeRooms(ctx.db, ctx.rid, input.bid, input.tid, input.kind);
    if (!rooms.length) fail('该楼栋（单元）的房屋都已有此类表');
    // the meters locked in id order (the order every writer of meters takes), paired by number
    const ids = (await unboundMeters(ctx.db, ctx.rid, input.kind).execute()).map((m) => m.id);
    if (!ids.length) fail('没有未绑定房屋的此类表');
    await ctx.db.selectFrom('meters').select('id').where('rid', '=', ctx.rid).where('id', 'in', ids).orderBy('id').forUpdate().execute();
    const meters = await unboundMeters(ctx.db, ctx.rid, input.kind).where('id', 'in', ids).execute();
    const n = Math.min(rooms.length, meters.length);
    for (let i = 0; i < n; i++) {
      await ctx.db
        .updateTable('meters')
        .set({ hid: rooms[i]!.id, bid: rooms[i]!.bid })
        .where('rid', '=', ctx.rid)
        .where('id', '=', meters[i]!.id)
        .execute();
    }
    return reply({ bound: n }, `已绑定 ${n} 块${enumText(METER_KIND, input.kind)}`);
  },
});

export const rechargeMethods = [
  meteramountlist,
  meteramountset,
  meterrecharge,
  meterrechargeretry,
  meterrechargerefund,
  meterrechargelist,
  meterhouselist,
  meterhouseedit,
  meterhousebatch,
  meterhousepreview,
  meterhousebind,
];
