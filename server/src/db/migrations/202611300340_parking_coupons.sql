-- 停车劵 (docs/product.md#parking-coupons): coupon kinds per lot, merchants' orders (rows that never
-- change), each merchant's stock per coupon, and the coupons given to plates.
CREATE TABLE parking_coupons (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  lot_id       bigint NOT NULL,
  title        text NOT NULL,
  -- minutes 减时 | amount 减免金额 | discount 折扣 | free 全免
  kind         text NOT NULL CHECK (kind IN ('minutes', 'amount', 'discount', 'free')),
  minutes      int NOT NULL DEFAULT 0 CHECK (minutes BETWEEN 0 AND 1440),
  amount       numeric(14,2) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  rate         numeric(3,2) NOT NULL DEFAULT 0 CHECK (rate >= 0 AND rate < 1),
  -- what a merchant pays for one
  price        numeric(14,2) NOT NULL CHECK (price >= 0),
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id),
  CHECK ((kind = 'minutes') = (minutes > 0) AND (kind = 'amount') = (amount > 0) AND (kind = 'discount') = (rate > 0))
);

CREATE TABLE parking_coupon_orders (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  orderid          text NOT NULL,
  merchant_id      bigint NOT NULL,
  coupon_id        bigint NOT NULL,
  quantity         int NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
  price            numeric(14,2) NOT NULL CHECK (price >= 0),
  amount           numeric(14,2) NOT NULL CHECK (amount >= 0),
  pay_type         text NOT NULL,
  operator         text NOT NULL DEFAULT '',
  remark           text NOT NULL DEFAULT '',
  idempotency_key  text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, orderid),
  UNIQUE (rid, idempotency_key),
  FOREIGN KEY (rid, merchant_id) REFERENCES merchants (rid, id),
  FOREIGN KEY (rid, coupon_id) REFERENCES parking_coupons (rid, id)
);
CREATE INDEX parking_coupon_orders_merchant ON parking_coupon_orders (rid, merchant_id, created_at);

-- an order is a record of money taken: it never changes
CREATE FUNCTION parking_coupon_orders_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '停车劵购买记录不能修改或删除';
END $$;
CREATE TRIGGER parking_coupon_orders_frozen BEFORE UPDATE OR DELETE ON parking_coupon_orders
  FOR EACH ROW EXECUTE FUNCTION parking_coupon_orders_frozen();

CREATE TABLE parking_coupon_stock (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  merchant_id  bigint NOT NULL,
  coupon_id    bigint NOT NULL,
  bought       int NOT NULL DEFAULT 0 CHECK (bought >= 0),
  given        int NOT NULL DEFAULT 0 CHECK (given >= 0),
  -- what is left to give: bought − given + returned by voids
  left_count   int NOT NULL DEFAULT 0 CHECK (left_count >= 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, merchant_id, coupon_id),
  FOREIGN KEY (rid, merchant_id) REFERENCES merchants (rid, id),
  FOREIGN KEY (rid, coupon_id) REFERENCES parking_coupons (rid, id)
);

CREATE TABLE parking_coupon_given (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  code         text NOT NULL,
  merchant_id  bigint NOT NULL,
  coupon_id    bigint NOT NULL,
  carlicense   text NOT NULL,
  valid_from   timestamptz NOT NULL,
  valid_to     timestamptz NOT NULL,
  -- G 已领取 | U 已使用 | V 已作废; 已过期 is read by time: G past valid_to
  state        char(1) NOT NULL DEFAULT 'G' CHECK (state IN ('G', 'U', 'V')),
  used_at      timestamptz,
  -- the stay it was used on (the stays table is a later part) and what it took off
  used_ref     text NOT NULL DEFAULT '',
  used_amount  numeric(14,2) NOT NULL DEFAULT 0,
  voided_at    timestamptz,
  void_reason  text NOT NULL DEFAULT '',
  operator     text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code),
  FOREIGN KEY (rid, merchant_id) REFERENCES merchants (rid, id),
  FOREIGN KEY (rid, coupon_id) REFERENCES parking_coupons (rid, id)
);
CREATE INDEX parking_coupon_given_plate ON parking_coupon_given (rid, carlicense, valid_to);
CREATE INDEX parking_coupon_given_created ON parking_coupon_given (rid, created_at);
