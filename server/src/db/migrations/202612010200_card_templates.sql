-- Member card templates (会员卡设置, modules/cards; docs/product.md#member-cards): a card's face, its
-- validity, activation, member discount, and its points rules.
CREATE TABLE card_templates (
  rid               int NOT NULL REFERENCES regions(id),
  id                bigserial,
  name              text NOT NULL,
  color             text NOT NULL DEFAULT '#C9A45C',
  notice            text NOT NULL DEFAULT '',
  description       text NOT NULL DEFAULT '',
  -- forever | range (valid_start to valid_end) | days (valid_days after the card is opened)
  validity          text NOT NULL DEFAULT 'forever' CHECK (validity IN ('forever', 'range', 'days')),
  valid_start       date,
  valid_end         date,
  valid_days        int CHECK (valid_days > 0),
  activation        text[] NOT NULL DEFAULT '{mobile,name}',
  -- the share of the price a member pays, in percent
  discount          int NOT NULL DEFAULT 100 CHECK (discount BETWEEN 1 AND 100),
  supply_bonus      char(1) NOT NULL DEFAULT 'Y' CHECK (supply_bonus IN ('Y', 'N')),
  supply_balance    char(1) NOT NULL DEFAULT 'Y' CHECK (supply_balance IN ('Y', 'N')),
  earn_per_yuan     int NOT NULL DEFAULT 1 CHECK (earn_per_yuan >= 0),
  earn_cap          int NOT NULL DEFAULT 0 CHECK (earn_cap >= 0),
  redeem_points     int NOT NULL DEFAULT 100 CHECK (redeem_points >= 0),
  redeem_money      numeric(14,2) NOT NULL DEFAULT 1 CHECK (redeem_money >= 0),
  redeem_min_order  numeric(14,2) NOT NULL DEFAULT 0 CHECK (redeem_min_order >= 0),
  redeem_max_points int NOT NULL DEFAULT 0 CHECK (redeem_max_points >= 0),
  -- never | next_year_end | rolling (expiry_months after each earning)
  expiry            text NOT NULL DEFAULT 'never' CHECK (expiry IN ('never', 'next_year_end', 'rolling')),
  expiry_months     int CHECK (expiry_months > 0),
  status            char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by        bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  CHECK (validity <> 'range' OR (valid_start IS NOT NULL AND valid_end IS NOT NULL AND valid_start <= valid_end)),
  CHECK (validity <> 'days' OR valid_days IS NOT NULL)
);
