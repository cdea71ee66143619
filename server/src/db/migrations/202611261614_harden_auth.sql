-- Hardening of sign-in, sessions, renewal and the sandbox (issue 33).

-- Sessions: a public id to list and end them by (the token's hash stays a secret key), what kind
-- of session it is (a read-only board session may call only board methods), an absolute end
-- however active it stays, and where it signed in from.
ALTER TABLE sessions ADD COLUMN id bigserial;
CREATE UNIQUE INDEX sessions_id ON sessions (id);
ALTER TABLE sessions ADD COLUMN kind text NOT NULL DEFAULT 'console' CHECK (kind IN ('console', 'board'));
ALTER TABLE sessions ADD COLUMN max_expires_at timestamptz;
UPDATE sessions SET max_expires_at = greatest(expires_at, created_at + interval '24 hours');
ALTER TABLE sessions ALTER COLUMN max_expires_at SET NOT NULL;
ALTER TABLE sessions ADD COLUMN ip text NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN user_agent text NOT NULL DEFAULT '';

-- Sign-in throttling (modules/auth/throttle.ts): one row per key (an account from an address, an
-- address, an account, an address an account signed in from before), changed by single
-- statements under the row's lock, so concurrent attempts are each counted.
DROP TABLE login_failures;
CREATE TABLE login_throttle (
  key            text PRIMARY KEY,
  failures       int NOT NULL DEFAULT 0,
  last_at        timestamptz NOT NULL DEFAULT now(),
  blocked_until  timestamptz NOT NULL DEFAULT 'epoch'
);
CREATE INDEX login_throttle_last_at ON login_throttle (last_at);

-- One-time codes: the board window and the sign-in hand-over (/auth-redirect) carry one of
-- these in their address instead of a session token; only the hash is kept.
CREATE TABLE login_codes (
  code_hash   text PRIMARY KEY,
  purpose     text NOT NULL CHECK (purpose IN ('board', 'handover')),
  account_id  int NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  side        text NOT NULL CHECK (side IN ('community', 'group')),
  rid         int REFERENCES regions(id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX login_codes_expires ON login_codes (expires_at);

-- Set when an administrator resets the password: the next change alone may skip the current one.
ALTER TABLE accounts ADD COLUMN password_reset_at timestamptz;

-- Activation codes belong to a group; the demo's sequential codes are replaced by random ones.
ALTER TABLE activation_codes ADD COLUMN remark text NOT NULL DEFAULT '';
UPDATE activation_codes
  SET code = 'WY-' || upper(substr(md5(gen_random_uuid()::text), 1, 5) || '-' || substr(md5(gen_random_uuid()::text), 1, 5) || '-' ||
             substr(md5(gen_random_uuid()::text), 1, 5) || '-' || substr(md5(gen_random_uuid()::text), 1, 5)),
      remark = '演示'
  WHERE code LIKE 'WY-DEMO-%' AND used_at IS NULL;

-- The sandbox provider's own records, as a real provider keeps them: the orders registered with it
-- (its pay page is reached by an unguessable key, never by our order id) and what its page was paid.
CREATE TABLE sandbox_orders (
  orderid     text PRIMARY KEY,
  pay_key     text NOT NULL UNIQUE,
  total_fee   numeric(14,2) NOT NULL,
  paid_fee    numeric(14,2),
  paid_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO sandbox_orders (orderid, pay_key, total_fee, paid_fee, paid_at)
  SELECT o.orderid, md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text), o.total_fee, p.total_fee, p.paid_at
  FROM renewal_orders o LEFT JOIN sandbox_payments p ON p.orderid = o.orderid
  WHERE o.provider = 'sandbox';
DROP TABLE sandbox_payments;

-- A cashier's discount is capped lower by default; above the cap only a manager may give one.
ALTER TABLE fee_settings ALTER COLUMN max_discount_percent SET DEFAULT 20;
