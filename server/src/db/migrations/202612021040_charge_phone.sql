-- The owner's phone at a pile (docs/product.md#charging-piles): scanning the pile's QR code, the
-- owner proves their mobile with an SMS code and gets a short session of kind 'charge', which
-- belongs to a member of the community rather than to a staff account and may call the phone's
-- charging methods only (as a board session may call the board's reads only).

ALTER TABLE sessions ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE sessions ADD COLUMN member_id bigint;
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('console', 'board', 'charge'));
-- a charge session names its member and community; every other session its account
ALTER TABLE sessions ADD CONSTRAINT sessions_charge_member CHECK (
  CASE WHEN kind = 'charge' THEN member_id IS NOT NULL AND rid IS NOT NULL AND account_id IS NULL
       ELSE member_id IS NULL AND account_id IS NOT NULL END);
ALTER TABLE sessions ADD CONSTRAINT sessions_member_fkey FOREIGN KEY (rid, member_id) REFERENCES members (rid, id) ON DELETE CASCADE;
CREATE INDEX sessions_member ON sessions (rid, member_id) WHERE member_id IS NOT NULL;

-- the SMS codes sent to owners' mobiles at a pile: only a hash of the code is kept; a code lasts
-- minutes, may be tried a few times and is used once
CREATE TABLE charge_sms_codes (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  mobile       text NOT NULL,
  member_id    bigint NOT NULL,
  code_hash    text NOT NULL,
  -- our id of the message at the SMS provider (the sandbox's page shows it by this)
  out_id       text NOT NULL UNIQUE,
  ip           text NOT NULL DEFAULT '',
  attempts     smallint NOT NULL DEFAULT 0,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id) ON DELETE CASCADE
);
CREATE INDEX charge_sms_codes_mobile ON charge_sms_codes (rid, mobile, created_at);
CREATE INDEX charge_sms_codes_ip ON charge_sms_codes (ip, created_at);

-- a session the owner stopped from the phone ends 手机停止
ALTER TABLE charge_orders DROP CONSTRAINT charge_orders_end_reason_check;
ALTER TABLE charge_orders ADD CONSTRAINT charge_orders_end_reason_check
  CHECK (end_reason IN ('', 'full', 'time', 'energy', 'amount', 'unplug', 'console', 'phone', 'fault', 'timeout'));
