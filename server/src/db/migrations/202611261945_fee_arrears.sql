-- What a room owes, computed once, by the database, for every screen that shows it: the cashier's
-- bills and totals, the owner drawer's 欠费, the owner search's results, the bill list, the dunning
-- notices and the arrears report (issue 34: the drawer said 1111.55 where the cashier said 1114.79,
-- because only the cashier added the late fees). The payment stores the late fee this computes.

-- The late fee of an unpaid bill on a day: fee x rate‰ for each day past the due date and its grace
-- days, rounded half up to the fen, at most cap percent of the fee (0: no cap). Exact numerics: the
-- fee (2 places) x rate (4) x days x 0.001 has 9 places and is rounded once. A plain SQL function,
-- so the planner inlines it.
CREATE FUNCTION fee_late_fee(fee numeric, due date, on_day date, rule text, rate numeric, grace int, cap int)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN rule <> 'daily' OR on_day - due - grace <= 0 THEN 0::numeric
    ELSE least(round(fee * rate * (on_day - due - grace) * 0.001, 2), CASE WHEN cap > 0 THEN round(fee * cap * 0.01, 2) END)
  END
$$;

-- A room's arrears on a day: its unpaid bills (pending and overdue), their fees and their late fees.
-- Read through the unpaid bills' index (007_perf_indexes.sql); inlined where it is joined LATERAL.
CREATE FUNCTION room_arrears(r int, h bigint, on_day date)
RETURNS TABLE (bill_count int, fee numeric, late_fee numeric) LANGUAGE sql STABLE AS $$
  SELECT count(*)::int, coalesce(sum(b.fee), 0),
    coalesce(sum(fee_late_fee(b.fee, b.due_date, on_day, i.late_fee_rule, i.late_fee_rate, i.late_fee_grace_days, i.late_fee_cap_percent)), 0)
  FROM fee_bills b JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
  WHERE b.rid = r AND b.hid = h AND b.status <> 'Y'
$$;
