/**
 * The demo's patrols (docs/product.md#patrols), for 阳光花园 (rid 1, the guard 周保安) and 翠湖苑
 * (rid 2, the guard 郑保安, a demo account of that community): six points each with printed codes,
 * two plans (a daily morning round, a weekday fire-equipment round), and the last 30 days of tasks
 * as the jobs would have made and closed them: most complete, some partial with missed points,
 * some not started, a few abnormal results and late check-ins. Sundays are the guard's rest day in
 * 阳光花园's roster, so no task there.
 */
import { sql, type Kysely } from 'kysely';
import { addDays, weekdayOf } from '@wuye/contract';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { countCheckinHours } from './checkin.js';
import { newQrCode } from './points.js';
import { localInstant } from './tasks.js';

const POINTS = [
  { name: '东门岗亭', kind: 'S', place: '小区东门', nfc: '04A1B2C3D4', checklist: [{ title: '门禁', type: 'normal', options: [] }] },
  { name: '地下车库入口', kind: 'S', place: '地下车库B1入口', nfc: '', checklist: [{ title: '道闸', type: 'normal', options: [] }] },
  {
    name: '水泵房',
    kind: 'E',
    place: '地下一层水泵房',
    nfc: '04A1B2C3D5',
    checklist: [{ title: '水压', type: 'single', options: ['正常', '偏低', '偏高'] }],
  },
  { name: '配电房', kind: 'E', place: '2号楼旁配电房', nfc: '', checklist: [{ title: '设备状态', type: 'normal', options: [] }] },
  { name: '消防通道', kind: 'F', place: '3号楼北侧', nfc: '', checklist: [{ title: '是否堵塞', type: 'normal', options: [] }] },
  { name: '中心花园', kind: 'V', place: '中心花园', nfc: '', checklist: [{ title: '备注', type: 'text', options: [] }] },
] as const;

/** A deterministic 0 … 1 from a number (the demo is the same on every start). */
const rand = (n: number) => {
  const x = Math.sin(n * 12.9898) * 43758.5453;
  return x - Math.floor(x);
};

async function guardOf(db: Kysely<DB>, rid: number): Promise<number> {
  if (rid === 1) return Number((await db.selectFrom('accounts').select('id').where('username', '=', 'guard').executeTakeFirstOrThrow()).id);
  const admin = await db
    .selectFrom('accounts')
    .select(['password_hash', 'group_id'])
    .where('username', '=', 'admin2')
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('accounts')
    .values({
      username: 'cuihu_guard',
      password_hash: admin.password_hash,
      name: '郑保安',
      roles: ['security'],
      sys_type: 'property',
      group_id: admin.group_id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('account_regions').values({ account_id: id, rid, sort: 0 }).execute();
  return Number(id);
}

export async function seedPatrols(db: Kysely<DB>): Promise<void> {
  const tech = await db.selectFrom('accounts').select('id').where('username', '=', 'tech').executeTakeFirst();
  for (const rid of [1, 2]) {
    const guard = await guardOf(db, rid);
    const guardName = rid === 1 ? '周保安' : '郑保安';
    const points = await db
      .insertInto('patrol_points')
      .values(
        POINTS.map((p, i) => ({
          rid,
          number: `XG${String(i + 1).padStart(3, '0')}`,
          name: p.name,
          kind: p.kind,
          place: p.place,
          qr_code: newQrCode(),
          nfc_uid: p.nfc ? `${p.nfc}${rid}` : '',
          wand_no: i < 3 ? `${rid}0${i + 1}` : '',
          checklist: JSON.stringify(p.checklist),
          photo_required: p.kind === 'F' ? 'Y' : 'N',
        })),
      )
      .returning(['id', 'name'])
      .execute();
    const start = addDays(today(), -30);
    const plans = [
      { name: '日间巡逻', cycle: 'D' as const, days: [] as number[], start: '09:00', end: '10:00', route: [0, 1, 2, 3, 5] },
      { name: '消防设备巡检', cycle: 'W' as const, days: [1, 2, 3, 4, 5], start: '14:00', end: '15:00', route: [4, 2, 3] },
    ];
    for (const [pi, p] of plans.entries()) {
      const plan = await db
        .insertInto('patrol_plans')
        .values({
          rid,
          name: p.name,
          in_order: pi === 0 ? 'Y' : 'N',
          cycle: p.cycle,
          cycle_days: p.days,
          start_date: start,
          end_date: addDays(today(), 365),
          shifts: JSON.stringify([{ start: p.start, end: p.end }]),
          ahead_minutes: 30,
          makeup_hours: 2,
          abnormal_order: rid === 1 && tech ? 'Y' : 'N',
          order_handler_id: rid === 1 && tech ? Number(tech.id) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const planId = Number(plan.id);
      await db
        .insertInto('patrol_plan_points')
        .values(
          p.route.map((ix, sort) => ({
            rid,
            plan_id: planId,
            point_id: points[ix]!.id,
            sort: sort + 1,
            offset_from: sort * 10,
            offset_to: sort * 10 + 20,
          })),
        )
        .execute();
      await db.insertInto('patrol_plan_guards').values({ rid, plan_id: planId, account_id: guard }).execute();
      // the past 30 days, closed as the jobs would have closed them
      for (let d = 30; d >= 1; d--) {
        const day = addDays(today(), -d);
        const wd = weekdayOf(day) + 1;
        if (p.cycle === 'W' && !p.days.includes(wd)) continue;
        if (rid === 1 && wd === 7) continue;
        const startMin = Number(p.start.slice(0, 2)) * 60;
        const ws = localInstant(day, startMin);
        const we = localInstant(day, startMin + 60);
        const r = rand(rid * 1000 + pi * 100 + d);
        // 75 % complete, 17 % partial, 8 % not started
        const done = r < 0.08 ? 0 : r < 0.25 ? p.route.length - 1 - Math.floor(rand(d + pi) * 2) : p.route.length;
        const task = await db
          .insertInto('patrol_tasks')
          .values({
            rid,
            plan_id: planId,
            plan_name: p.name,
            guard_id: guard,
            current_guard_id: guard,
            day,
            window_start: ws,
            window_end: we,
            close_at: new Date(we.getTime() + 2 * 3_600_000),
            in_order: pi === 0 ? 'Y' : 'N',
            status: done === p.route.length ? 'Y' : done === 0 ? 'X' : 'P',
            points_total: p.route.length,
            points_done: done,
            started_at: done ? new Date(ws.getTime() + 3 * 60_000) : null,
            closed_at: done === p.route.length ? new Date(ws.getTime() + 50 * 60_000) : new Date(we.getTime() + 2 * 3_600_000),
            created_at: new Date(ws.getTime() - 30 * 60_000),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const taskId = Number(task.id);
        const missed: string[] = [];
        let abnormal = 0;
        let late = 0;
        for (const [sort, ix] of p.route.entries()) {
          const pt = points[ix]!;
          const dueFrom = new Date(ws.getTime() + sort * 10 * 60_000);
          const dueTo = new Date(ws.getTime() + (sort * 10 + 20) * 60_000);
          const tp = await db
            .insertInto('patrol_task_points')
            .values({
              rid,
              task_id: taskId,
              point_id: pt.id,
              point_name: pt.name,
              sort: sort + 1,
              due_from: dueFrom,
              due_to: dueTo,
              status: sort < done ? 'Y' : 'M',
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          if (sort >= done) {
            missed.push(pt.name);
            continue;
          }
          const isLate = rand(taskId * 7 + sort) < 0.1;
          const isAbnormal = rand(taskId * 13 + sort) < 0.04;
          late += isLate ? 1 : 0;
          abnormal += isAbnormal ? 1 : 0;
          const at = new Date(dueFrom.getTime() + (isLate ? 25 : 5 + sort) * 60_000);
          const c = await db
            .insertInto('patrol_checkins')
            .values({
              rid,
              account_id: guard,
              guard_name: guardName,
              code: `XG${String(ix + 1).padStart(3, '0')}`,
              method: ix < 3 && rid === 1 ? 'nfc' : 'qr',
              device_time: at,
              server_time: new Date(at.getTime() + 2000),
              outcome: 'ok',
              point_id: pt.id,
              point_name: pt.name,
              task_id: taskId,
              task_point_id: tp.id,
              timing: isLate ? 'L' : 'O',
              result: isAbnormal ? 'A' : 'N',
              answers: JSON.stringify([{ title: POINTS[ix]!.checklist[0].title, value: isAbnormal ? '异常' : '正常' }]),
              note: isAbnormal ? '已报工程部' : '',
              created_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await db
            .updateTable('patrol_task_points')
            .set({ checkin_id: c.id, result: isAbnormal ? 'A' : 'N' })
            .where('rid', '=', rid)
            .where('id', '=', tp.id)
            .execute();
        }
        await db
          .updateTable('patrol_tasks')
          .set({ missed_names: missed.join('、'), abnormal_count: abnormal, late_count: late })
          .where('rid', '=', rid)
          .where('id', '=', taskId)
          .execute();
      }
    }
    // a scan of a label that is no point of the community, kept in the raw log
    await db
      .insertInto('patrol_checkins')
      .values({
        rid,
        account_id: guard,
        guard_name: guardName,
        code: 'XG999',
        method: 'qr',
        server_time: sql<Date>`now() - interval '3 days'`,
        outcome: 'unknown',
        reason: 'XG999 不是本小区的巡更点',
      })
      .execute();
    await countCheckinHours(db, rid);
  }
}
