-- Servers remember live sessions for a few seconds (server/src/http/session-cache.ts). Any change
-- that could end a session or change what it may do tells every server process to forget them.
CREATE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('wuye_auth', TG_TABLE_NAME);
  RETURN NULL;
END $$;

-- last_seen_at/expires_at are touched by every session once a minute: sliding expiry is
-- checked from the cached row, so those columns alone do not notify
CREATE TRIGGER sessions_auth_change AFTER UPDATE OF ended_at, rid, account_id, side OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER accounts_auth_change AFTER UPDATE OR DELETE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER account_regions_auth_change AFTER INSERT OR UPDATE OR DELETE ON account_regions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER regions_auth_change AFTER UPDATE OF end_time OR DELETE ON regions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
