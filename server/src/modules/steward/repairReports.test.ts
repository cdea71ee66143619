import { addDays, RC, type RepairCountRow } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { ok, refused } from '../../test/answers.js';
import { totalsMismatches } from '../../test/keptData.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { foldTotals, REPAIR_DAY_TOTALS } from '../fees/totals.js';

let s: TestServer;
let admin2: string;
let steward: string;
let tech: string;
let tech2: string;
let guard: string;
let finance: string;
let techId: number;
let tech2Id: number;
let typeId: number;
const ids: Record<'a' | 'b' | 'c', number> = { a: 0, b: 0, c: 0 };

const db = () => s.database.db;
const MARCH = { start_date: '2025-03-01', end_date: '2025-03-31' };

beforeAll(async () => {
  s = await startTestServer();
  tech2Id = await s.addAccount('tech2', { roles: ['repairs'], regions: [1], name: '周师傅' });
  await s.addAccount('finance9', { roles: ['feecount'], regions: [1], name: '报表员' });
  [admin2, steward, tech, tech2, guard, finance] = await s.logins('admin2', 'steward', 'tech', 'tech2', 'guard', 'finance9');
  techId = (await db().selectFrom('accounts').select('id').where('username', '=', 'tech').executeTakeFirstOrThrow()).id;
  const room = (
    await db().selectFrom('rooms').select('id').where('rid', '=', 1).where('address', '=', '1号楼1单元1101').executeTakeFirstOrThrow()
  ).id;
  ok(await s.call('repairsettingsedit', { max_open: 99, auto_rate_hours: 48, reopen_days: 7 }, steward));
  typeId = ok(
    await s.call(
      'repairtypeadd',
      {
        title: '统计测试',
        mode: 'A',
        area: 'H',
        paid: 'N',
        visit_policy: 'N',
        accept_hours: 2,
        finish_hours: 24,
        staff_ids: [techId, tech2Id],
      },
      steward,
    ),
  ).id;
  const add = async () =>
    ok(
      await s.call(
        'repairadd',
        { source: 'D', type_id: typeId, hid: room, reporter: '张三', phone: '13912345678', content: '统计' },
        steward,
      ),
    ).id as number;
  for (const k of ['a', 'b'] as const) {
    ids[k] = await add();
    ok(await s.call('repairdispatch', { id: ids[k], handler_id: techId }, steward));
    ok(await s.call('repairaccept', { id: ids[k] }, tech));
    ok(await s.call('repairfinish', { id: ids[k], note: '好了' }, tech));
    ok(await s.call('repairrate', { id: ids[k], overall: k === 'a' ? 5 : 3, speed: 4, service: 4 }, steward));
  }
  ids.c = await add();
  ok(await s.call('repairdispatch', { id: ids.c, handler_id: tech2Id }, steward));
  // the tickets' times moved into March 2025 (business time zone +08:00)
  const at = (v: string | null) => (v ? new Date(`${v}+08:00`) : null);
  const times = async (id: number, v: Record<string, string | null | number | boolean>) =>
    db()
      .updateTable('repair_tickets')
      .set(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? at(x) : x])) as never)
      .where('rid', '=', 1)
      .where('id', '=', id)
      .execute();
  // A: accepted in 1 h, finished in 12 h less a 2 h pause, on time; rated 5 the next day
  await times(ids.a, {
    created_at: '2025-03-03T09:00:00',
    dispatched_at: '2025-03-03T09:00:00',
    accepted_at: '2025-03-03T10:00:00',
    finish_by: '2025-03-04T09:00:00',
    paused_seconds: 7200,
    finished_at: '2025-03-03T21:00:00',
    rated_at: '2025-03-04T10:00:00',
  });
  // B: accepted in 3 h, finished in 48 h, a day past its deadline (marked then); rated 3
  await times(ids.b, {
    created_at: '2025-03-10T08:00:00',
    dispatched_at: '2025-03-10T08:00:00',
    accepted_at: '2025-03-10T11:00:00',
    finish_by: '2025-03-11T08:00:00',
    finish_breached_at: '2025-03-11T08:00:00',
    overdue: true,
    finished_at: '2025-03-12T08:00:00',
    rated_at: '2025-03-12T12:00:00',
  });
  // C: registered at 23:30 on March 31st, its accept breach at 01:30 on April 1st (still March 31st in UTC)
  await times(ids.c, {
    created_at: '2025-03-31T23:30:00',
    dispatched_at: '2025-03-31T23:30:00',
    finish_by: '2025-04-01T23:30:00',
    accept_breached_at: '2025-04-01T01:30:00',
    overdue: true,
  });
});
afterAll(() => s?.close());

const count = async (group: string, period = MARCH, token = steward) => ok(await s.call('repaircount', { ...period, group }, token));
const row = (o: Partial<Record<string, unknown>>) => ({
  created: 0,
  finished: 0,
  ontime: 0,
  overdue: 0,
  accept_hours: '',
  finish_hours: '',
  rated: 0,
  rating_avg: '',
  satisfaction: '',
  ...o,
});

describe('repaircount', () => {
  it('by type: every figure of the period, and the totals', async () => {
    const a = await count('type');
    const all = row({
      created: 3,
      finished: 2,
      ontime: 1,
      overdue: 1,
      accept_hours: '2.0',
      finish_hours: '29.0',
      rated: 2,
      rating_avg: '4.00',
      satisfaction: '50.0',
    });
    expect(a.items).toEqual([{ key: String(typeId), label: '统计测试', ...all }]);
    expect(a.totals).toEqual({ key: '', label: '合计', ...all });
  });

  it('by handler, by day (each figure on its own event day) and by month', async () => {
    const h = await count('handler');
    expect(h.items.map((r: { label: string; created: number; finished: number }) => [r.label, r.created, r.finished])).toEqual([
      ['孙师傅', 2, 2],
      ['周师傅', 1, 0],
    ]);
    const d = await count('day');
    expect(d.items).toEqual([
      { key: '2025-03-03', label: '2025-03-03', ...row({ created: 1, finished: 1, ontime: 1, accept_hours: '1.0', finish_hours: '10.0' }) },
      { key: '2025-03-04', label: '2025-03-04', ...row({ rated: 1, rating_avg: '5.00', satisfaction: '100.0' }) },
      { key: '2025-03-10', label: '2025-03-10', ...row({ created: 1, accept_hours: '3.0' }) },
      { key: '2025-03-11', label: '2025-03-11', ...row({ overdue: 1 }) },
      {
        key: '2025-03-12',
        label: '2025-03-12',
        ...row({ finished: 1, finish_hours: '48.0', rated: 1, rating_avg: '3.00', satisfaction: '0.0' }),
      },
      { key: '2025-03-31', label: '2025-03-31', ...row({ created: 1 }) },
    ]);
    const m = await count('month', { start_date: '2025-03-01', end_date: '2025-04-30' });
    expect(m.items.map((r: { key: string; created: number; overdue: number }) => [r.key, r.created, r.overdue])).toEqual([
      ['2025-03', 3, 1],
      ['2025-04', 0, 1],
    ]);
    expect(m.totals.overdue).toBe(2);
    // a period of one day: only what happened that day
    expect((await count('type', { start_date: '2025-03-31', end_date: '2025-03-31' })).totals).toMatchObject({ created: 1, finished: 0 });
  });

  it('the report readers only; another community sees its own; bad periods refused', async () => {
    expect((await s.call('repaircount', { ...MARCH, group: 'type' }, guard)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('repaircount', { ...MARCH, group: 'type' }, tech2)).return_code).toBe(RC.NO_PERMISSION);
    expect((await count('type', MARCH, finance)).totals.created).toBe(3);
    const other = await count('type', MARCH, admin2);
    expect(other.items).toEqual([]);
    expect(other.totals.created).toBe(0);
    refused(await s.call('repaircount', { start_date: '2025-03-31', end_date: '2025-03-01' }, steward), /结束日期不能早于开始日期/);
    refused(await s.call('repaircount', { start_date: '2024-01-01', end_date: '2025-03-01' }, steward), /不能超过一年/);
    refused(await s.call('repaircount', { start_date: '2025-02-30', end_date: '2025-03-01' }, steward), /日期不存在/);
    refused(await s.call('repaircount', { ...MARCH, group: 'week' }, steward), /统计方式无效/);
  });

  it('exports the rows and the totals', async () => {
    const file = await s.exportFile('repaircountexport', { ...MARCH, group: 'handler' }, steward);
    const sheet = await readXlsx(ok(file).content_base64);
    expect(sheet.headers.slice(0, 4)).toEqual(['处理人', '登记', '完工', '按时完工']);
    expect(sheet.rows.map(({ values: r }) => [r['处理人'], r['登记'], r['完工']])).toEqual([
      ['孙师傅', '2', '2'],
      ['周师傅', '1', '0'],
      ['合计', '3', '2'],
    ]);
    expect((await s.call('repaircountexport', { ...MARCH, group: 'type' }, guard)).return_code).toBe(RC.NO_PERMISSION);
  });
});

describe('repairdashboard', () => {
  it('open tickets, the overdue ones, registered today; for the desk and technicians of the community', async () => {
    const expected = await sql<{ open: number; overdue: number; today: number }>`
      SELECT count(*) FILTER (WHERE status IN ('W','A','P','S','F','R','V'))::int AS open,
        count(*) FILTER (WHERE status IN ('W','A','P','S','F','R','V') AND overdue)::int AS overdue,
        count(*) FILTER (WHERE created_at >= date_trunc('day', now()))::int AS today
      FROM repair_tickets WHERE rid = 1`.execute(db());
    const d = ok(await s.call('repairdashboard', {}, tech));
    expect(d).toEqual(expected.rows[0]);
    expect(d.overdue).toBeGreaterThanOrEqual(1);
    expect(ok(await s.call('repairdashboard', {}, steward))).toEqual(d);
    expect((await s.call('repairdashboard', {}, guard)).return_code).toBe(RC.NO_PERMISSION);
    // a new ticket counts as open and today's
    const room = (await db().selectFrom('rooms').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow()).id;
    ok(
      await s.call(
        'repairadd',
        { source: 'D', type_id: typeId, hid: room, reporter: '李四', phone: '13912345679', content: '灯不亮' },
        steward,
      ),
    );
    const after = ok(await s.call('repairdashboard', {}, steward));
    expect([after.open, after.today]).toEqual([d.open + 1, d.today + 1]);
    const other = ok(await s.call('repairdashboard', {}, admin2));
    expect(other.open).toBeLessThan(after.open);
  });
});

const byKey = (a: { key?: unknown }, b: { key?: unknown }) => (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0);

/** repaircount's rows and totals as every ticket's events sum them (the statement before the figures were kept). */
async function countedFromTickets(rid: number, group: 'type' | 'handler' | 'day' | 'month', start: string, end: string) {
  const key =
    group === 'type'
      ? sql`t.type_id::text`
      : group === 'handler'
        ? sql`coalesce(t.handler_id, 0)::text`
        : sql`to_char(e.at, ${sql.lit(group === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM')})`;
  const from = sql`${start}::date::timestamp AT TIME ZONE current_setting('TimeZone')`;
  const to = sql`(${end}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')`;
  const { rows } = await sql<Record<string, unknown>>`
    SELECT coalesce(${key}, '合计') AS key,
      (count(*) FILTER (WHERE e.kind = 'created'))::int AS created,
      (count(*) FILTER (WHERE e.kind = 'finished'))::int AS finished,
      (count(*) FILTER (WHERE e.kind = 'finished' AND t.finish_breached_at IS NULL
        AND t.finished_at <= t.finish_by + make_interval(secs => t.paused_seconds)))::int AS ontime,
      (count(*) FILTER (WHERE e.kind = 'overdue'))::int AS overdue,
      (count(*) FILTER (WHERE e.kind = 'rated' AND t.rate_overall > 0))::int AS rated,
      (count(*) FILTER (WHERE e.kind = 'accepted' AND t.dispatched_at IS NOT NULL))::int AS accept_n
    FROM repair_tickets t
    CROSS JOIN LATERAL (VALUES ('created', t.created_at), ('finished', t.finished_at),
      ('overdue', least(t.accept_breached_at, t.finish_breached_at)), ('accepted', t.accepted_at), ('rated', t.rated_at)) e(kind, at)
    WHERE t.rid = ${rid} AND e.at >= ${from} AND e.at < ${to}
    GROUP BY GROUPING SETS ((${key}), ())`.execute(db());
  return rows.sort(byKey);
}

describe('repaircount from the kept days (repair_day_totals)', () => {
  it('answers what the tickets sum, statement by statement', async () => {
    // the tickets above (March 2025) and the demo's (the past year)
    const years = [
      { start_date: '2024-06-01', end_date: '2025-05-31' },
      { start_date: addDays(today(), -364), end_date: today() },
    ];
    const agree = async (step: string) => {
      expect(await totalsMismatches(db(), REPAIR_DAY_TOTALS), step).toEqual([]);
      for (const year of years)
        for (const group of ['type', 'handler', 'day', 'month'] as const) {
          const answer = ok(await s.call('repaircount', { ...year, group }, steward));
          const got = [...answer.items, answer.totals]
            .map((r: RepairCountRow) => ({
              key: r.label === '合计' ? '合计' : r.key,
              created: r.created,
              finished: r.finished,
              ontime: r.ontime,
              overdue: r.overdue,
              rated: r.rated,
            }))
            .sort(byKey);
          const want = (await countedFromTickets(1, group, year.start_date, year.end_date)).map(({ accept_n: _, ...r }) => r);
          expect(got, `${group} after ${step}`).toEqual(want);
        }
    };
    await agree('the tickets above');
    const move = async (statement: string, step: string) => {
      await sql.raw(statement).execute(db());
      await agree(step);
    };
    await move(
      `UPDATE repair_tickets SET created_at = created_at - interval '40 days' WHERE rid = 1 AND id = ${ids.a}`,
      'a ticket registered earlier',
    );
    await move(`UPDATE repair_tickets SET handler_name = '改名师傅' WHERE rid = 1 AND handler_id = ${techId}`, 'a handler renamed');
    await move(
      `UPDATE repair_tickets SET handler_id = ${tech2Id}, handler_name = '周师傅' WHERE rid = 1 AND id = ${ids.b}`,
      'a ticket handed over',
    );
    await move(`UPDATE repair_tickets SET rate_overall = 2, rated_at = now() WHERE rid = 1 AND id = ${ids.c}`, 'a ticket rated');
    await move(
      `UPDATE repair_tickets SET paused_seconds = paused_seconds + 7200, finish_by = finish_by - interval '30 days' WHERE rid = 1`,
      'the deadlines moved',
    );
    await move(`UPDATE repair_tickets SET urge_count = urge_count + 1 WHERE rid = 1`, 'an update of nothing counted');
    await foldTotals(db(), REPAIR_DAY_TOTALS);
    await agree('a fold');
    await move(`DELETE FROM repair_tickets WHERE rid = 1 AND id = ${ids.c}`, 'a ticket deleted');
    await sql`SELECT repair_day_totals_rebuild()`.execute(db());
    await agree('a rebuild');
  });
});
