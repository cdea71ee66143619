-- Member purchases at a counter (会员收银 carduscon; modules/cards/counter.ts, docs/product.md#member-counter):
-- what each part paid, in the order the parts apply; a refund reverses each part (status R).
CREATE TABLE counter_orders (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  order_no         text NOT NULL,
  card_id          bigint NOT NULL,
  member_id        bigint NOT NULL,
  -- the store; NULL: the property's own counter (物业服务中心)
  merchant_id      bigint,
  amount           numeric(14,2) NOT NULL CHECK (amount > 0),
  member_discount  numeric(14,2) NOT NULL DEFAULT 0 CHECK (member_discount >= 0),
  coupon_code      text NOT NULL DEFAULT '',
  coupon_name      text NOT NULL DEFAULT '',
  coupon_discount  numeric(14,2) NOT NULL DEFAULT 0 CHECK (coupon_discount >= 0),
  points_used      int NOT NULL DEFAULT 0 CHECK (points_used >= 0),
  points_money     numeric(14,2) NOT NULL DEFAULT 0 CHECK (points_money >= 0),
  balance_paid     numeric(14,2) NOT NULL DEFAULT 0 CHECK (balance_paid >= 0),
  cash_paid        numeric(14,2) NOT NULL DEFAULT 0 CHECK (cash_paid >= 0),
  pay_type         text NOT NULL DEFAULT 'cash',
  points_earned    int NOT NULL DEFAULT 0 CHECK (points_earned >= 0),
  -- Y 已支付 | R 已退款
  status           char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'R')),
  refund_reason    text NOT NULL DEFAULT '',
  refunded_at      timestamptz,
  refunded_by      text NOT NULL DEFAULT '',
  operator         text NOT NULL DEFAULT '',
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, order_no),
  FOREIGN KEY (rid, card_id) REFERENCES member_cards (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, merchant_id) REFERENCES merchants (rid, id),
  CHECK (amount = member_discount + coupon_discount + points_money + balance_paid + cash_paid)
);
CREATE INDEX counter_orders_merchant ON counter_orders (rid, merchant_id, id);
CREATE INDEX counter_orders_card ON counter_orders (rid, card_id, id);
CREATE INDEX counter_orders_created ON counter_orders (rid, created_at);
