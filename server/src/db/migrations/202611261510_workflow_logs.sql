-- The log of every workflow (docs/resources.md): one row per transition taken (and per row
-- created into a workflow), so a detail page can show who moved it, when, and with what.
CREATE TABLE workflow_logs (
  rid         int NOT NULL,
  id          bigserial,
  flow        text NOT NULL,
  row_id      bigint NOT NULL,
  transition  text NOT NULL,
  from_state  text NOT NULL DEFAULT '',
  to_state    text NOT NULL,
  input       jsonb NOT NULL DEFAULT '{}',
  operator    text NOT NULL DEFAULT '',
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
CREATE INDEX workflow_logs_row ON workflow_logs (rid, flow, row_id, id);
