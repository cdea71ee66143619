-- 短信 (issue 36, messaging; modules/setup/sms*): the community's SMS provider settings, templates,
-- jobs, one row per message sent (claimed before it is sent, so a job resumed after a crash sends
-- nothing twice), the unsubscribe list, and the sandbox provider's outbox.

-- a queued job may wait for its time (an SMS job at a time, after quiet hours, a receipt poll)
ALTER TABLE jobs ADD COLUMN run_after timestamptz;

CREATE TABLE sms_settings (
  rid             int PRIMARY KEY REFERENCES regions(id),
  provider        text NOT NULL DEFAULT 'sandbox' CHECK (provider IN ('sandbox', 'aliyun')),
  access_key_id   text NOT NULL DEFAULT '',
  -- the AccessKey secret, AES-256-GCM (lib/secrets.ts); never answered, shown by its last four characters
  secret_blob     text NOT NULL DEFAULT '',
  secret_last4    text NOT NULL DEFAULT '',
  sign_name       text NOT NULL DEFAULT '',
  region          text NOT NULL DEFAULT 'cn-hangzhou',
  -- the sandbox fails the mobiles ending so (deterministic failures for the demo and tests)
  sandbox_fail_suffix text NOT NULL DEFAULT '',
  last_test_at    timestamptz,
  last_test_result text NOT NULL DEFAULT '',
  updated_by      bigint,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sms_templates (
  rid         int NOT NULL REFERENCES regions(id),
  id          serial,
  code        text NOT NULL,
  title       text NOT NULL,
  content     text NOT NULL,
  kind        text NOT NULL DEFAULT 'notice' CHECK (kind IN ('notice', 'marketing')),
  approved    char(1) NOT NULL DEFAULT 'N' CHECK (approved IN ('Y', 'N')),
  remark      text NOT NULL DEFAULT '',
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code)
);

CREATE TABLE sms_jobs (
  rid          int NOT NULL REFERENCES regions(id),
  id           serial,
  name         text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('arrears', 'payment', 'outage', 'activity', 'custom')),
  template_id  int NOT NULL,
  -- template variable → { source, text } (modules/setup/smsRender.ts)
  var_map      jsonb NOT NULL DEFAULT '{}',
  -- { type, bids, tids, min_amount, months, member_ids, list } (modules/setup/smsAudience.ts)
  audience     jsonb NOT NULL DEFAULT '{}',
  schedule     text NOT NULL DEFAULT 'now' CHECK (schedule IN ('now', 'at', 'monthly')),
  run_at       timestamptz,
  month_day    int NOT NULL DEFAULT 1,
  month_time   text NOT NULL DEFAULT '09:00',
  urgent       char(1) NOT NULL DEFAULT 'N' CHECK (urgent IN ('Y', 'N')),
  dedupe_days  int NOT NULL DEFAULT 0,
  status       char(1) NOT NULL DEFAULT 'D' CHECK (status IN ('D', 'P', 'S', 'Y', 'F', 'C')),
  remark       text NOT NULL DEFAULT '',
  run_no       int NOT NULL DEFAULT 0,
  next_run_at  timestamptz,
  job_id       bigint,
  recipients   int NOT NULL DEFAULT 0,
  sent         int NOT NULL DEFAULT 0,
  failed       int NOT NULL DEFAULT 0,
  started_at   timestamptz,
  finished_at  timestamptz,
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, template_id) REFERENCES sms_templates (rid, id)
);

CREATE TABLE sms_messages (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  sms_job_id     int NOT NULL,
  run_no         int NOT NULL DEFAULT 1,
  member_id      int,
  mobile         text NOT NULL,
  name           text NOT NULL DEFAULT '',
  address        text NOT NULL DEFAULT '',
  content        text NOT NULL,
  params         jsonb NOT NULL DEFAULT '{}',
  segments       int NOT NULL DEFAULT 1,
  -- W waiting, C claimed (committed before the provider is called), S submitted, F failed
  submit_status  char(1) NOT NULL DEFAULT 'W' CHECK (submit_status IN ('W', 'C', 'S', 'F')),
  -- W waiting for the receipt, Y delivered, N not delivered ('' before submission)
  receipt_status text NOT NULL DEFAULT '' CHECK (receipt_status IN ('', 'W', 'Y', 'N')),
  code           text NOT NULL DEFAULT '',
  reason         text NOT NULL DEFAULT '',
  out_id         text NOT NULL,
  biz_id         text NOT NULL DEFAULT '',
  resend_of      bigint,
  claimed_at     timestamptz,
  submitted_at   timestamptz,
  receipt_at     timestamptz,
  created_by     bigint,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, sms_job_id) REFERENCES sms_jobs (rid, id),
  UNIQUE (out_id)
);
CREATE INDEX sms_messages_job ON sms_messages (rid, sms_job_id, run_no, submit_status);
CREATE INDEX sms_messages_mobile ON sms_messages (rid, mobile, submitted_at);

CREATE TABLE sms_unsubscribes (
  rid         int NOT NULL REFERENCES regions(id),
  id          serial,
  mobile      text NOT NULL,
  remark      text NOT NULL DEFAULT '',
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, mobile)
);

-- the sandbox provider's own records: every message it was given, by our out_id
CREATE TABLE sms_sandbox_outbox (
  id            bigserial PRIMARY KEY,
  rid           int NOT NULL,
  out_id        text NOT NULL UNIQUE,
  biz_id        text NOT NULL,
  mobile        text NOT NULL,
  sign_name     text NOT NULL DEFAULT '',
  template_code text NOT NULL,
  params        jsonb NOT NULL DEFAULT '{}',
  content       text NOT NULL,
  failed        boolean NOT NULL DEFAULT false,
  code          text NOT NULL DEFAULT 'OK',
  created_at    timestamptz NOT NULL DEFAULT now()
);
