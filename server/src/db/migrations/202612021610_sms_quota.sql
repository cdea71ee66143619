-- The group's SMS quota package (短信额度, /setup/smsquota on the group side, issue 45 "Group
-- settings"): the balance of messages (billed segments) the group's communities may still send, and
-- its ledger. A group without a row has no package (未启用额度): its communities send without limit.
-- Once the group has a row, every message of every community of the group takes its billed segments
-- from the balance first (modules/leader/smsQuota.ts, through smsProviderFor); at zero it is refused.

CREATE TABLE sms_quotas (
  group_id        int PRIMARY KEY REFERENCES groups(id),
  balance         int NOT NULL DEFAULT 0 CHECK (balance >= 0),
  -- the balance below which the pages warn (集团短信余量不足)
  low_threshold   int NOT NULL DEFAULT 500 CHECK (low_threshold >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      bigint
);

-- Every change of a balance, written in the same statement as the change: 充值 topup, 发送 send
-- (negative: a message's billed segments), 退回 refund (a send the provider certainly refused),
-- 调整 adjust (signed, with its reason in note).
CREATE TABLE sms_quota_ledger (
  group_id        int NOT NULL REFERENCES groups(id),
  id              bigserial,
  kind            text NOT NULL CHECK (kind IN ('topup', 'send', 'refund', 'adjust')),
  count           int NOT NULL,
  balance_after   int NOT NULL CHECK (balance_after >= 0),
  -- the community that sent (send, refund); null for the group's own rows
  rid             int REFERENCES regions(id),
  -- what a send was for: an SMS job (ref_id its id), a notice, a meter alert, a charging code, a test
  purpose         text NOT NULL DEFAULT '' CHECK (purpose IN ('', 'sms_job', 'notice', 'meter_alert', 'charging_code', 'test', 'other')),
  ref_id          bigint,
  -- the message's out id (send and its refund)
  out_id          text NOT NULL DEFAULT '',
  note            text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  PRIMARY KEY (group_id, id)
);
CREATE INDEX sms_quota_ledger_time ON sms_quota_ledger (group_id, created_at);
CREATE INDEX sms_quota_ledger_region ON sms_quota_ledger (group_id, rid, created_at) WHERE rid IS NOT NULL;
