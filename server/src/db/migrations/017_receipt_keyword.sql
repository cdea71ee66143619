-- The receipt lists' keyword (收费记录, 物业费缴费明细) by payer: every fragment of the payer's
-- name, as members are found by theirs (004_owners.sql), so "any part of a name" is an exact GIN
-- look-up. Matching the name by ILIKE read a community's 483,000 receipts for every call
-- (0.25 s at 50,000 rooms, docs/perf/history.md#round-15); the index takes 8 MB.
CREATE INDEX fee_payments_payer_keys ON fee_payments USING gin (member_name_keys(rid, payer_name));
