import { fenToYuan, toFen } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { periodRange } from '../fees/calc.js';
import { roomContact } from '../owners/livingPeople.js';
import { recordServiceRating } from './scores.js';

/**
 * The demo's repairs (docs/product.md#repairs): the type tree of 阳光花园 (水电, 门窗, 公共设施 with
 * their second level, 孙师傅 and 钱管家 bound) and a believable month of tickets in every state, some
 * overdue, paused, urged, rated (by hand and automatically), reopened and closed, one waiting for
 * its fee bill at the cashier, with their timelines; a type and two tickets in 翠湖苑. Times are
 * relative to now, so the month is always the last one.
 */

type Step = 'dispatch' | 'accept' | 'pause' | 'resume' | 'finish' | 'pay' | 'rate' | 'visit' | 'reopen' | 'close' | 'urge';

interface TicketSeed {
  type: string;
  /** hours ago it was registered */
  ago: number;
  room?: number;
  place?: string;
  reporter?: string;
  phone?: string;
  content: string;
  source?: 'D' | 'T' | 'N';
  urgent?: boolean;
  steps: Step[];
  fee?: Array<{ name: string; amount: string }>;
  rating?: [number, number, number, string];
  auto?: boolean;
  /** left past its deadline for the clock job to mark (its first run, at the server's start) */
  unmarked?: boolean;
}

const TYPES: Array<{
  title: string;
  parent?: string;
  mode?: 'A' | 'G' | 'R';
  area?: 'H' | 'P';
  paid?: 'Y' | 'N';
  accept?: number;
  finish?: number;
  visit?: 'A' | 'U' | 'N';
  remark?: string;
}> = [
  { title: '水电', mode: 'A', area: 'H', paid: 'Y', remark: '户内水电，有偿' },
  { title: '水管漏水', parent: '水电', mode: 'A', area: 'H', paid: 'Y', accept: 1, finish: 12 },
  { title: '电路跳闸', parent: '水电', mode: 'A', area: 'H', paid: 'N', accept: 1, finish: 6, visit: 'U' },
  { title: '门窗', mode: 'G', area: 'H', paid: 'Y', remark: '师傅抢单' },
  { title: '门锁维修', parent: '门窗', mode: 'G', area: 'H', paid: 'Y', accept: 2, finish: 24 },
  { title: '窗户更换', parent: '门窗', mode: 'A', area: 'H', paid: 'Y', accept: 4, finish: 72 },
  { title: '公共设施', mode: 'A', area: 'P', paid: 'N', visit: 'U', remark: '公区报修，无偿' },
  { title: '电梯故障', parent: '公共设施', mode: 'A', area: 'P', paid: 'N', accept: 1, finish: 8, visit: 'A' },
  { title: '公区照明', parent: '公共设施', mode: 'R', area: 'P', paid: 'N', accept: 2, finish: 24, visit: 'N' },
  { title: '健身器材', parent: '公共设施', mode: 'A', area: 'P', paid: 'N', accept: 4, finish: 48, visit: 'N' },
];

const TICKETS: TicketSeed[] = [
  // waiting for dispatch, one of them overdue and urged
  { type: '水管漏水', ago: 2, room: 0, content: '厨房水槽下方水管接口渗水，地面有积水', steps: [] },
  {
    type: '电梯故障',
    ago: 30,
    place: '2号楼1单元电梯',
    content: '电梯到8楼门关不上，反复开合',
    source: 'T',
    urgent: true,
    steps: ['urge', 'urge'],
  },
  { type: '健身器材', ago: 5, place: '中心花园健身区', content: '漫步机踏板松动，有安全隐患', source: 'N', steps: [] },
  // dispatched, waiting for acceptance
  { type: '电路跳闸', ago: 1, room: 3, content: '卫生间插座一用电吹风就跳闸', steps: ['dispatch'] },
  { type: '窗户更换', ago: 9, room: 5, content: '主卧窗户玻璃有裂纹，需更换', steps: ['dispatch'] },
  // in progress, paused
  { type: '水管漏水', ago: 20, room: 7, content: '卫生间马桶进水阀关不严，一直流水', steps: ['dispatch', 'accept'] },
  { type: '门锁维修', ago: 40, room: 9, content: '入户门锁芯转不动，钥匙拔不出', steps: ['dispatch', 'accept', 'pause'] },
  { type: '电梯故障', ago: 14, place: '1号楼2单元电梯', content: '电梯运行有异响', source: 'N', steps: ['dispatch', 'accept'] },
  // finished, waiting for payment: a bill at the cashier
  {
    type: '水管漏水',
    ago: 50,
    room: 11,
    content: '阳台洗衣机下水管堵塞反水',
    steps: ['dispatch', 'accept', 'finish'],
    fee: [
      { name: '疏通下水管', amount: '60.00' },
      { name: '更换软管', amount: '25.00' },
    ],
  },
  // waiting for the rating, one near the auto-rating
  { type: '电路跳闸', ago: 26, room: 13, content: '客厅灯不亮，开关无反应', steps: ['dispatch', 'accept', 'finish'] },
  { type: '门锁维修', ago: 60, room: 15, content: '防盗门把手松脱', steps: ['dispatch', 'accept', 'finish'] },
  // waiting for the follow-up
  {
    type: '电梯故障',
    ago: 96,
    place: '3号楼1单元电梯',
    content: '电梯按钮失灵，按键无反应',
    source: 'T',
    steps: ['dispatch', 'accept', 'finish'],
  },
  {
    type: '水管漏水',
    ago: 120,
    room: 17,
    content: '热水器进水管滴水',
    steps: ['dispatch', 'accept', 'finish', 'rate'],
    rating: [4, 4, 5, '师傅很专业'],
  },
  // completed: rated by hand and automatically, visited, one reopened and done again
  {
    type: '电路跳闸',
    ago: 200,
    room: 19,
    content: '厨房插座没电',
    steps: ['dispatch', 'accept', 'finish', 'rate'],
    rating: [5, 5, 5, '来得很快，服务好'],
  },
  {
    type: '窗户更换',
    ago: 300,
    room: 21,
    content: '次卧窗户合页断裂',
    steps: ['dispatch', 'accept', 'pause', 'resume', 'finish', 'rate', 'visit'],
    rating: [3, 2, 4, '等配件等了很久'],
  },
  {
    type: '水管漏水',
    ago: 420,
    room: 23,
    content: '厨房水龙头关不紧',
    steps: ['dispatch', 'accept', 'finish', 'rate', 'visit'],
    rating: [2, 3, 2, ''],
    auto: true,
  },
  {
    type: '公区照明',
    ago: 360,
    place: '5号楼地下车库B区',
    content: '车库照明灯一排不亮',
    source: 'N',
    steps: ['dispatch', 'accept', 'finish'],
  },
  {
    type: '门锁维修',
    ago: 560,
    room: 25,
    content: '入户门关不严，锁舌卡住',
    steps: ['dispatch', 'accept', 'finish', 'rate', 'visit', 'reopen', 'dispatch', 'accept', 'finish', 'rate', 'visit'],
    rating: [4, 4, 4, '第二次修好了'],
  },
  { type: '健身器材', ago: 640, place: '儿童游乐区', content: '滑梯扶手螺丝脱落', source: 'N', steps: ['dispatch', 'accept', 'finish'] },
  // closed
  { type: '窗户更换', ago: 150, room: 27, content: '纱窗破损', steps: ['close'] },
  {
    type: '电梯故障',
    ago: 250,
    place: '2号楼2单元电梯',
    content: '电梯困人（已由维保单位处理）',
    source: 'T',
    urgent: true,
    steps: ['dispatch', 'close'],
  },
];

const H = 3_600_000;

export async function seedRepairs(db: Kysely<DB>): Promise<void> {
  await seedCommunity(db, 1, TYPES, TICKETS);
  await seedCommunity(
    db,
    2,
    [{ title: '水电维修', mode: 'A', area: 'H', paid: 'N' }],
    [
      { type: '水电维修', ago: 3, room: 0, content: '卫生间地漏返味', steps: [] },
      { type: '水电维修', ago: 80, room: 2, content: '阳台灯不亮', steps: ['dispatch', 'accept', 'finish', 'rate'], rating: [5, 5, 5, ''] },
    ],
  );
}

async function seedCommunity(db: Kysely<DB>, rid: number, types: typeof TYPES, tickets: TicketSeed[]) {
  const staff = await db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name', 'a.username'])
    .where('ar.rid', '=', rid)
    .where('a.username', 'in', ['tech', 'steward', 'admin2'])
    .orderBy('a.id')
    .execute();
  const tech = staff.find((a) => a.username === 'tech') ?? staff[0];
  const desk = staff.find((a) => a.username === 'steward') ?? staff[0];
  if (!tech || !desk) return;
  const bound = [...new Set([tech.id, desk.id])];
  // the desk's settings: a technician holds up to 8 open tickets
  await db.insertInto('repair_settings').values({ rid, max_open: 8, auto_rate_hours: 48, reopen_days: 7 }).execute();
  const typeIds = new Map<string, { id: number; paid: string; visit: string; accept: number; finish: number }>();
  for (const [i, t] of types.entries()) {
    const parent = t.parent ? typeIds.get(t.parent)!.id : 0;
    const row = await db
      .insertInto('repair_types')
      .values({
        rid,
        parent_id: parent,
        title: t.title,
        mode: t.mode ?? 'A',
        area: t.area ?? 'H',
        paid: t.paid ?? 'N',
        accept_hours: t.accept ?? 2,
        finish_hours: t.finish ?? 24,
        warn_minutes: 30,
        visit_policy: t.visit ?? 'A',
        staff_ids: bound,
        sort: i + 1,
        remark: t.remark ?? '',
        created_by: desk.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    typeIds.set(t.title, { id: Number(row.id), paid: t.paid ?? 'N', visit: t.visit ?? 'A', accept: t.accept ?? 2, finish: t.finish ?? 24 });
  }
  const rooms = await db
    .selectFrom('rooms')
    .select(['id', 'bid', 'tid', 'address'])
    .where('rid', '=', rid)
    .orderBy('id')
    .limit(40)
    .execute();
  // the journey's room stays free of demo tickets: it is the one a user registers first
  const free = rooms.filter((r) => !r.address.endsWith('1号楼1单元1101'));
  const now = Date.now();
  const day = today().replaceAll('-', '');
  let seq = 0;
  for (const k of [...tickets].sort((a, b) => b.ago - a.ago)) {
    const type = typeIds.get(k.type)!;
    const room = k.room !== undefined ? free[k.room % free.length] : undefined;
    const owner = room ? await roomContact(db, rid, room.id) : undefined;
    const created = new Date(now - k.ago * H);
    const stamp = created.toISOString().slice(0, 10).replaceAll('-', '');
    const no = `BX${stamp === day ? day : stamp}${String(++seq).padStart(4, '0')}`;
    const logs: Array<{
      transition: string;
      from: string;
      to: string;
      at: Date;
      operator: string;
      by: number | null;
      input: Record<string, unknown>;
    }> = [];
    let at = created.getTime();
    const next = (hours: number) => {
      at = Math.min(at + hours * H, now - 60_000);
      return new Date(at);
    };
    const v: Record<string, unknown> = {
      rid,
      no,
      source: k.source ?? 'D',
      type_id: type.id,
      hid: room?.id ?? null,
      bid: room?.bid ?? null,
      place: k.place ?? '',
      reporter: k.reporter ?? owner?.realname ?? (room ? '业主' : desk.name),
      phone: k.phone ?? owner?.mobile ?? '13800138000',
      content: k.content,
      urgent: k.urgent ?? false,
      status: 'W',
      finish_by: new Date(created.getTime() + type.finish * H),
      created_at: created,
      created_by: desk.id,
    };
    logs.push({ transition: 'create', from: '', to: 'W', at: created, operator: desk.name, by: desk.id, input: { note: k.content } });
    let state = 'W';
    const move = (
      transition: string,
      to: string,
      when: Date,
      who: { id: number; name: string } | null,
      input: Record<string, unknown> = {},
    ) => {
      logs.push({ transition, from: state, to, at: when, operator: who?.name ?? '系统', by: who?.id ?? null, input });
      state = to;
    };
    let billFen = 0n;
    for (const step of k.steps) {
      if (step === 'urge') {
        v.urge_count = Number(v.urge_count ?? 0) + 1;
        logs.push({
          transition: 'urge',
          from: state,
          to: state,
          at: next(2),
          operator: desk.name,
          by: desk.id,
          input: { note: '业主来电催促' },
        });
      } else if (step === 'dispatch') {
        const when = next(0.3);
        Object.assign(v, { handler_id: tech.id, handler_name: tech.name, dispatched_at: when });
        v.accept_by ??= new Date(when.getTime() + type.accept * H);
        move('dispatch', 'A', when, desk, { handler_id: tech.id, note: '' });
      } else if (step === 'accept') {
        const when = next(0.5);
        v.accepted_at = when;
        move('accept', 'P', when, tech);
      } else if (step === 'pause') {
        const when = next(1);
        Object.assign(v, { paused_at: when, pause_reason: '配件缺货，等待到货', resume_date: today() });
        move('pause', 'S', when, tech, { reason: '配件缺货，等待到货', resume_date: today() });
      } else if (step === 'resume') {
        const from = (v.paused_at as Date).getTime();
        const when = next(20);
        Object.assign(v, { paused_at: null, paused_seconds: Math.round((when.getTime() - from) / 1000) });
        move('resume', 'P', when, tech);
      } else if (step === 'finish') {
        const when = next(2);
        const lines = k.fee ?? [];
        billFen = lines.reduce((s, l) => s + toFen(l.amount), 0n);
        const to = billFen > 0n ? 'F' : room ? 'R' : type.visit === 'N' ? 'D' : 'V';
        Object.assign(v, {
          finished_at: when,
          finish_note: '已处理完毕，现场测试正常',
          materials: lines.length ? '软管1根' : '',
          fee_lines: JSON.stringify(lines),
          fee_total: fenToYuan(billFen),
          rate_since: to === 'R' ? when : null,
          completed_at: to === 'D' ? when : null,
        });
        move('finish', to, when, tech, { note: '已处理完毕，现场测试正常', fee_lines: lines });
      } else if (step === 'rate') {
        const when = next(k.auto ? 48 : 6);
        const [o, s, e, text] = k.rating ?? [5, 5, 5, ''];
        const to = type.visit === 'A' || k.auto ? 'V' : 'D';
        Object.assign(v, {
          rate_overall: k.auto ? 5 : o,
          rate_speed: k.auto ? 5 : s,
          rate_service: k.auto ? 5 : e,
          rate_text: k.auto ? '超时未评价，系统默认好评' : text,
          rated_at: when,
          rate_auto: !!k.auto,
          completed_at: to === 'D' ? when : null,
        });
        if (k.auto) move('autorate', to, when, null, { note: '超时未评价，系统默认好评' });
        else move('rate', to, when, desk, { overall: o, speed: s, service: e, text });
      } else if (step === 'visit') {
        const when = next(24);
        Object.assign(v, { visit_satisfied: 'Y', visit_note: '业主表示满意', visited_at: when, completed_at: when });
        move('visit', 'D', when, desk, { satisfied: 'Y', note: '业主表示满意' });
      } else if (step === 'reopen') {
        const when = next(24);
        v.reopen_count = Number(v.reopen_count ?? 0) + 1;
        Object.assign(v, {
          finished_at: null,
          completed_at: null,
          rated_at: null,
          rate_overall: null,
          rate_speed: null,
          rate_service: null,
        });
        move('reopen', 'W', when, desk, { reason: '业主反映门又关不严了' });
      } else if (step === 'close') {
        const when = next(1);
        Object.assign(v, { closed_at: when, close_reason: '业主已自行处理' });
        move('close', 'C', when, desk, { reason: '业主已自行处理' });
      }
    }
    v.status = state;
    // the clock's view of it: breaches marked as the job would have
    const acceptBy = v.accept_by as Date | undefined;
    if (acceptBy && ((v.accepted_at as Date | undefined)?.getTime() ?? now) > acceptBy.getTime()) {
      Object.assign(v, { overdue: true, accept_breached_at: acceptBy });
    }
    const finishBy = (v.finish_by as Date).getTime() + Number(v.paused_seconds ?? 0) * 1000;
    const ran =
      (v.finished_at as Date | undefined)?.getTime() ??
      (state === 'C' ? (v.closed_at as Date).getTime() : ((v.paused_at as Date | undefined)?.getTime() ?? now));
    if (ran > finishBy && !k.unmarked) Object.assign(v, { overdue: true, finish_breached_at: new Date(finishBy) });
    const row = await db
      .insertInto('repair_tickets')
      .values(v as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    if (billFen > 0n && room) v.bill_id = await unpaidBill(db, rid, room, no, billFen);
    if (v.bill_id)
      await db
        .updateTable('repair_tickets')
        .set({ bill_id: v.bill_id as number })
        .where('rid', '=', rid)
        .where('id', '=', id)
        .execute();
    await db
      .insertInto('workflow_logs')
      .values(
        logs.map((l) => ({
          rid,
          flow: 'repair',
          row_id: id,
          transition: l.transition,
          from_state: l.from,
          to_state: l.to,
          input: JSON.stringify(l.input),
          operator: l.operator,
          created_by: l.by,
          created_at: l.at,
        })),
      )
      .execute();
    // a rating counts for the technician's scores as repairrate and the auto-rating record it
    if (v.rated_at && v.rate_overall && v.handler_id) {
      await recordServiceRating(db, {
        rid,
        staffId: v.handler_id as number,
        source: 'repair',
        sourceId: id,
        score: v.rate_overall as number,
        ratedAt: v.rated_at as Date,
      });
    }
    // the to-do list as the desk and the clock leave it
    const todo = (kind: string, sourceId: string, title: string, roles: string[], account: number | null = null) =>
      db
        .insertInto('backlog')
        .values({
          rid,
          kind,
          source_id: sourceId,
          title,
          content: k.content.slice(0, 60),
          link: `/steward/repairs?id=${id}`,
          roles,
          account_id: account,
        })
        .execute();
    if (state === 'W') await todo('repair', String(id), `报修待派单：${no}`, ['steward']);
    if (state === 'A') await todo('repairwork', String(id), `${tech.name}：报修待接单 ${no}`, ['repairs'], tech.id);
    if (v.overdue && ['W', 'A', 'P', 'S'].includes(state)) await todo('repair', `${id}-overdue`, `报修超时：${no}`, ['steward']);
  }
}

/** A finished paid repair's fee bill, unpaid (status E), under cost type 维修费 as repairs.ts bills it. */
async function unpaidBill(
  db: Kysely<DB>,
  rid: number,
  room: { id: number; bid: number; tid: number },
  no: string,
  fen: bigint,
): Promise<number> {
  await db
    .insertInto('fee_cost_types')
    .values({ rid, cost_type: 'repair', title: '维修费', sort: 90 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const item = await db
    .insertInto('fee_items')
    .values({ rid, cost_type: 'repair', title: `维修费-${no}`, pricing: 'fixed', unit_price: '0', status: 'N', remark: '报修工单自动生成' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const day = today();
  const period = day.slice(0, 7);
  const amount = fenToYuan(fen);
  const bill = await db
    .insertInto('fee_bills')
    .values({
      rid,
      hid: room.id,
      bid: room.bid,
      tid: room.tid,
      item_id: item.id,
      cost_type: 'repair',
      title: `维修费-${no}`,
      period,
      daterange: periodRange(period, 1).daterange,
      measure: '1',
      unit_price: amount,
      fee: amount,
      source: 'repair',
      due_date: day,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(bill.id);
}
