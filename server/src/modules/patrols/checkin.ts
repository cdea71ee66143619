/**
 * patrolcheckin (docs/product.md#patrols): a guard's check-in at a point by QR (the printed token
 * or the typed number), NFC tag, wand button or GPS. Every upload is kept in patrol_checkins as it
 * arrived: a code that matches no point, a point without a task of the guard now, a second scan.
 * A matched one records server time beside device time, the distance to the point (outside the
 * radius flagged, not refused), early / on time / late against the point's window, an out-of-order
 * scan on a plan in route order; an abnormal result opens an internal work order when the plan
 * says so, in the same transaction, linked both ways.
 */
import { enumText, CHECKIN_OUTCOME, CHECKIN_TIMING, internalOrderFlow, normaliseNfc, type CheckinOutcome } from '@wuye/contract';
import { PATROL_ROLES } from '@wuye/contract/patrols/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { internalOrderBacklog, orderNo, orderStaff } from '../steward/internalOrders.js';

/** Metres between two positions (haversine). */
export function distanceMetres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return Math.round(2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(a))));
}

/** The point a code names for a method (a disabled point matches none). */
async function pointByCode(ctx: CommunityCtx, method: string, raw: string) {
  const code = raw.trim();
  let qb = ctx.db
    .selectFrom('patrol_points as t')
    .leftJoin('buildings as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.bid'))
    .leftJoin('units as u', (j) => j.onRef('u.rid', '=', 't.rid').onRef('u.id', '=', 't.tid'))
    .select(['t.id', 't.name', 't.lat', 't.lng', 't.radius', 't.photo_required', 't.status'])
    .select(sql<string>`concat_ws(' ', nullif(concat_ws('-', b.title, u.title), ''), nullif(t.place, ''))`.as('location'))
    .where('t.rid', '=', ctx.rid);
  if (method === 'nfc') qb = qb.where('t.nfc_uid', '=', normaliseNfc(code) || '-');
  else if (method === 'wand') qb = qb.where('t.wand_no', '=', code.toUpperCase());
  else qb = qb.where((eb) => eb.or([eb('t.qr_code', '=', code.toUpperCase()), eb(sql`upper(t.number)`, '=', code.toUpperCase())]));
  return qb.executeTakeFirst();
}

/** A matched check-in counted in its task's hour of the business day (巡更统计's hours; migration 202611301100). */
async function keepCheckinHour(db: Kysely<DB>, rid: number, taskId: number, at: Date): Promise<void> {
  await sql`INSERT INTO patrol_task_hours (rid, task_id, hour, checkins)
    VALUES (${rid}, ${taskId}, extract(hour FROM ${at}::timestamptz AT TIME ZONE current_setting('TimeZone'))::int, 1)
    ON CONFLICT (rid, task_id, hour) DO UPDATE SET checkins = patrol_task_hours.checkins + 1`.execute(db);
}

/** The kept hours of a community's tasks counted again from their check-ins (the demo and the scale data write check-ins directly). */
export async function countCheckinHours(db: Kysely<DB>, rid: number): Promise<void> {
  await sql`DELETE FROM patrol_task_hours WHERE rid = ${rid}`.execute(db);
  await sql`INSERT INTO patrol_task_hours (rid, task_id, hour, checkins)
    SELECT rid, task_id, extract(hour FROM server_time AT TIME ZONE current_setting('TimeZone'))::int, count(*)::int
    FROM patrol_checkins WHERE rid = ${rid} AND outcome = 'ok' AND task_id IS NOT NULL GROUP BY 1, 2, 3`.execute(db);
}

const patrolcheckin = defineMethod('patrolcheckin', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: true,
  summary:
    '巡更签到：code（二维码内容或巡更点编号、NFC 标签、钮号）、check_method（qr/nfc/wand/gps）、设备时间、GPS 经纬度、各检查项结果、正常/异常、照片；记录服务器时间、与点位的距离（超出半径只标记）、早到/准时/迟到、是否跳序；未匹配的码也记入原始记录；异常且计划要求时自动生成内部工单',
  async handler(ctx, input) {
    const now = new Date();
    const result = input.result === 'A' || input.answers.some((a) => a.value === '异常') ? 'A' : 'N';
    if (input.check_method === 'gps' && (input.lat === null || input.lng === null)) fail('GPS 签到需要定位，请允许获取位置后重试');
    const base = {
      rid: ctx.rid,
      account_id: ctx.session.accountId,
      guard_name: ctx.session.name,
      code: input.code,
      method: input.check_method,
      device_time: input.device_time ? sql<Date>`${input.device_time}::timestamp AT TIME ZONE current_setting('TimeZone')` : null,
      server_time: now,
      lat: input.lat,
      lng: input.lng,
      answers: JSON.stringify(input.answers),
      photos: input.photos,
      note: input.note,
      created_by: ctx.session.accountId,
    };
    const keep = async (outcome: CheckinOutcome, reason: string, more: Record<string, unknown> = {}) => {
      const row = await ctx.db
        .insertInto('patrol_checkins')
        .values({ ...base, outcome, reason, ...more })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    };
    const point = await pointByCode(ctx, input.check_method, input.code);
    if (!point || point.status !== 'Y') {
      const reason = point ? `巡更点「${point.name}」已停用` : `${input.code} 不是本小区的巡更点`;
      const id = await keep('unknown', reason, point ? { point_id: point.id, point_name: point.name } : {});
      return reply(
        {
          matched: false,
          outcome: 'unknown' as const,
          outcome_ch: enumText(CHECKIN_OUTCOME, 'unknown'),
          reason,
          checkin_id: id,
          task_id: null,
          point_name: point?.name ?? '',
          timing_ch: '',
          distance_m: null,
          outside: false,
          out_of_order: false,
          order_no: '',
          completion: '',
        },
        `未匹配：${reason}（已记录）`,
      );
    }
    if (point.photo_required === 'Y' && input.photos.length === 0) fail(`巡更点「${point.name}」要求拍照，请添加照片`);
    // the guard's open task holding the point: its window nearest now first
    const slots = await ctx.db
      .selectFrom('patrol_task_points as tp')
      .innerJoin('patrol_tasks as t', (j) => j.onRef('t.rid', '=', 'tp.rid').onRef('t.id', '=', 'tp.task_id'))
      .innerJoin('patrol_plans as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.plan_id'))
      .select(['tp.id', 'tp.task_id', 'tp.status', 'tp.sort', 'tp.due_from', 'tp.due_to', 't.in_order', 't.points_total', 't.points_done'])
      .select(['p.abnormal_order', 'p.order_handler_id', 't.plan_name'])
      .where('tp.rid', '=', ctx.rid)
      .where('tp.point_id', '=', point.id)
      .where('t.current_guard_id', '=', ctx.session.accountId)
      .where('t.status', 'in', ['W', 'D'])
      .where('t.close_at', '>', now)
      .orderBy(sql`abs(extract(epoch FROM t.window_start - ${now}::timestamptz))`)
      .orderBy('t.id')
      .forUpdate()
      .execute();
    const slot = slots.find((s) => s.status === 'W');
    const distance =
      point.lat !== null && point.lng !== null && input.lat !== null && input.lng !== null
        ? distanceMetres(Number(point.lat), Number(point.lng), input.lat, input.lng)
        : null;
    const outside = distance !== null && distance > point.radius;
    const pointMore = { point_id: point.id, point_name: point.name, distance_m: distance, outside };
    if (!slot) {
      const outcome: CheckinOutcome = slots.length ? 'duplicate' : 'no_task';
      const reason = slots.length ? `巡更点「${point.name}」本轮已签到` : `您当前没有包含巡更点「${point.name}」的巡更任务`;
      const id = await keep(outcome, reason, { ...pointMore, task_id: slots[0]?.task_id ?? null });
      return reply(
        {
          matched: false,
          outcome,
          outcome_ch: enumText(CHECKIN_OUTCOME, outcome),
          reason,
          checkin_id: id,
          task_id: slots[0] ? Number(slots[0].task_id) : null,
          point_name: point.name,
          timing_ch: '',
          distance_m: distance,
          outside,
          out_of_order: false,
          order_no: '',
          completion: '',
        },
        `${reason}（已记录）`,
      );
    }
    const taskId = Number(slot.task_id);
    const timing = now < slot.due_from ? 'E' : now > slot.due_to ? 'L' : 'O';
    let outOfOrder = false;
    if (slot.in_order === 'Y') {
      const before = await ctx.db
        .selectFrom('patrol_task_points')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('task_id', '=', taskId)
        .where('sort', '<', slot.sort)
        .where('status', '=', 'W')
        .executeTakeFirst();
      outOfOrder = Boolean(before);
    }
    // an abnormal result opens an internal work order when the plan says so
    let orderId: number | null = null;
    if (result === 'A' && slot.abnormal_order === 'Y' && slot.order_handler_id !== null) {
      const handler = await orderStaff(ctx.db, ctx.rid, [Number(slot.order_handler_id)]);
      if (handler.length === 1) {
        const title = `巡更异常：${point.name}`;
        const content = [
          `巡更计划「${slot.plan_name}」，${ctx.session.name} 签到时发现异常。`,
          ...input.answers.map((a) => `${a.title}：${a.value}`),
          input.note ? `说明：${input.note}` : '',
        ]
          .filter(Boolean)
          .join('\n');
        const row = await ctx.db
          .insertInto('internal_orders')
          .values({
            rid: ctx.rid,
            title,
            kind: 'P',
            location: point.location || point.name,
            content: content.slice(0, 2000),
            handler_ids: [Number(slot.order_handler_id)],
            cc_ids: [],
            photos: input.photos,
            due_hours: 24,
            due_at: sql<Date>`now() + interval '24 hours'`,
            creator: ctx.session.name,
            created_by: ctx.session.accountId,
          })
          .returning(['id', 'due_at'])
          .executeTakeFirstOrThrow();
        orderId = Number(row.id);
        await writeFlowLog(ctx, internalOrderFlow.def, orderId, {
          transition: 'create',
          from: '',
          to: 'P',
          input: { title, patrol_task: taskId },
        });
        await internalOrderBacklog.raise(ctx.db, ctx.rid, {
          sourceId: orderId,
          title: `内部工单待处理：${orderNo(orderId)} ${title}`,
          submitter: ctx.session,
          deadline: row.due_at,
          account: Number(slot.order_handler_id),
        });
      }
    }
    const checkinId = await keep('ok', '', {
      ...pointMore,
      task_id: taskId,
      task_point_id: slot.id,
      timing,
      out_of_order: outOfOrder,
      result,
      order_id: orderId,
    });
    await ctx.db
      .updateTable('patrol_task_points')
      .set({ status: 'Y', checkin_id: checkinId, result, order_id: orderId })
      .where('rid', '=', ctx.rid)
      .where('id', '=', slot.id)
      .execute();
    await keepCheckinHour(ctx.db, ctx.rid, taskId, now);
    const done = slot.points_done + 1;
    const complete = done >= slot.points_total;
    await ctx.db
      .updateTable('patrol_tasks')
      .set((eb) => ({
        points_done: done,
        status: complete ? 'Y' : 'D',
        started_at: sql<Date>`coalesce(started_at, ${now}::timestamptz)`,
        closed_at: complete ? now : null,
        abnormal_count: eb('abnormal_count', '+', result === 'A' ? 1 : 0),
        late_count: eb('late_count', '+', timing === 'L' ? 1 : 0),
      }))
      .where('rid', '=', ctx.rid)
      .where('id', '=', taskId)
      .execute();
    const timingCh = enumText(CHECKIN_TIMING, timing);
    const flags = [
      timingCh,
      outside ? `超出范围 ${distance} 米` : '',
      outOfOrder ? '未按顺序' : '',
      orderId ? `已生成工单 ${orderNo(orderId)}` : '',
    ]
      .filter(Boolean)
      .join('，');
    return reply(
      {
        matched: true,
        outcome: 'ok' as const,
        outcome_ch: enumText(CHECKIN_OUTCOME, 'ok'),
        reason: '',
        checkin_id: checkinId,
        task_id: taskId,
        point_name: point.name,
        timing_ch: timingCh,
        distance_m: distance,
        outside,
        out_of_order: outOfOrder,
        order_no: orderId ? orderNo(orderId) : '',
        completion: `${done}/${slot.points_total}`,
      },
      `签到成功：${point.name}（${flags}）`,
    );
  },
});

export const checkinMethods = [patrolcheckin];
