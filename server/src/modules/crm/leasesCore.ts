/**
 * What the lease modules share (docs/product.md#crm-leases): the community's lease settings, a
 * stored lease's schedule terms, the status a lease in force takes on a day, the to-do sources, the
 * locks and the rule that keeps a room from being leased twice at once.
 */
import {
  addDays,
  enumText,
  fenToYuan,
  LEASE_APPROVAL,
  LEASE_ROLES,
  LEASE_STATUS,
  toFen,
  type LeaseStatus,
  type LeaseTerms,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { LeasesTable, LeaseSettingsTable } from '../../db/types.generated.js';
import { fail } from '../../http/errors.js';
import type { CommunityCtx } from '../../http/registry.js';
import { registerBacklogSource } from '../setup/backlog.js';

export type LeaseTableRow = Selectable<LeasesTable>;

/* ---------- to-dos ---------- */

/** A lease waiting for approval, on the approvers' to-do list until decided. */
export const leaseAuditBacklog = registerBacklogSource({
  kind: 'leaseaudit',
  roles: LEASE_ROLES.approve,
  link: (id) => `/crm/lease_approval_info?id=${id}`,
  hours: 48,
});

/** Where a lease opens: its drawer on 租约列表 (the to-do list and the messages). */
export const leaseLink = (id: number | string) => `/crm/leaselist?id=${id}`;

/** A lease entering 即将到期, on the leasing staff's list until it is renewed or checked out. */
export const leaseExpiringBacklog = registerBacklogSource({
  kind: 'leaseexpiring',
  roles: LEASE_ROLES.write,
  link: leaseLink,
});

/* ---------- settings ---------- */

/** The defaults of a community that never saved its lease settings (the table's defaults). */
const DEFAULT_SETTINGS = {
  number_prefix: 'ZL',
  next_seq: 1,
  expiring_days: 60,
  deposit_months: 2,
  bill_ahead_days: 15,
  cycle_months: 1 as const,
};

/** The community's lease settings (the defaults when it never saved any); reads write nothing. */
export async function leaseSettingsOf(
  db: Kysely<DB>,
  rid: number,
): Promise<Omit<Selectable<LeaseSettingsTable>, 'created_at' | 'created_by'>> {
  const s = await db.selectFrom('lease_settings').selectAll().where('rid', '=', rid).executeTakeFirst();
  return s ?? { rid, ...DEFAULT_SETTINGS };
}

/** The settings row, made with the defaults when missing and locked (a number taken, the settings saved). */
export async function lockLeaseSettings(db: Kysely<DB>, rid: number): Promise<Selectable<LeaseSettingsTable>> {
  await db
    .insertInto('lease_settings')
    .values({ rid })
    .onConflict((oc) => oc.column('rid').doNothing())
    .execute();
  return db.selectFrom('lease_settings').selectAll().where('rid', '=', rid).forUpdate().executeTakeFirstOrThrow();
}

/* ---------- terms ---------- */

export const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
export const money2 = (v: string | number) => fenToYuan(toFen(String(v)));

/** The schedule's terms of a stored lease. */
export function termsOf(l: LeaseTableRow): LeaseTerms {
  return {
    start: l.start_date,
    end: l.end_date,
    cycle_months: l.cycle_months,
    monthly_rent: money2(l.monthly_rent),
    bill_ahead_days: l.bill_ahead_days,
    free_periods: json(l.free_periods),
    escalation: {
      kind: l.escalation_kind as LeaseTerms['escalation']['kind'],
      value: money2(l.escalation_value),
      every_years: l.escalation_years,
    },
    charges: json<Array<{ name: string; monthly: string }>>(l.charges).map((c) => ({ name: c.name, monthly: money2(c.monthly) })),
  };
}

/** The status a lease takes on `day` once in force: 即将到期 within the window, 已到期 after its end. */
export function liveStatusOn(end: string, day: string, expiringDays: number): LeaseStatus {
  if (end < day) return 'O';
  return end <= addDays(day, expiringDays) ? 'X' : 'Y';
}

/** The lease row locked for a change (不存在 for another community's id). */
export async function lockLease(ctx: CommunityCtx, id: number): Promise<LeaseTableRow> {
  const l = await ctx.db.selectFrom('leases').selectAll().where('rid', '=', ctx.rid).where('id', '=', id).forUpdate().executeTakeFirst();
  return l ?? fail('租约不存在');
}

/** The rooms of a lease, the first (which carries the bills) first. */
export async function leaseRooms(db: Kysely<DB>, rid: number, leaseId: number) {
  return db
    .selectFrom('lease_rooms as lr')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'lr.rid').onRef('r.id', '=', 'lr.hid'))
    .select(['lr.hid', 'r.address', 'lr.area'])
    .where('lr.rid', '=', rid)
    .where('lr.lease_id', '=', leaseId)
    .orderBy('lr.sort')
    .orderBy('lr.id')
    .execute();
}

/* ---------- rooms ---------- */

/** The rooms of a payload locked in id order (two saves of one room wait for each other), with their areas. */
export async function lockedRooms(ctx: CommunityCtx, hids: number[]) {
  if (new Set(hids).size !== hids.length) fail('同一房屋不能重复选择');
  const rooms = await ctx.db
    .selectFrom('rooms')
    .select(['id', 'address', 'built_area'])
    .where('rid', '=', ctx.rid)
    .where('id', 'in', hids)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (rooms.length !== hids.length) fail('所选房屋不存在或不属于当前小区');
  const byId = new Map(rooms.map((r) => [Number(r.id), r]));
  return hids.map((h) => byId.get(h)!);
}

/**
 * Refuses a term that overlaps another lease of one of the rooms (drafts and those in approval
 * count; a void one does not, a checked-out one only up to its check-out day).
 */
export async function refuseOverlap(ctx: CommunityCtx, hids: number[], start: string, end: string, exceptId?: number): Promise<void> {
  const other = await ctx.db
    .selectFrom('lease_rooms as lr')
    .innerJoin('leases as l', (j) => j.onRef('l.rid', '=', 'lr.rid').onRef('l.id', '=', 'lr.lease_id'))
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'lr.rid').onRef('r.id', '=', 'lr.hid'))
    .select(['l.lease_no', 'l.start_date', 'l.end_date', 'l.ended_on', 'l.status', 'l.approval_status', 'r.address'])
    .where('lr.rid', '=', ctx.rid)
    .where('lr.hid', 'in', hids)
    .where('l.status', '<>', 'C')
    .$if(exceptId !== undefined, (q) => q.where('l.id', '<>', exceptId!))
    .where('l.start_date', '<=', end)
    .where(sql<boolean>`coalesce(l.ended_on, l.end_date) >= ${start}::date`)
    .orderBy('l.id')
    .executeTakeFirst();
  if (!other) return;
  const state = other.status === 'D' ? enumText(LEASE_APPROVAL, other.approval_status) : enumText(LEASE_STATUS, other.status);
  fail(
    `房屋 ${other.address} 在 ${other.start_date} 至 ${other.ended_on ?? other.end_date} 已有租约 ${other.lease_no}（${state}），租期不能重叠`,
  );
}
