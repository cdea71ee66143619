-- Servers remember the totals of bill lists until bills change (server/src/lib/countCache.ts):
-- any statement that changes fee_bills, from any process, tells every server process to forget them.
CREATE FUNCTION notify_bills_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('wuye_bills', '');
  RETURN NULL;
END $$;

CREATE TRIGGER fee_bills_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fee_bills
  FOR EACH STATEMENT EXECUTE FUNCTION notify_bills_change();
