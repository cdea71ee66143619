-- 消息设置 (issue 45; docs/product.md#notifications): the group's event × recipient × channel matrix
-- (no row: the cell's default, contract/src/setup/notify.ts notifyDefault), its quiet hours and
-- daily cap, and every notification given out: a staff member's 站内消息 or an SMS with its outcome.
CREATE TABLE notify_rules (
  group_id            int NOT NULL REFERENCES groups(id),
  event               text NOT NULL,
  recipient           text NOT NULL CHECK (recipient IN ('owner', 'handler', 'steward', 'staff', 'visitor')),
  channel             text NOT NULL CHECK (channel IN ('inbox', 'sms')),
  enabled             char(1) NOT NULL CHECK (enabled IN ('Y', 'N')),
  PRIMARY KEY (group_id, event, recipient, channel)
);

CREATE TABLE notify_settings (
  group_id            int PRIMARY KEY REFERENCES groups(id),
  quiet_enabled       char(1) NOT NULL CHECK (quiet_enabled IN ('Y', 'N')),
  quiet_from          smallint NOT NULL CHECK (quiet_from BETWEEN 0 AND 23),
  quiet_to            smallint NOT NULL CHECK (quiet_to BETWEEN 0 AND 23),
  daily_cap           int NOT NULL CHECK (daily_cap BETWEEN 1 AND 100),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          bigint
);

CREATE TABLE notifications (
  id                  bigserial PRIMARY KEY,
  rid                 int NOT NULL REFERENCES regions(id),
  event               text NOT NULL,
  recipient           text NOT NULL CHECK (recipient IN ('owner', 'handler', 'steward', 'staff', 'visitor')),
  channel             text NOT NULL CHECK (channel IN ('inbox', 'sms')),
  -- the staff member (inbox, and a staff SMS); null for an owner
  account_id          bigint,
  name                text NOT NULL DEFAULT '',
  mobile              text NOT NULL DEFAULT '',
  title               text NOT NULL,
  content             text NOT NULL,
  link                text NOT NULL DEFAULT '',
  -- the record it is about, in its area (a ticket's id, a receipt number, a visitor's id)
  ref_id              text NOT NULL DEFAULT '',
  -- inbox: U unread, R read; sms: W waiting, C claimed by its job (sending), Y sent, F failed,
  -- S not sent (reason says why)
  status              char(1) NOT NULL CHECK (status IN ('U', 'R', 'W', 'C', 'Y', 'F', 'S')),
  reason              text NOT NULL DEFAULT '',
  send_after          timestamptz,
  -- when its job claimed the SMS, committed before the provider is called (a crash's lookup)
  claimed_at          timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  read_at             timestamptz
);
CREATE INDEX notifications_inbox ON notifications (account_id, id) WHERE channel = 'inbox';
CREATE INDEX notifications_unread ON notifications (account_id) WHERE channel = 'inbox' AND status = 'U';
CREATE INDEX notifications_region ON notifications (rid, id);
CREATE INDEX notifications_mobile_day ON notifications (mobile, created_at) WHERE channel = 'sms';
