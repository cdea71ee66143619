/**
 * Who an SMS job reaches and what each of them reads: the audience's recipients (one per mobile),
 * less the unsubscribed and those reminded within the job's window, and each message rendered
 * from the template and the job's variable mapping.
 */
import { fenToYuan, smsSegments, templateVars, toFen, type SmsAudience } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';

export interface Recipient {
  member_id: number | null;
  mobile: string;
  name: string;
  /** the owner's rooms, 、-separated ('' for staff and list entries) */
  address: string;
  /** unpaid bills of those rooms, yuan text */
  amount: string;
  /** months since the oldest unpaid bill was due (0 without one) */
  months: number;
}

export type VarMap = Record<string, { source: string; text: string }>;

interface OwnerRow {
  member_id: number;
  mobile: string;
  name: string;
  address: string;
  amount: string;
  oldest: string | null;
}

const monthsSince = (day: string | null, now: string): number => {
  if (!day) return 0;
  const [y1, m1, d1] = day.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = now.split('-').map(Number) as [number, number, number];
  return Math.max(0, (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0));
};

/** Whether a job's messages read the owners' unpaid bills (欠费金额, 欠费月数). */
export const readsArrears = (map: VarMap): boolean => Object.values(map).some((m) => m.source === 'amount' || m.source === 'months');

/**
 * The audience's recipients, one per mobile (the first seen), before unsubscribes and the dedupe window.
 * Their unpaid bills (amount, months) are read for an arrears audience, or when `arrears` says the
 * messages show them; otherwise they stay 0 (reading every owner's bills cost a whole-community
 * preview most of its second at 50,000 rooms).
 */
export async function audienceRecipients(
  db: Kysely<DB>,
  rid: number,
  a: SmsAudience,
  opts: { arrears?: boolean } = {},
): Promise<Recipient[]> {
  const now = today();
  let list: Recipient[];
  if (a.type === 'list') {
    list = a.list.map((l) => ({ member_id: null, mobile: l.mobile, name: l.name, address: '', amount: '0.00', months: 0 }));
  } else if (a.type === 'staff') {
    const rows = await db
      .selectFrom('accounts as a')
      .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
      .select(['a.mobile', 'a.name'])
      .where('ar.rid', '=', rid)
      .where('a.status', '=', 'Y')
      .where('a.mobile', '<>', '')
      .orderBy('a.id')
      .execute();
    list = rows.map((r) => ({ member_id: null, mobile: r.mobile, name: r.name, address: '', amount: '0.00', months: 0 }));
  } else {
    const bids = a.bids.length ? sql`AND r.bid = ANY(${a.bids}::int[])` : sql``;
    const tids = a.tids.length ? sql`AND r.tid = ANY(${a.tids}::int[])` : sql``;
    const members = a.type === 'members' ? sql`AND m.id = ANY(${a.member_ids.length ? a.member_ids : [0]}::int[])` : sql``;
    const arrears =
      a.type === 'arrears'
        ? sql`HAVING coalesce(sum(o.amount), 0) > 0 AND coalesce(sum(o.amount), 0) >= ${a.min_amount}::numeric
            AND min(o.oldest) <= (${now}::date - make_interval(months => ${a.months}))::date`
        : sql``;
    // unpaid: E or N (status is one of E, Y, N), written so as to read the index of unpaid bills alone
    const bills =
      a.type === 'arrears' || (opts.arrears ?? true)
        ? sql`LEFT JOIN LATERAL (
        SELECT sum(b.fee) AS amount, min(b.due_date) AS oldest FROM fee_bills b
        WHERE b.rid = r.rid AND b.hid = r.id AND b.status <> 'Y'
      ) o ON true`
        : sql`LEFT JOIN (SELECT NULL::numeric AS amount, NULL::date AS oldest) o ON true`;
    const { rows } = await sql<OwnerRow>`
      SELECT m.id AS member_id, m.mobile, m.realname AS name,
        string_agg(r.address, '、' ORDER BY r.building_sort, r.unit_sort, r.id) AS address,
        coalesce(sum(o.amount), 0)::text AS amount, min(o.oldest)::text AS oldest
      FROM room_members rm
      JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
      ${bills}
      WHERE rm.rid = ${rid} AND rm.relation = 'owner' AND rm.status = 'Y' AND m.mobile <> '' ${bids} ${tids} ${members}
      GROUP BY m.id, m.mobile, m.realname
      ${arrears}
      ORDER BY min(r.building_sort), min(r.unit_sort), min(r.id)`.execute(db);
    list = rows.map((r) => ({
      member_id: r.member_id,
      mobile: r.mobile,
      name: r.name,
      address: r.address,
      amount: fenToYuan(toFen(r.amount)),
      months: monthsSince(r.oldest, now),
    }));
  }
  const seen = new Set<string>();
  return list.filter((r) => (seen.has(r.mobile) ? false : (seen.add(r.mobile), true)));
}

/** Splits recipients into those to message and those left out (unsubscribed, reminded within `dedupeDays`). */
export async function screenRecipients(db: Kysely<DB>, rid: number, all: Recipient[], dedupeDays: number) {
  if (!all.length) return { keep: [], unsub: 0, dedupe: 0 };
  // the community's unsubscribed numbers and those messaged within the window, each read whole
  // (by rid, and by time through sms_messages_submitted), not as a parameter per recipient: a
  // whole community's 35,000 mobiles as parameters cost a preview a few hundred ms
  const unsub = new Set((await db.selectFrom('sms_unsubscribes').select('mobile').where('rid', '=', rid).execute()).map((r) => r.mobile));
  const recent = new Set<string>();
  if (dedupeDays > 0) {
    const rows = await db
      .selectFrom('sms_messages')
      .select('mobile')
      .distinct()
      .where('rid', '=', rid)
      .where('submit_status', '=', 'S')
      .where('submitted_at', '>', sql<Date>`now() - make_interval(days => ${dedupeDays})`)
      .execute();
    for (const r of rows) recent.add(r.mobile);
  }
  const keep = all.filter((r) => !unsub.has(r.mobile) && !recent.has(r.mobile));
  const dedupe = all.filter((r) => !unsub.has(r.mobile) && recent.has(r.mobile)).length;
  return { keep, unsub: all.filter((r) => unsub.has(r.mobile)).length, dedupe };
}

/** The template's variables without a mapping. */
export const unmappedVars = (content: string, map: VarMap): string[] => templateVars(content).filter((v) => !map[v]);

/** One recipient's variables and the text they read (the signature first, as the phone shows it). */
export function renderMessage(
  template: string,
  map: VarMap,
  r: Recipient,
  ctx: { signName: string; community: string; date: string },
): { params: Record<string, string>; content: string; segments: number } {
  const params: Record<string, string> = {};
  for (const v of templateVars(template)) {
    const m = map[v];
    const value =
      m?.source === 'name'
        ? r.name
        : m?.source === 'room'
          ? r.address
          : m?.source === 'amount'
            ? r.amount
            : m?.source === 'months'
              ? String(r.months)
              : m?.source === 'community'
                ? ctx.community
                : m?.source === 'date'
                  ? ctx.date
                  : (m?.text ?? '');
    params[v] = value;
  }
  const body = template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => params[v] ?? '');
  const content = `【${ctx.signName}】${body}`;
  return { params, content, segments: smsSegments(content) };
}
