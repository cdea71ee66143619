-- A receipt number's every three characters, prefixed with the community, so "the number contains
-- this text" (the receipt lists' keyword and number filter, at least three characters) is a GIN
-- look-up of the text's own three-character pieces, then a check of the few numbers found.
-- Testing every number read a community's 483,000 receipts (40 ms a pass, twice a call, at scale:
-- docs/perf/history.md#round-19). Numbers are written in ASCII letters, digits and '-'
-- (setfees); name keys of every length (004) would hold 70 keys a number where this holds 6.
CREATE FUNCTION receipt_no_trigrams(r int, no text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT r::text || ':' || substr(lower(no), s, 3)), '{}')
  FROM generate_series(1, char_length(no) - 2) AS s
$$;

CREATE INDEX fee_payments_receipt_trigrams ON fee_payments USING gin (receipt_no_trigrams(rid, receipt_no));
