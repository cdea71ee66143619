-- The operation log (操作日志) pages a community's audit rows newest first: the order's tie-breaker
-- (id) in the index, so a page is read straight off it. The group side also reads its accounts' own
-- rows (sign-ins, group-side writes), which carry no community.
CREATE INDEX audit_log_page ON audit_log (rid, created_at DESC, id DESC);
DROP INDEX audit_log_rid_time;
CREATE INDEX audit_log_unscoped ON audit_log (username, created_at DESC, id DESC) WHERE rid IS NULL;
-- Filters that pick a few rows out of many (an action, an operator, the refusals) read their own
-- index, in page order, instead of walking the whole log (bench/README.md, 操作日志).
CREATE INDEX audit_log_method ON audit_log (rid, method, created_at DESC, id DESC);
CREATE INDEX audit_log_username ON audit_log (rid, username, created_at DESC, id DESC);
CREATE INDEX audit_log_refused ON audit_log (rid, created_at DESC, id DESC) WHERE outcome <> 'SUCCESS';
