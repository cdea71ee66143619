-- Payment merchants (支付商户, /setup/setpay on the group side, issue 45): which merchant receives a
-- community's money for each kind of fee. A row without a community is the group's default for that
-- kind; a community without a merchant of its own falls back to it. The keys are sealed by
-- lib/secrets.ts (written only, never answered); the console shows their last four characters.

CREATE TABLE pay_merchants (
  id                  serial PRIMARY KEY,
  group_id            int NOT NULL REFERENCES groups(id),
  -- NULL: the group's default merchant for the kind
  rid                 int REFERENCES regions(id),
  fee_kind            text NOT NULL CHECK (fee_kind IN ('all', 'property', 'parking', 'temp_parking', 'utility', 'meter', 'charging')),
  provider            text NOT NULL CHECK (provider IN ('wechat', 'alipay')),
  title               text NOT NULL,
  mch_id              text NOT NULL DEFAULT '',
  app_id              text NOT NULL DEFAULT '',
  serial_no           text NOT NULL DEFAULT '',
  api_v3_blob         text,
  api_v3_last4        text NOT NULL DEFAULT '',
  private_key_blob    text,
  private_key_last4   text NOT NULL DEFAULT '',
  public_key_blob     text,
  public_key_last4    text NOT NULL DEFAULT '',
  status              char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark              text NOT NULL DEFAULT '',
  last_test_at        timestamptz,
  last_test_ok        char(1) CHECK (last_test_ok IN ('Y', 'N')),
  last_test_result    text NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          bigint
);
-- one merchant per (community or the group's default, kind)
CREATE UNIQUE INDEX pay_merchants_scope ON pay_merchants (group_id, coalesce(rid, 0), fee_kind);
CREATE INDEX pay_merchants_rid ON pay_merchants (rid) WHERE rid IS NOT NULL;
