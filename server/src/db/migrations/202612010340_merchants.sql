-- Merchants (商户/门店, /carpark/merchantlist; modules/cards/merchants.ts; docs/product.md#merchants)
-- and the official account's followers (公众号粉丝, /carpark/wxfanslist; modules/cards/wxfans.ts).

-- a store: its kind, face, place, contact, hours, settlement account and login account
ALTER TABLE merchants
  -- store 便利店 | market 超市 | food 餐饮 | laundry 洗衣 | pharmacy 药房 | other 其他
  ADD COLUMN kind              text NOT NULL DEFAULT 'other'
    CHECK (kind IN ('store', 'market', 'food', 'laundry', 'pharmacy', 'other')),
  ADD COLUMN logo              text NOT NULL DEFAULT '',
  ADD COLUMN address           text NOT NULL DEFAULT '',
  ADD COLUMN lng               numeric(9,6) CHECK (lng BETWEEN -180 AND 180),
  ADD COLUMN lat               numeric(8,6) CHECK (lat BETWEEN -90 AND 90),
  ADD COLUMN contact           text NOT NULL DEFAULT '',
  ADD COLUMN hours             text NOT NULL DEFAULT '',
  -- the settlement account: the number sealed by lib/secrets.ts, written only, shown by its mask
  ADD COLUMN bank_name         text NOT NULL DEFAULT '',
  ADD COLUMN bank_holder       text NOT NULL DEFAULT '',
  ADD COLUMN bank_account_blob text,
  -- 6222 **** **** 1234: made when the number is written, so reading never opens the secret
  ADD COLUMN bank_account_mask text NOT NULL DEFAULT '',
  -- the merchant's login account (accounts.sys_type 'merchant'), one store each
  ADD COLUMN account_id        int REFERENCES accounts (id),
  ADD COLUMN remark            text NOT NULL DEFAULT '',
  ADD COLUMN created_by        bigint,
  ADD CHECK ((lng IS NULL) = (lat IS NULL)),
  ADD CHECK ((bank_account_blob IS NULL) = (bank_account_mask = ''));
CREATE UNIQUE INDEX merchants_account ON merchants (account_id) WHERE account_id IS NOT NULL;

-- the other communities of the group a merchant serves, each decided by that community's staff:
-- the row is the served community's (rid), naming the merchant of its own community
CREATE TABLE merchant_services (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  merchant_rid  int NOT NULL,
  merchant_id   bigint NOT NULL,
  valid_from    date NOT NULL,
  valid_to      date NOT NULL,
  -- E 待审核 | Y 已通过 | N 已驳回
  status        char(1) NOT NULL DEFAULT 'E' CHECK (status IN ('E', 'Y', 'N')),
  remark        text NOT NULL DEFAULT '',
  -- the deciding staff's reason (a refusal's) and who decided when
  reason        text NOT NULL DEFAULT '',
  decided_by    bigint,
  decided_at    timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (merchant_rid, merchant_id) REFERENCES merchants (rid, id) ON DELETE CASCADE,
  CHECK (rid <> merchant_rid),
  CHECK (valid_from <= valid_to)
);
-- one request pending or approved per merchant and community; a refused one stays as history
CREATE UNIQUE INDEX merchant_services_live ON merchant_services (rid, merchant_rid, merchant_id) WHERE status IN ('E', 'Y');
CREATE INDEX merchant_services_merchant ON merchant_services (merchant_rid, merchant_id);

-- the official account's followers, as the platform's user list and user info give them
CREATE TABLE wx_followers (
  rid             int NOT NULL REFERENCES regions(id),
  id              bigserial,
  openid          text NOT NULL CHECK (openid ~ '^[A-Za-z0-9_-]{6,64}$'),
  unionid         text NOT NULL DEFAULT '',
  subscribed      char(1) NOT NULL DEFAULT 'Y' CHECK (subscribed IN ('Y', 'N')),
  subscribe_time  timestamptz,
  -- ADD_SCENE_SEARCH, ADD_SCENE_QR_CODE, ... as the platform says
  scene           text NOT NULL DEFAULT '',
  -- the QR code's scene string: the channel the follower came through
  channel         text NOT NULL DEFAULT '',
  remark          text NOT NULL DEFAULT '',
  tags            text[] NOT NULL DEFAULT '{}',
  -- the platform no longer gives them (2021-12-27); only our own sign-ins fill them
  nickname        text,
  avatar          text,
  member_id       bigint,
  bound_at        timestamptz,
  bound_by        bigint,
  synced_at       timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, openid),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id) ON DELETE SET NULL (member_id)
);
CREATE INDEX wx_followers_member ON wx_followers (rid, member_id) WHERE member_id IS NOT NULL;
CREATE INDEX wx_followers_subscribed ON wx_followers (rid, subscribe_time);

-- each sync of the followers: what it found and changed
CREATE TABLE wx_follower_syncs (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  provider      text NOT NULL,
  total         int NOT NULL DEFAULT 0,
  added         int NOT NULL DEFAULT 0,
  updated       int NOT NULL DEFAULT 0,
  unsubscribed  int NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id)
);
