-- Members' coupons (优惠券: /carpark/cardslist, cardgetlists, carshow, reportcardgenerallist;
-- modules/cards/coupons.ts; docs/product.md#member-coupons), not the merchants' parking coupons
-- (parking_coupons). A template says what a coupon is worth, where and for what it may be used, how
-- many may be given and for how long; each given coupon is a row with its own unguessable code.
CREATE TABLE member_coupon_templates (
  rid               int NOT NULL REFERENCES regions(id),
  id                bigserial,
  name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 20),
  -- amount 满减券 (face_value off an order of at least min_spend) | discount 折扣券 (pay
  -- discount_percent of the order, at most discount_cap off; 0 no cap) | gift 礼品券 (a thing, no money)
  kind              text NOT NULL CHECK (kind IN ('amount', 'discount', 'gift')),
  -- what it pays towards: shopping 购物 | property 物业费 | repair 维修 | parking 停车 | charging 充电
  purpose           text NOT NULL CHECK (purpose IN ('shopping', 'property', 'repair', 'parking', 'charging')),
  face_value        numeric(14,2) NOT NULL DEFAULT 0 CHECK (face_value >= 0),
  min_spend         numeric(14,2) NOT NULL DEFAULT 0 CHECK (min_spend >= 0),
  discount_percent  int CHECK (discount_percent BETWEEN 1 AND 99),
  discount_cap      numeric(14,2) NOT NULL DEFAULT 0 CHECK (discount_cap >= 0),
  gift              text NOT NULL DEFAULT '',
  -- the community's stores it is valid at; none: every store (and the property's own counters)
  merchant_ids      bigint[] NOT NULL DEFAULT '{}',
  -- how many may be given in all (NULL: unlimited), and how many were (a guarded update keeps issued <= stock)
  stock             int CHECK (stock > 0),
  issued            int NOT NULL DEFAULT 0 CHECK (issued >= 0),
  -- coupons of it one member may hold, whatever their state; 0 no limit
  per_person        int NOT NULL DEFAULT 1 CHECK (per_person >= 0),
  -- claim 会员领取 | staff 后台发放 | rule 规则赠送
  give_mode         text NOT NULL DEFAULT 'staff' CHECK (give_mode IN ('claim', 'staff', 'rule')),
  -- range (valid_start to valid_end) | days (valid_days from the day it is received)
  validity          text NOT NULL CHECK (validity IN ('range', 'days')),
  valid_start       date,
  valid_end         date,
  valid_days        int CHECK (valid_days > 0),
  description       text NOT NULL DEFAULT '',
  -- Y 启用 | N 停用 (no new coupons; those given stay usable)
  status            char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by        bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  CHECK (stock IS NULL OR issued <= stock),
  CHECK (kind <> 'amount' OR face_value > 0),
  CHECK (kind <> 'discount' OR discount_percent IS NOT NULL),
  CHECK (kind <> 'gift' OR gift <> ''),
  CHECK (validity <> 'range' OR (valid_start IS NOT NULL AND valid_end IS NOT NULL AND valid_start <= valid_end)),
  CHECK (validity <> 'days' OR valid_days IS NOT NULL)
);

-- the coupons given: U 未使用 → Y 已使用 (redeemCoupon; a cancelled order gives it back) | E 已过期
-- (the daily job, past valid_to) | V 已作废 (with its reason)
CREATE TABLE member_coupons (
  rid               int NOT NULL REFERENCES regions(id),
  id                bigserial,
  -- 12 random letters and digits (no 0/O/1/I), unique in the community: what a member shows and a counter types
  code              text NOT NULL CHECK (code ~ '^[A-HJ-NP-Z2-9]{12}$'),
  template_id       bigint NOT NULL,
  member_id         bigint NOT NULL,
  got_at            timestamptz NOT NULL DEFAULT now(),
  valid_from        date NOT NULL,
  valid_to          date NOT NULL,
  status            char(1) NOT NULL DEFAULT 'U' CHECK (status IN ('U', 'Y', 'E', 'V')),
  -- claim 会员领取 | staff 后台发放 | rule 规则赠送; the channel it came through (a link's, the desk)
  source            text NOT NULL CHECK (source IN ('claim', 'staff', 'rule')),
  channel           text NOT NULL DEFAULT '',
  -- what gave it: a staff issue's batch, a rule's payment (so a refund can find the coupons it gave)
  source_ref        text NOT NULL DEFAULT '',
  used_at           timestamptz,
  used_order_no     text,
  used_merchant_id  bigint,
  -- the order's amount and the discount granted on it (0 for a gift)
  used_amount       numeric(14,2),
  discount          numeric(14,2) NOT NULL DEFAULT 0 CHECK (discount >= 0),
  expired_at        timestamptz,
  void_reason       text NOT NULL DEFAULT '',
  voided_at         timestamptz,
  voided_by         bigint,
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by        bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code),
  FOREIGN KEY (rid, template_id) REFERENCES member_coupon_templates (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, used_merchant_id) REFERENCES merchants (rid, id),
  CHECK (valid_from <= valid_to),
  CHECK ((status = 'Y') = (used_at IS NOT NULL AND used_order_no IS NOT NULL)),
  CHECK (status <> 'Y' OR discount >= 0),
  CHECK (status = 'Y' OR discount = 0),
  CHECK (status <> 'E' OR expired_at IS NOT NULL),
  CHECK (status <> 'V' OR (void_reason <> '' AND voided_at IS NOT NULL))
);
-- the daily expiry: only the unused, by their end
CREATE INDEX member_coupons_expiry ON member_coupons (valid_to) WHERE status = 'U';
-- a template's coupons by state (its figures, the list's used count, carshow's pages)
CREATE INDEX member_coupons_template ON member_coupons (rid, template_id, status, id);
CREATE INDEX member_coupons_member ON member_coupons (rid, member_id, template_id);
CREATE INDEX member_coupons_order ON member_coupons (rid, used_order_no) WHERE used_order_no IS NOT NULL;
CREATE INDEX member_coupons_got ON member_coupons (rid, got_at);
CREATE INDEX member_coupons_used ON member_coupons (rid, used_at) WHERE used_at IS NOT NULL;
CREATE INDEX member_coupons_expired ON member_coupons (rid, expired_at) WHERE expired_at IS NOT NULL;
CREATE INDEX member_coupons_ref ON member_coupons (rid, source_ref) WHERE source_ref <> '';
