-- Coupons given by a rule (赠券规则; modules/cards/couponRules.ts; docs/product.md#member-coupons):
-- a payment at the cashier that pays at least min_months periods of one fee item (only periods
-- from the payment's month on when prepaid_only) gives its owner the template's coupons, all at
-- once or one a month; a recharge package gives coupons with each recharge.
CREATE TABLE member_coupon_rules (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 30),
  item_id       bigint NOT NULL,
  min_months    int NOT NULL DEFAULT 12 CHECK (min_months BETWEEN 1 AND 120),
  -- Y: only the periods from the payment's month on count (预缴)
  prepaid_only  char(1) NOT NULL DEFAULT 'Y' CHECK (prepaid_only IN ('Y', 'N')),
  template_id   bigint NOT NULL,
  quantity      int NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 36),
  -- once: all valid as the template says | monthly: the k-th valid through the k-th month from the payment's
  frequency     text NOT NULL DEFAULT 'once' CHECK (frequency IN ('once', 'monthly')),
  start_date    date,
  end_date      date,
  status        char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark        text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  FOREIGN KEY (rid, item_id) REFERENCES fee_items (rid, id),
  FOREIGN KEY (rid, template_id) REFERENCES member_coupon_templates (rid, id),
  CHECK (start_date IS NULL OR end_date IS NULL OR start_date <= end_date)
);
CREATE INDEX member_coupon_rules_item ON member_coupon_rules (rid, item_id) WHERE status = 'Y';

-- what each payment a rule met gave: once per rule and payment (the payment's transaction writes
-- it); given 0 with the reason when the template could not give (stock, limit, stopped); taken
-- back: the unused coupons voided when the payment was voided or refunded below the rule
CREATE TABLE member_coupon_rule_gives (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  rule_id      bigint NOT NULL,
  payment_id   bigint NOT NULL,
  member_id    bigint NOT NULL,
  months       int NOT NULL CHECK (months > 0),
  given        int NOT NULL CHECK (given >= 0),
  note         text NOT NULL DEFAULT '',
  taken_back   int NOT NULL DEFAULT 0 CHECK (taken_back >= 0 AND taken_back <= given),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, rule_id, payment_id),
  FOREIGN KEY (rid, rule_id) REFERENCES member_coupon_rules (rid, id),
  FOREIGN KEY (rid, payment_id) REFERENCES fee_payments (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX member_coupon_rule_gives_payment ON member_coupon_rule_gives (rid, payment_id);

ALTER TABLE recharge_packages
  ADD COLUMN coupon_template_id bigint,
  ADD COLUMN coupon_count int NOT NULL DEFAULT 0 CHECK (coupon_count BETWEEN 0 AND 50),
  ADD FOREIGN KEY (rid, coupon_template_id) REFERENCES member_coupon_templates (rid, id),
  ADD CHECK ((coupon_template_id IS NULL) = (coupon_count = 0));

-- the coupons a recharge gave (source rule, source_ref 'recharge:<id>'), and how many
ALTER TABLE card_recharges ADD COLUMN coupons_given int NOT NULL DEFAULT 0 CHECK (coupons_given >= 0);

-- the rule give a coupon came from: a voided or refunded payment takes back that give's unused coupons
ALTER TABLE member_coupons ADD COLUMN rule_give_id bigint;
ALTER TABLE member_coupons ADD FOREIGN KEY (rid, rule_give_id) REFERENCES member_coupon_rule_gives (rid, id);
CREATE INDEX member_coupons_rule_give ON member_coupons (rid, rule_give_id) WHERE rule_give_id IS NOT NULL;
