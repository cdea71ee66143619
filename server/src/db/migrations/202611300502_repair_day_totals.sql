-- 报修统计 (repaircount and its export; modules/steward/repairReports.ts) counts each ticket's events
-- (registered, finished, breached, accepted, rated) on their business day: a year read and expanded
-- every ticket of the community, 10,000 at 50,000 rooms (200 ms on a loaded machine,
-- bench/README.md#steward-desk). The events' figures are kept per business day, type and handler
-- by the tickets' own statement triggers, in the same transaction, as the fee totals are
-- (docs/adr/0004-kept-totals.md): rows only added, one per group a statement changed, folded by the
-- daily job (modules/fees/totals.ts). A period is whole days, so its days add up exactly.
--
-- events counts every event of the group, so a group whose events count nothing else (accepted
-- without a dispatch, rated 0) is still there, as the handler's name it carries.
CREATE TABLE repair_day_totals (
  rid integer NOT NULL,
  id bigserial NOT NULL,
  day date NOT NULL,
  type_id bigint NOT NULL,
  handler_id bigint NOT NULL,
  handler_name text NOT NULL,
  events integer NOT NULL,
  created integer NOT NULL,
  finished integer NOT NULL,
  ontime integer NOT NULL,
  overdue integer NOT NULL,
  accept_n integer NOT NULL,
  accept_s numeric NOT NULL,
  finish_s numeric NOT NULL,
  rated integer NOT NULL,
  rate_sum integer NOT NULL,
  good integer NOT NULL,
  PRIMARY KEY (rid, id)
);
CREATE INDEX repair_day_totals_day ON repair_day_totals (rid, day);

-- The statement that adds the events of the moved tickets (their rows with n = +1 / -1: a query
-- over the trigger's transition tables) to their days. The figures as repaircount defined them.
CREATE FUNCTION repair_day_totals_statement(moved text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    INSERT INTO repair_day_totals (rid, day, type_id, handler_id, handler_name, events, created, finished, ontime,
      overdue, accept_n, accept_s, finish_s, rated, rate_sum, good)
    SELECT rid, day, type_id, handler_id, handler_name, events, created, finished, ontime, overdue, accept_n,
      accept_s, finish_s, rated, rate_sum, good
    FROM (
      SELECT t.rid, e.at::date AS day, t.type_id, coalesce(t.handler_id, 0) AS handler_id, t.handler_name,
        sum(t.n) AS events,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'created'), 0) AS created,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'finished'), 0) AS finished,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'finished' AND t.finish_breached_at IS NULL
          AND t.finished_at <= t.finish_by + make_interval(secs => t.paused_seconds)), 0) AS ontime,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'overdue'), 0) AS overdue,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'accepted' AND t.dispatched_at IS NOT NULL), 0) AS accept_n,
        coalesce(sum(t.n * greatest(0, extract(epoch FROM t.accepted_at - t.dispatched_at)))
          FILTER (WHERE e.kind = 'accepted' AND t.dispatched_at IS NOT NULL), 0) AS accept_s,
        coalesce(sum(t.n * greatest(0, extract(epoch FROM t.finished_at - t.created_at) - t.paused_seconds))
          FILTER (WHERE e.kind = 'finished'), 0) AS finish_s,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'rated' AND t.rate_overall > 0), 0) AS rated,
        coalesce(sum(t.n * t.rate_overall) FILTER (WHERE e.kind = 'rated' AND t.rate_overall > 0), 0) AS rate_sum,
        coalesce(sum(t.n) FILTER (WHERE e.kind = 'rated' AND t.rate_overall >= 4), 0) AS good
      FROM (%s) t
      CROSS JOIN LATERAL (VALUES ('created', t.created_at), ('finished', t.finished_at),
        ('overdue', least(t.accept_breached_at, t.finish_breached_at)), ('accepted', t.accepted_at), ('rated', t.rated_at)) e(kind, at)
      WHERE e.at IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5) s
    WHERE (events, created, finished, ontime, overdue, accept_n, accept_s, finish_s, rated, rate_sum, good)
      <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)$q$, moved)
$$;

CREATE FUNCTION repair_day_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a trigger with transition tables fires on one event, so each event has its trigger and branch;
  -- an update counts only the tickets whose events, their figures, type or handler it changed
  IF TG_OP = 'INSERT' THEN
    EXECUTE repair_day_totals_statement($m$SELECT *, 1 AS n FROM new_tickets$m$);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE repair_day_totals_statement($m$SELECT *, -1 AS n FROM old_tickets$m$);
  ELSE
    EXECUTE repair_day_totals_statement($m$
      SELECT nt.*, 1 AS n FROM new_tickets nt JOIN old_tickets ot ON ot.rid = nt.rid AND ot.id = nt.id
      WHERE (nt.created_at, nt.finished_at, nt.accept_breached_at, nt.finish_breached_at, nt.accepted_at, nt.rated_at,
          nt.dispatched_at, nt.finish_by, nt.paused_seconds, nt.rate_overall, nt.type_id, nt.handler_id, nt.handler_name)
        IS DISTINCT FROM (ot.created_at, ot.finished_at, ot.accept_breached_at, ot.finish_breached_at, ot.accepted_at,
          ot.rated_at, ot.dispatched_at, ot.finish_by, ot.paused_seconds, ot.rate_overall, ot.type_id, ot.handler_id,
          ot.handler_name)
      UNION ALL
      SELECT ot.*, -1 FROM old_tickets ot JOIN new_tickets nt ON nt.rid = ot.rid AND nt.id = ot.id
      WHERE (nt.created_at, nt.finished_at, nt.accept_breached_at, nt.finish_breached_at, nt.accepted_at, nt.rated_at,
          nt.dispatched_at, nt.finish_by, nt.paused_seconds, nt.rate_overall, nt.type_id, nt.handler_id, nt.handler_name)
        IS DISTINCT FROM (ot.created_at, ot.finished_at, ot.accept_breached_at, ot.finish_breached_at, ot.accepted_at,
          ot.rated_at, ot.dispatched_at, ot.finish_by, ot.paused_seconds, ot.rate_overall, ot.type_id, ot.handler_id,
          ot.handler_name)$m$);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER repair_tickets_days_insert AFTER INSERT ON repair_tickets
  REFERENCING NEW TABLE AS new_tickets FOR EACH STATEMENT EXECUTE FUNCTION repair_day_totals_change();
CREATE TRIGGER repair_tickets_days_update AFTER UPDATE ON repair_tickets
  REFERENCING OLD TABLE AS old_tickets NEW TABLE AS new_tickets FOR EACH STATEMENT EXECUTE FUNCTION repair_day_totals_change();
CREATE TRIGGER repair_tickets_days_delete AFTER DELETE ON repair_tickets
  REFERENCING OLD TABLE AS old_tickets FOR EACH STATEMENT EXECUTE FUNCTION repair_day_totals_change();

-- Counted again from the tickets: for those already there, and for a bulk load that ran with
-- triggers off (bench/src/scale-data.ts).
CREATE FUNCTION repair_day_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM repair_day_totals;
  EXECUTE repair_day_totals_statement('SELECT *, 1 AS n FROM repair_tickets');
END $$;

CREATE FUNCTION repair_day_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM repair_day_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER repair_tickets_days_truncate AFTER TRUNCATE ON repair_tickets
  FOR EACH STATEMENT EXECUTE FUNCTION repair_day_totals_truncate();

SELECT repair_day_totals_rebuild();
