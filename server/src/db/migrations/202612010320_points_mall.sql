-- The points mall (积分商城: /carpark/shopmall, goods, catelist, mallorderlist; modules/cards/mall.ts):
-- the community's mall settings, its two-level categories, its goods and their specifications, and
-- the members' orders. A redemption takes the member's points (a bonus_ledger row, through
-- moveBonus) and the specification's stock in one transaction; a cancelled order gives both back.
CREATE TABLE mall_settings (
  rid             int PRIMARY KEY REFERENCES regions(id),
  enabled         char(1) NOT NULL DEFAULT 'N' CHECK (enabled IN ('Y', 'N')),
  name            text NOT NULL DEFAULT '积分商城' CHECK (length(name) BETWEEN 1 AND 20),
  -- what a point is worth, for display: this many points make one yuan
  points_per_yuan int NOT NULL DEFAULT 100 CHECK (points_per_yuan BETWEEN 1 AND 100000),
  -- how a member receives goods: picked up at the property office, delivered, or either
  pickup          char(1) NOT NULL DEFAULT 'Y' CHECK (pickup IN ('Y', 'N')),
  delivery        char(1) NOT NULL DEFAULT 'N' CHECK (delivery IN ('Y', 'N')),
  pickup_address  text NOT NULL DEFAULT '',
  pickup_hours    text NOT NULL DEFAULT '',
  notice          text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      bigint,
  CHECK (pickup = 'Y' OR delivery = 'Y')
);

-- two levels: a top-level category (parent_id null) or a child of one (checked by the methods)
CREATE TABLE mall_categories (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  parent_id   bigint,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 20),
  sort        int NOT NULL DEFAULT 0 CHECK (sort >= 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, parent_id) REFERENCES mall_categories (rid, id),
  CHECK (parent_id IS NULL OR parent_id <> id)
);
-- a name once among its siblings (the top level's too)
CREATE UNIQUE INDEX mall_categories_name ON mall_categories (rid, coalesce(parent_id, 0), name);
CREATE INDEX mall_categories_parent ON mall_categories (rid, parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE mall_goods (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  category_id      bigint NOT NULL,
  name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
  -- uploaded images' addresses (imageupload), the first the cover
  images           text[] NOT NULL DEFAULT '{}' CHECK (cardinality(images) <= 9),
  description      text NOT NULL DEFAULT '',
  -- Y 上架 | N 下架
  status           char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  -- how many a member may redeem of it over their orders not cancelled; 0 none
  limit_per_member int NOT NULL DEFAULT 0 CHECK (limit_per_member BETWEEN 0 AND 999),
  sort             int NOT NULL DEFAULT 0 CHECK (sort >= 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  FOREIGN KEY (rid, category_id) REFERENCES mall_categories (rid, id)
);
CREATE INDEX mall_goods_category ON mall_goods (rid, category_id);

CREATE TABLE mall_goods_specs (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  goods_id    bigint NOT NULL,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 20),
  -- the reference price in yuan (what the goods cost in a shop)
  price       numeric(14,2) NOT NULL DEFAULT 0 CHECK (price >= 0),
  -- the points one of it takes
  points      int NOT NULL CHECK (points > 0),
  stock       int NOT NULL DEFAULT 0 CHECK (stock >= 0),
  sort        int NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  -- deferred: a form may swap two specifications' names in one save
  UNIQUE (rid, goods_id, name) DEFERRABLE INITIALLY DEFERRED,
  FOREIGN KEY (rid, goods_id) REFERENCES mall_goods (rid, id) ON DELETE CASCADE
);

CREATE TABLE mall_orders (
  rid             int NOT NULL REFERENCES regions(id),
  id              bigserial,
  order_no        text NOT NULL,
  member_id       bigint NOT NULL,
  goods_id        bigint NOT NULL,
  spec_id         bigint NOT NULL,
  -- what was redeemed, as it was then
  goods_name      text NOT NULL,
  spec_name       text NOT NULL,
  price           numeric(14,2) NOT NULL DEFAULT 0 CHECK (price >= 0),
  points          int NOT NULL CHECK (points > 0),
  quantity        int NOT NULL CHECK (quantity BETWEEN 1 AND 99),
  points_total    int NOT NULL,
  -- pickup (at the property office) | delivery (to the address)
  delivery_mode   text NOT NULL DEFAULT 'pickup' CHECK (delivery_mode IN ('pickup', 'delivery')),
  contact_name    text NOT NULL DEFAULT '',
  contact_mobile  text NOT NULL DEFAULT '',
  address         text NOT NULL DEFAULT '',
  remark          text NOT NULL DEFAULT '',
  -- P 待发货/待自提 → S 已发货 → D 已完成; P → C 已取消 (points and stock given back)
  status          char(1) NOT NULL DEFAULT 'P' CHECK (status IN ('P', 'S', 'D', 'C')),
  express_company text NOT NULL DEFAULT '',
  express_no      text NOT NULL DEFAULT '',
  shipped_at      timestamptz,
  shipped_by      bigint,
  done_at         timestamptz,
  done_by         bigint,
  cancelled_at    timestamptz,
  cancelled_by    bigint,
  cancel_reason   text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, order_no),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, goods_id) REFERENCES mall_goods (rid, id),
  FOREIGN KEY (rid, spec_id) REFERENCES mall_goods_specs (rid, id),
  CHECK (points_total = points * quantity),
  CHECK (delivery_mode = 'pickup' OR (contact_name <> '' AND contact_mobile <> '' AND address <> '')),
  CHECK (status <> 'S' OR (express_company <> '' AND express_no <> '' AND shipped_at IS NOT NULL)),
  CHECK (status <> 'D' OR done_at IS NOT NULL),
  CHECK (status <> 'C' OR (cancel_reason <> '' AND cancelled_at IS NOT NULL))
);
CREATE INDEX mall_orders_member_goods ON mall_orders (rid, member_id, goods_id) WHERE status <> 'C';
CREATE INDEX mall_orders_status ON mall_orders (rid, status, id);
CREATE INDEX mall_orders_goods ON mall_orders (rid, goods_id, id);
CREATE INDEX mall_orders_created ON mall_orders (rid, created_at);
