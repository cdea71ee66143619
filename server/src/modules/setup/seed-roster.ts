import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';

/**
 * The demo's duty rosters (issue 36): three shifts and two rosters of 阳光花园 (rid 1) taking
 * effect on the first of the current month, so the month grid is full: the guard 周保安 works 白班
 * Monday to Saturday and rests on Sundays; the repairman 孙师傅 and the steward 钱管家 turn
 * 白班, 夜班, rest in a cycle of three days.
 */
export async function seedRosters(db: Kysely<DB>): Promise<void> {
  const rid = 1;
  const start = `${today().slice(0, 7)}-01`;
  const shifts = await db
    .insertInto('duty_shifts')
    .values([
      { rid, name: '白班', times: '08:00-20:00', remark: '门岗、巡逻' },
      { rid, name: '夜班', times: '20:00-08:00', remark: '跨夜，到次日 08:00' },
      { rid, name: '行政班', times: '09:00-12:00,13:30-18:00', remark: '办公室' },
    ])
    .returning(['id', 'name'])
    .execute();
  const shift = (name: string) => Number(shifts.find((s) => s.name === name)!.id);
  const staff = await db.selectFrom('accounts').select(['id', 'username']).where('username', 'in', ['guard', 'tech', 'steward']).execute();
  const account = (username: string) => staff.find((a) => a.username === username)!.id;
  const day = shift('白班');
  const night = shift('夜班');
  const rosters = [
    {
      name: '保安周排班',
      kind: 'W' as const,
      cycle: 1,
      days: [day, day, day, day, day, day, null],
      staff: [account('guard')],
      remark: '周日休息',
    },
    {
      name: '工程值班轮班',
      kind: 'D' as const,
      cycle: 3,
      days: [day, night, null],
      staff: [account('tech'), account('steward')],
      remark: '白班、夜班、休息，三天一轮',
    },
  ];
  for (const r of rosters) {
    const { id } = await db
      .insertInto('schedules')
      .values({ rid, name: r.name, kind: r.kind, cycle: r.cycle, start_date: start, remark: r.remark })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('schedule_days')
      .values(r.days.map((shiftId, dayNo) => ({ rid, schedule_id: id, day_no: dayNo, shift_id: shiftId })))
      .execute();
    await db
      .insertInto('schedule_staff')
      .values(r.staff.map((accountId) => ({ rid, schedule_id: id, account_id: accountId })))
      .execute();
  }
}
