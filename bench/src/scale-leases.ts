/**
 * Tenant leases (docs/product.md#crm-leases) of the scale data (bench/README.md#scale-data): per
 * community a lease for every LEASE_STRIDE-th room (offset from the contracts' rooms) in every
 * state, monthly, a year long, started over the last two years; the live ones' last two months
 * billed and unpaid (the older paid through their receipts is the fees area's scale; here the
 * overdue report and the list's 欠租 have work), a deposit bill each, and every fiftieth room marked
 * rentable. The kept totals of the bills are rebuilt after, as the bulk load runs without triggers.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const LEASE_STEPS = 3;
/** a lease for every LEASE_STRIDE-th room */
export const LEASE_STRIDE = 5;

export async function fillLeases(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(`leases: one for every ${LEASE_STRIDE}th room, in every state`, async () => {
    await sql`INSERT INTO lease_settings (rid, next_seq) SELECT unnest(${rids}::int[]), 10000000 ON CONFLICT DO NOTHING`.execute(c);
    // status and approval kept in step (the table's check): drafts D with N/P/B, void C with N, the rest approved
    await sql`
      INSERT INTO leases (rid, lease_no, tenant_kind, tenant_name, contact, mobile, start_date, end_date, rent_mode, rent_price,
        rent_area, monthly_rent, deposit, cycle_months, bill_ahead_days, escalation_kind, escalation_value, total_amount,
        approval_status, status, approver, approved_at, ended_on, next_bill_date, creator, created_at)
      SELECT r.rid, 'ZL' || lpad(r.id::text, 8, '0'), CASE WHEN r.id % 3 = 0 THEN 'C' ELSE 'P' END,
        CASE WHEN r.id % 3 = 0 THEN '租户企业' || r.id ELSE '租户' || r.id END, '', '137' || lpad((r.id % 100000000)::text, 8, '0'),
        s.start, s.start + interval '1 year' - interval '1 day', 'M', 3000 + (r.id % 40) * 100, r.built_area, 3000 + (r.id % 40) * 100,
        6000 + (r.id % 40) * 200, 1, 15, CASE WHEN r.id % 4 = 0 THEN 'percent' ELSE 'none' END, CASE WHEN r.id % 4 = 0 THEN 5 ELSE 0 END,
        (3000 + (r.id % 40) * 100) * 12,
        st.approval, st.status, CASE WHEN st.approval IN ('Y', 'B') THEN '张经理' ELSE '' END,
        CASE WHEN st.approval IN ('Y', 'B') THEN s.start - interval '5 days' END,
        CASE WHEN st.status = 'F' THEN s.start + interval '200 days' END,
        CASE WHEN st.status IN ('Y', 'X', 'O') THEN date_trunc('month', current_date) + interval '1 month' - interval '15 days' END,
        '陈招商', s.start - interval '10 days'
      FROM rooms r
      CROSS JOIN LATERAL (SELECT (current_date - (r.id % 720)::int)::date AS start) s
      CROSS JOIN LATERAL (SELECT
        CASE WHEN (r.id / ${LEASE_STRIDE}) % 20 = 0 THEN 'N' WHEN (r.id / ${LEASE_STRIDE}) % 20 = 1 THEN 'P'
             WHEN (r.id / ${LEASE_STRIDE}) % 20 = 2 THEN 'B' WHEN (r.id / ${LEASE_STRIDE}) % 20 = 3 THEN 'N' ELSE 'Y' END AS approval,
        CASE WHEN (r.id / ${LEASE_STRIDE}) % 20 < 3 THEN 'D' WHEN (r.id / ${LEASE_STRIDE}) % 20 = 3 THEN 'C'
             WHEN s.start + 364 < current_date THEN (CASE WHEN (r.id / ${LEASE_STRIDE}) % 2 = 0 THEN 'F' ELSE 'O' END)
             WHEN s.start + 364 < current_date + 60 THEN 'X' ELSE 'Y' END AS status) st
      WHERE r.rid = ANY(${rids}::int[]) AND r.id % ${LEASE_STRIDE} = 3`.execute(c);
    await sql`
      INSERT INTO lease_rooms (rid, lease_id, hid, sort, area)
      SELECT l.rid, l.id, substr(l.lease_no, 3)::bigint, 0, l.rent_area FROM leases l
      WHERE l.rid = ANY(${rids}::int[]) AND l.lease_no LIKE 'ZL%'`.execute(c);
    await sql`
      INSERT INTO lease_rentable_rooms (rid, hid) SELECT rid, id FROM rooms WHERE rid = ANY(${rids}::int[]) AND id % 50 = 1
      ON CONFLICT DO NOTHING`.execute(c);
  });
  await step('leases: the live ones’ deposits and last two months billed, unpaid', async () => {
    await sql`
      INSERT INTO fee_items (rid, cost_type, title, pricing, unit_price, status, remark)
      SELECT rid, t.cost, t.title, 'fixed', 0, 'N', '租赁合同自动生成'
      FROM unnest(${rids}::int[]) AS rid CROSS JOIN (VALUES ('rent', '租金'), ('deposit', '租赁押金')) AS t(cost, title)
      ON CONFLICT (rid, title) DO NOTHING`.execute(c);
    // seq 0: the deposit; seq n: the months counted from the start
    await sql`
      CREATE TEMP TABLE scale_lease_bills AS
      SELECT l.rid, l.id AS lease_id, r.id AS hid, r.bid, r.tid, i.id AS item_id, i.cost_type, b.seq, b.kind, b.period, b.daterange, b.fee, b.due
      FROM leases l
      JOIN rooms r ON r.rid = l.rid AND r.id = substr(l.lease_no, 3)::bigint
      CROSS JOIN LATERAL (VALUES
        (0, 'deposit', to_char(l.start_date, 'YYYY-MM'), l.start_date || ' ~ ' || l.end_date, l.deposit, l.start_date),
        (1, 'rent', to_char(current_date - interval '1 month', 'YYYY-MM'), '', l.monthly_rent, date_trunc('month', current_date - interval '1 month')::date),
        (2, 'rent', to_char(current_date, 'YYYY-MM'), '', l.monthly_rent, date_trunc('month', current_date)::date)) AS b(seq, kind, period, daterange, fee, due)
      JOIN fee_items i ON i.rid = l.rid AND i.title = CASE WHEN b.kind = 'deposit' THEN '租赁押金' ELSE '租金' END
      WHERE l.rid = ANY(${rids}::int[]) AND l.status IN ('Y', 'X', 'O') AND l.lease_no LIKE 'ZL%'`.execute(c);
    await sql`
      INSERT INTO fee_bills (rid, hid, bid, tid, item_id, cost_type, title, period, daterange, measure, unit_price, fee, source, due_date)
      SELECT rid, hid, bid, tid, item_id, cost_type, CASE WHEN kind = 'deposit' THEN '租赁押金' ELSE '租金' END || '（ZL' || lpad(hid::text, 8, '0') || '）',
        period, CASE WHEN daterange = '' THEN due || ' ~ ' || (due + interval '1 month' - interval '1 day')::date ELSE daterange END,
        '1', fee, fee, 'lease', due
      FROM scale_lease_bills
      ON CONFLICT ON CONSTRAINT fee_bills_bill_key DO NOTHING`.execute(c);
    await sql`
      INSERT INTO lease_bills (rid, lease_id, seq, kind, bill_id)
      SELECT s.rid, s.lease_id, s.seq, s.kind, b.id FROM scale_lease_bills s
      JOIN fee_bills b ON b.rid = s.rid AND b.hid = s.hid AND b.item_id = s.item_id AND b.period = s.period AND b.space_id = 0 AND b.car_id = 0`.execute(
      c,
    );
    await sql`
      UPDATE leases l SET deposit_bill_id = lb.bill_id FROM lease_bills lb
      WHERE lb.rid = l.rid AND lb.lease_id = l.id AND lb.kind = 'deposit' AND l.rid = ANY(${rids}::int[])`.execute(c);
    await sql`DROP TABLE scale_lease_bills`.execute(c);
  });
  await step('leases: the bills’ kept totals', async () => {
    // the bulk load ran without the triggers of fee_bills (024, 202611290400, 202611290410, 202612021740, the invoices')
    await sql`SELECT fee_bill_totals_rebuild(), fee_unpaid_rebuild(), fee_unit_totals_rebuild(), fee_room_months_rebuild()`.execute(c);
    await sql`SELECT invoice_wait_totals_rebuild(), invoice_period_totals_rebuild()`.execute(c);
  });
}
