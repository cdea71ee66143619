/**
 * The repair clock (docs/product.md#repairs), a periodic job: marks each deadline breach once (超时
 * on the ticket, a to-do for the dispatcher), warns the handling technician once at the type's
 * warning time (a to-do for them), rates a ticket left 待评价 past the desk's hours (5/5/5, marked
 * automatic), and hands out the round-robin types' waiting tickets among their bound technicians
 * on duty (modules/setup/duty.ts) below the maximum of open tickets. A paused ticket's clock
 * stands still: its finish deadline is compared with the time it ran (paused_seconds, paused_at).
 */
import { repairFlow } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { whoIsOnDuty } from '../setup/duty.js';
import { deskBacklog, handTo, rateHandler, techBacklog } from './repairs.js';
import { openCounts, REPAIR_DEFAULTS, repairTechs } from './repairTypes.js';

export const REPAIR_CLOCK = 'repair_clock';

/** A step the clock takes, in the ticket's timeline (operator 系统). */
async function logStep(
  db: Kysely<DB>,
  rid: number,
  id: number,
  transition: string,
  from: string,
  to: string,
  input: Record<string, unknown> = {},
) {
  await db
    .insertInto('workflow_logs')
    .values({
      rid,
      flow: repairFlow.def.name,
      row_id: id,
      transition,
      from_state: from,
      to_state: to,
      input: JSON.stringify(input),
      operator: '系统',
    })
    .execute();
}

/** How long the finish clock has run past the deadline's start: now, or the pause's start, less the paused seconds. */
const clockAt = sql`coalesce(t.paused_at, now()) - make_interval(secs => t.paused_seconds)`;

async function markBreaches(db: Kysely<DB>): Promise<number> {
  const { rows: accept } = await sql<{ rid: number; id: number; no: string; handler_name: string }>`
    UPDATE repair_tickets t SET overdue = true, accept_breached_at = now()
    WHERE t.status = 'A' AND t.accept_by < now() AND t.accept_breached_at IS NULL
    RETURNING t.rid, t.id, t.no, t.handler_name`.execute(db);
  const { rows: finish } = await sql<{ rid: number; id: number; no: string; handler_name: string }>`
    UPDATE repair_tickets t SET overdue = true, finish_breached_at = now()
    WHERE t.status IN ('W', 'A', 'P', 'S') AND t.finish_breached_at IS NULL AND ${clockAt} > t.finish_by
    RETURNING t.rid, t.id, t.no, t.handler_name`.execute(db);
  for (const [rows, what] of [
    [accept, '未按时接单'],
    [finish, '未按时完成'],
  ] as const) {
    for (const r of rows) {
      await deskBacklog.raise(db, r.rid, {
        sourceId: `${r.id}-overdue`,
        title: `报修超时：${r.no}`,
        content: `${what}${r.handler_name ? `（处理人 ${r.handler_name}）` : ''}`,
      });
    }
  }
  return accept.length + finish.length;
}

async function warn(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ rid: number; id: number; no: string; handler_id: number; handler_name: string; status: string }>`
    UPDATE repair_tickets t SET warned_at = now()
    FROM repair_types y
    WHERE y.rid = t.rid AND y.id = t.type_id AND y.warn_minutes > 0
      AND t.status IN ('A', 'P') AND t.handler_id IS NOT NULL AND t.warned_at IS NULL
      AND CASE WHEN t.status = 'A' THEN now() >= t.accept_by - make_interval(mins => y.warn_minutes)
               ELSE ${clockAt} >= t.finish_by - make_interval(mins => y.warn_minutes) END
    RETURNING t.rid, t.id, t.no, t.handler_id, t.handler_name, t.status`.execute(db);
  for (const r of rows) {
    await techBacklog.raise(db, r.rid, {
      sourceId: `${r.id}-warn`,
      title: `${r.handler_name}：报修即将超时 ${r.no}`,
      content: r.status === 'A' ? '接单时限将到，请尽快接单' : '完成时限将到，请尽快完工',
      account: Number(r.handler_id),
    });
  }
  return rows.length;
}

async function autoRate(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ rid: number; id: number; handler_id: number | null; visit_policy: string }>`
    SELECT t.rid, t.id, t.handler_id, y.visit_policy FROM repair_tickets t
    JOIN repair_types y ON y.rid = t.rid AND y.id = t.type_id
    LEFT JOIN repair_settings s ON s.rid = t.rid
    WHERE t.status = 'R' AND t.rate_since IS NOT NULL
      AND t.rate_since + make_interval(hours => coalesce(s.auto_rate_hours, ${REPAIR_DEFAULTS.auto_rate_hours})) < now()
    ORDER BY t.rid, t.id FOR UPDATE OF t`.execute(db);
  for (const r of rows) {
    // rated by nobody: the follow-up still visits it unless the type visits none
    const to = r.visit_policy === 'N' ? 'D' : 'V';
    await db
      .updateTable('repair_tickets')
      .set({
        status: to,
        rate_overall: 5,
        rate_speed: 5,
        rate_service: 5,
        rate_text: '超时未评价，系统默认好评',
        rated_at: sql<Date>`now()`,
        rate_auto: true,
        completed_at: to === 'D' ? sql<Date>`now()` : null,
      })
      .where('rid', '=', r.rid)
      .where('id', '=', r.id)
      .execute();
    await logStep(db, r.rid, r.id, 'autorate', 'R', to, { note: '超时未评价，系统默认好评' });
    await rateHandler(db, r.rid, r, 5, new Date());
  }
  return rows.length;
}

async function roundRobin(db: Kysely<DB>): Promise<number> {
  const waiting = await db
    .selectFrom('repair_tickets as t')
    .innerJoin('repair_types as y', (j) => j.onRef('y.rid', '=', 't.rid').onRef('y.id', '=', 't.type_id'))
    .leftJoin('repair_settings as s', 's.rid', 't.rid')
    .selectAll('t')
    .select(['y.staff_ids', sql<number>`coalesce(s.max_open, ${REPAIR_DEFAULTS.max_open})`.as('max_open')])
    .where('t.status', '=', 'W')
    .where('y.mode', '=', 'R')
    .orderBy('t.rid')
    .orderBy('t.urgent', 'desc')
    .orderBy('t.id')
    .forUpdate(['t'])
    .execute();
  let moved = 0;
  const at = new Date();
  for (const row of waiting) {
    const bound = row.staff_ids.map(Number);
    if (bound.length === 0) continue;
    const techs = await repairTechs(db, row.rid, bound);
    const onDuty = new Set(
      (
        await whoIsOnDuty(
          db,
          row.rid,
          at,
          techs.map((t) => t.id),
        )
      ).map((d) => d.account_id),
    );
    const counts = await openCounts(
      db,
      row.rid,
      techs.map((t) => t.id),
    );
    const free = techs.filter((t) => onDuty.has(t.id) && (counts.get(t.id) ?? 0) < row.max_open);
    if (free.length === 0) continue;
    // in turn: the fewest open tickets, then the one handed a ticket longest ago
    const last = await db
      .selectFrom('repair_tickets')
      .select(['handler_id', sql<Date>`max(dispatched_at)`.as('at')])
      .where('rid', '=', row.rid)
      .where(
        'handler_id',
        'in',
        free.map((t) => t.id),
      )
      .groupBy('handler_id')
      .execute();
    const lastAt = new Map(last.map((l) => [Number(l.handler_id), l.at ? new Date(l.at).getTime() : 0]));
    free.sort(
      (a, b) => (counts.get(a.id) ?? 0) - (counts.get(b.id) ?? 0) || (lastAt.get(a.id) ?? 0) - (lastAt.get(b.id) ?? 0) || a.id - b.id,
    );
    const tech = free[0]!;
    await handTo(db, row.rid, row, tech, null);
    await db.updateTable('repair_tickets').set({ status: 'A' }).where('rid', '=', row.rid).where('id', '=', row.id).execute();
    await logStep(db, row.rid, Number(row.id), 'auto', 'W', 'A', { handler: tech.name });
    moved++;
  }
  return moved;
}

/** One run of the clock over every community, each part in a short transaction of its own. */
export async function runRepairClock(db: Kysely<DB>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, part] of [
    ['breached', markBreaches],
    ['warned', warn],
    ['rated', autoRate],
    ['dispatched', roundRobin],
  ] as const) {
    out[name] = await db.transaction().execute((trx) => part(trx));
  }
  return out;
}

registerJobKind(REPAIR_CLOCK, (ctx) => runRepairClock(ctx.db), { viewers: ['steward'] });
registerPeriodicJob(REPAIR_CLOCK, 5);
