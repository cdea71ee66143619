-- The idempotency keys of writes a retry could repeat (lib/onceByKey.ts): the first call's answer,
-- which a retry with the key is given. Issuing invoices is the first to use it.
CREATE TABLE request_keys (
  rid integer NOT NULL REFERENCES regions(id),
  method text NOT NULL,
  key text NOT NULL,
  answer jsonb,
  msg text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, method, key)
);
