-- The group's WeChat settings (公众号/小程序设置, /setup/setwxsys on the group side, issue 45): its
-- official account and its mini-program, one of each. AppSecret, Token and EncodingAESKey are sealed
-- by lib/secrets.ts (written only, never answered); the console shows their last four characters.

CREATE TABLE wx_accounts (
  id                  serial PRIMARY KEY,
  group_id            int NOT NULL REFERENCES groups(id),
  -- 'oa' 公众号 (is_wechatset_auth), 'mini' 小程序 (is_microapp_auth)
  kind                text NOT NULL CHECK (kind IN ('oa', 'mini')),
  app_id              text NOT NULL DEFAULT '',
  name                text NOT NULL DEFAULT '',
  original_id         text NOT NULL DEFAULT '',
  qrcode_url          text NOT NULL DEFAULT '',
  app_secret_blob     text,
  app_secret_last4    text NOT NULL DEFAULT '',
  token_blob          text,
  token_last4         text NOT NULL DEFAULT '',
  aes_key_blob        text,
  aes_key_last4       text NOT NULL DEFAULT '',
  last_test_at        timestamptz,
  last_test_ok        char(1) CHECK (last_test_ok IN ('Y', 'N')),
  last_test_result    text NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          bigint,
  UNIQUE (group_id, kind)
);

-- The payment channel per scene (支付渠道, /setup/setchannel on the group side): which provider the
-- group chose for each way of paying. A record of the group's choice; the payment flows do not read
-- it yet (renewal's provider is the server's, payments/provider.ts).
CREATE TABLE pay_channels (
  id                  serial PRIMARY KEY,
  group_id            int NOT NULL REFERENCES groups(id),
  scene               text NOT NULL CHECK (scene IN ('owner_app', 'cashier_qr', 'pay_code', 'renewal')),
  provider            text NOT NULL CHECK (provider IN ('wechat', 'alipay', 'sandbox')),
  enabled             char(1) NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  remark              text NOT NULL DEFAULT '',
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          bigint,
  UNIQUE (group_id, scene)
);
