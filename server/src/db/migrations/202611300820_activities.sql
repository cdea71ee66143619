-- Community activities with sign-up (docs/product.md#activities): the activity's settings, its
-- custom form and its sign-ups' states and payments. The tables come from 004_owners (the owner
-- drawer's signup tab reads them); this grows them.

-- status: Y 上架 (on sale), N 下架 (off); the old E (not yet open) is now a phase computed from the
-- windows, so it becomes N (off) until staff put it on sale
UPDATE activities SET status = 'N' WHERE status = 'E';
ALTER TABLE activities DROP CONSTRAINT activities_status_check;
ALTER TABLE activities ADD CONSTRAINT activities_status_check CHECK (status IN ('Y', 'N'));
-- who may join: owner (owners only) | resident (owners and tenants and their families) | all (everyone);
-- the old member (registered members) reads as resident
ALTER TABLE activities DROP CONSTRAINT activities_join_type_check;
UPDATE activities SET join_type = 'resident' WHERE join_type = 'member';
ALTER TABLE activities ADD CONSTRAINT activities_join_type_check CHECK (join_type IN ('all', 'owner', 'resident'));

ALTER TABLE activities
  ADD COLUMN cover text NOT NULL DEFAULT '',
  ADD COLUMN body text NOT NULL DEFAULT '',
  ADD COLUMN place text NOT NULL DEFAULT '',
  -- minimum to go ahead (0: none)
  ADD COLUMN min_num int NOT NULL DEFAULT 0 CHECK (min_num >= 0),
  -- person: one seat a person | household: one seat a household, with up to companions_max companions
  ADD COLUMN join_mode text NOT NULL DEFAULT 'person' CHECK (join_mode IN ('person', 'household')),
  ADD COLUMN companions_max int NOT NULL DEFAULT 0 CHECK (companions_max BETWEEN 0 AND 20),
  -- sign-ups (not cancelled) a room may hold
  ADD COLUMN household_limit int NOT NULL DEFAULT 1 CHECK (household_limit BETWEEN 1 AND 50),
  ADD COLUMN price numeric(14,2) NOT NULL DEFAULT 0 CHECK (price >= 0),
  -- an unpaid sign-up holds its seat this many minutes
  ADD COLUMN pay_minutes int NOT NULL DEFAULT 15 CHECK (pay_minutes BETWEEN 1 AND 10080),
  -- none: no refund | deadline: until the sign-up deadline | hours: until refund_hours before the event
  ADD COLUMN refund_rule text NOT NULL DEFAULT 'none' CHECK (refund_rule IN ('none', 'deadline', 'hours')),
  ADD COLUMN refund_hours int NOT NULL DEFAULT 0 CHECK (refund_hours >= 0),
  -- the fee kept on a refund: fixed (yuan) or percent
  ADD COLUMN refund_fee_type text NOT NULL DEFAULT 'fixed' CHECK (refund_fee_type IN ('fixed', 'percent')),
  ADD COLUMN refund_fee numeric(14,2) NOT NULL DEFAULT 0 CHECK (refund_fee >= 0),
  ADD COLUMN waitlist text NOT NULL DEFAULT 'N' CHECK (waitlist IN ('Y', 'N')),
  -- a promoted sign-up confirms (or pays) within this many hours
  ADD COLUMN confirm_hours int NOT NULL DEFAULT 48 CHECK (confirm_hours BETWEEN 1 AND 720),
  ADD COLUMN review text NOT NULL DEFAULT 'N' CHECK (review IN ('Y', 'N')),
  -- all: the community | building: the buildings of scope_bids
  ADD COLUMN scope text NOT NULL DEFAULT 'all' CHECK (scope IN ('all', 'building')),
  ADD COLUMN scope_bids bigint[] NOT NULL DEFAULT '{}',
  -- the custom form: [{ id, label, type, required, options }]; an answer is kept under the field's id
  ADD COLUMN form jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN cancel_reason text NOT NULL DEFAULT '',
  ADD COLUMN created_by bigint,
  ADD COLUMN updated_at timestamptz;

-- a sign-up: P 待支付 · R 待审核 · Y 已报名 · W 候补 · C 已取消 · S 已签到 · A 未到场;
-- pay_status: N 免费 · U 未支付 · Y 已支付 · R 退款中 · F 已退款
ALTER TABLE activity_signups DROP CONSTRAINT activity_signups_rid_activity_id_member_id_key;
ALTER TABLE activity_signups
  ADD COLUMN no text,
  ADD COLUMN companions int NOT NULL DEFAULT 0 CHECK (companions BETWEEN 0 AND 20),
  ADD COLUMN answers jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN status text NOT NULL DEFAULT 'Y' CHECK (status IN ('P', 'R', 'Y', 'W', 'C', 'S', 'A')),
  ADD COLUMN pay_status text NOT NULL DEFAULT 'N' CHECK (pay_status IN ('N', 'U', 'Y', 'R', 'F')),
  ADD COLUMN amount numeric(14,2) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  ADD COLUMN bill_id bigint,
  -- an unpaid seat is released at pay_deadline; a promoted one's offer ends at offer_expires_at
  ADD COLUMN pay_deadline timestamptz,
  ADD COLUMN offer_expires_at timestamptz,
  -- joined the waiting list (its order)
  ADD COLUMN waited_at timestamptz,
  ADD COLUMN checked_in_at timestamptz,
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN cancel_reason text NOT NULL DEFAULT '',
  ADD COLUMN refund_id bigint,
  ADD COLUMN refund_amount numeric(14,2) NOT NULL DEFAULT 0,
  -- a waiting sign-up once promoted is never offered a seat again after it lapses
  ADD COLUMN promoted_at timestamptz,
  ADD COLUMN created_by bigint,
  ADD COLUMN updated_at timestamptz;
UPDATE activity_signups SET no = 'BM' || lpad(id::text, 8, '0');
ALTER TABLE activity_signups ALTER COLUMN no SET NOT NULL;
ALTER TABLE activity_signups ADD CONSTRAINT activity_signups_no UNIQUE (rid, no);
-- a person signs up once for an activity (a cancelled sign-up does not count)
CREATE UNIQUE INDEX activity_signups_person ON activity_signups (rid, activity_id, member_id) WHERE status <> 'C';
CREATE INDEX activity_signups_activity ON activity_signups (rid, activity_id, status);
CREATE INDEX activity_signups_bill ON activity_signups (rid, bill_id) WHERE bill_id IS NOT NULL;
CREATE INDEX activity_signups_due ON activity_signups (pay_deadline) WHERE status = 'P';
