import { addMonths, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../test/answers.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { today as todayIn } from '../../lib/wire.js';
import { maskPlate } from './methods.js';

type Row = Record<string, any>;

let s: TestServer;
let admin: string;
let admin2: string;
let board: string;

/** A board session as the board window gets it: a one-time code from a console, traded once. */
async function boardSession(console: string, side: 'community' | 'group' = 'community') {
  const code = ok(await s.call('boardcode', {}, console, side)).code as string;
  return ok(await s.call('boardlogin', { code })).token as string;
}

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2] = await s.logins('admin', 'admin2');
  board = await boardSession(admin);
});
afterAll(() => s.close());

describe('the management board', () => {
  it('counts the community’s assets: rooms lived in or let, spaces taken, devices online', async () => {
    const a = ok(await s.call('boardassets', {}, board)) as Row;
    const rooms = await s.database.db.selectFrom('rooms').select(['state']).where('rid', '=', 1).execute();
    expect(a.rooms).toBe(rooms.length);
    expect(a.occupied).toBe(rooms.filter((r) => r.state === 'occupied' || r.state === 'rented').length);
    expect(a.vacant).toBe(a.rooms - a.occupied);
    expect(a.occupancy).toBe(((a.occupied * 100) / a.rooms).toFixed(1));
    expect(a.buildings).toBeGreaterThan(0);
    expect(a.spaces).toBeGreaterThan(0);
    expect(a.devices_online).toBeLessThanOrEqual(a.devices);
    expect(a.as_of).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // another community's board counts its own
    const other = ok(await s.call('boardassets', {}, await boardSession(admin2))) as Row;
    const rooms2 = await s.database.db.selectFrom('rooms').select(['id']).where('rid', '=', 2).execute();
    expect(other.rooms).toBe(rooms2.length);
  });

  it('shows the month’s collection as the home card does, and today’s takings', async () => {
    const m = ok(await s.call('boardmoney', {}, board)) as Row;
    const home = ok(await s.call('feedashboard', {}, admin)) as Row;
    expect(m).toMatchObject({ month: home.month, receivable: home.receivable, received: home.received, rate: home.rate });
    const desk = ok(await s.call('regiondesktop', {}, admin)) as Row;
    expect(m.today_amount).toBe(desk.today.amount);
    expect(m.today_count).toBe(desk.today.count);
    expect(m.arrears).toBe(desk.arrears.fee);
  });

  it('counts open and overdue tickets as the repair card does, and raises the alerts', async () => {
    const o = ok(await s.call('boardorders', {}, board)) as Row;
    const repairs = ok(await s.call('repairdashboard', {}, admin)) as Row;
    expect(o).toMatchObject({ repairs_open: repairs.open, repairs_overdue: repairs.overdue, repairs_today: repairs.today });
    const complaints = await s.database.db
      .selectFrom('complaints')
      .select(['status'])
      .where('rid', '=', 1)
      .where('status', 'in', ['W', 'D'])
      .execute();
    expect(o.complaints_open).toBe(complaints.length);
    const alerts = (ok(await s.call('boardalerts', {}, board)) as Row).items as Row[];
    expect(alerts.map((a) => a.key)).toEqual(['old_arrears', 'devices_offline', 'repairs_overdue', 'complaints_overdue', 'valves_closed']);
    const meters = ok(await s.call('meterdashboard', {}, admin)) as Row;
    expect(alerts.find((a) => a.key === 'valves_closed')!.count).toBe(meters.closed);
    expect(alerts.find((a) => a.key === 'repairs_overdue')!.count).toBe(repairs.overdue);
    expect(alerts.find((a) => a.key === 'old_arrears')!.amount).toMatch(/^\d+\.\d\d$/);
    // the unpaid bills due more than six months ago, counted from the bills themselves
    const old = await s.database.db
      .selectFrom('fee_bills')
      .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(sum(fee), 0)::numeric(14,2)::text`.as('fee')])
      .where('rid', '=', 1)
      .where('status', '<>', 'Y')
      .where('due_date', '<', addMonths(todayIn(), -6))
      .executeTakeFirstOrThrow();
    expect(alerts.find((a) => a.key === 'old_arrears')).toMatchObject({ count: old.n, amount: old.fee });
    const patrols = ok(await s.call('boardpatrols', {}, board)) as Row;
    expect(patrols).toMatchObject(ok(await s.call('patroldashboard', {}, admin)) as Row);
  });

  it('feeds the latest payments, gate events and door passes, newest first, names and plates masked', async () => {
    const feed = (ok(await s.call('boardfeed', {}, board)) as Row).items as Row[];
    expect(feed.length).toBeGreaterThan(0);
    expect(feed.length).toBeLessThanOrEqual(12);
    const times = feed.map((f) => f.at as string);
    expect([...times].sort().reverse()).toEqual(times);
    const payers = await s.database.db.selectFrom('fee_payments').select('payer_name').where('rid', '=', 1).execute();
    const names = new Set(payers.map((p) => p.payer_name).filter((n) => [...n].length >= 2));
    for (const f of feed) for (const n of names) expect(f.text, f.text).not.toContain(n);
    expect(maskPlate('京A12345')).toBe('京A***5');
    expect(maskPlate('粤B')).toBe('粤B');
  });

  it('ranks the group’s communities by this month’s 收费率; a community’s row matches its own figures to the fen', async () => {
    const leader = await s.login('leader');
    const groupBoard = await boardSession(leader, 'group');
    const g = ok(await s.call('boardgroup', {}, groupBoard, 'group')) as Row;
    expect(g.communities).toBe(g.ranking.length);
    const rates = (g.ranking as Row[]).map((r) => Number(r.rate));
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    const sunny = (g.ranking as Row[]).find((r) => r.rid === 1)!;
    const own = ok(await s.call('boardmoney', {}, board)) as Row;
    expect(sunny).toMatchObject({ receivable: own.receivable, received: own.received, rate: own.rate });
    expect(g.trend).toHaveLength(6);
    expect(g.trend.at(-1)).toMatchObject({ month: g.month, receivable: g.receivable, received: g.received });
    // the community's board session has no group figures, and a console may read the board too
    expect((await s.call('boardgroup', {}, board, 'group')).return_code).not.toBe(RC.SUCCESS);
    ok(await s.call('boardgroup', {}, leader, 'group'));
  });

  it('is for staff: a merchant account reads none of it', async () => {
    const merchant = await s.login('merchant');
    for (const m of ['boardassets', 'boardmoney', 'boardorders', 'boardalerts', 'boardpatrols', 'boardfeed']) {
      expect((await s.call(m, {}, merchant)).return_code, m).toBe(RC.NO_PERMISSION);
    }
  });
});
