-- Members' cards and their ledgers (modules/cards; docs/product.md#member-cards). A member's
-- balance and points are the sums of their ledger rows (checked at every test server's close);
-- a member holds at most one live card, and the card shows the member's balance and points.
CREATE TABLE member_cards (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  -- fixed once a ledger row names the card
  card_no      text NOT NULL CHECK (card_no ~ '^[A-Za-z0-9-]{4,32}$'),
  template_id  bigint NOT NULL,
  member_id    bigint NOT NULL,
  level        text NOT NULL DEFAULT '普通会员',
  tags         text[] NOT NULL DEFAULT '{}',
  -- the houses the card serves (rooms of the community)
  hids         bigint[] NOT NULL DEFAULT '{}',
  -- I 未激活 | Y 正常 | F 冻结 | L 挂失 | C 注销
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('I', 'Y', 'F', 'L', 'C')),
  -- a lost card's replacement, which took its balance and points
  replaced_by  bigint,
  valid_until  date,
  activated_at timestamptz,
  remark       text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, card_no),
  FOREIGN KEY (rid, template_id) REFERENCES card_templates (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, replaced_by) REFERENCES member_cards (rid, id)
);
CREATE UNIQUE INDEX member_cards_live ON member_cards (rid, member_id) WHERE status IN ('I', 'Y', 'F');
CREATE INDEX member_cards_template ON member_cards (rid, template_id, id);
CREATE INDEX member_cards_member ON member_cards (rid, member_id);

-- every row says what it left: the member's balance or points after it, and the card it was on
ALTER TABLE balance_ledger ADD COLUMN card_id bigint, ADD COLUMN balance_after numeric(14,2),
  ADD FOREIGN KEY (rid, card_id) REFERENCES member_cards (rid, id);
ALTER TABLE bonus_ledger ADD COLUMN card_id bigint, ADD COLUMN bonus_after int, ADD COLUMN remark text NOT NULL DEFAULT '',
  ADD FOREIGN KEY (rid, card_id) REFERENCES member_cards (rid, id);
CREATE INDEX balance_ledger_card ON balance_ledger (rid, card_id, id) WHERE card_id IS NOT NULL;
CREATE INDEX bonus_ledger_card ON bonus_ledger (rid, card_id, id) WHERE card_id IS NOT NULL;
CREATE INDEX balance_ledger_order ON balance_ledger (rid, orderid);

-- whether the member's balance may pay an item's bills at the cashier
ALTER TABLE fee_items ADD COLUMN balance_pay char(1) NOT NULL DEFAULT 'Y' CHECK (balance_pay IN ('Y', 'N'));

-- recharge packages (储值管理): pay X, get a bonus and points, within a window, a limit per member
CREATE TABLE recharge_packages (
  rid               int NOT NULL REFERENCES regions(id),
  id                bigserial,
  name              text NOT NULL,
  pay_amount        numeric(14,2) NOT NULL CHECK (pay_amount > 0),
  bonus_amount      numeric(14,2) NOT NULL DEFAULT 0 CHECK (bonus_amount >= 0),
  bonus_points      int NOT NULL DEFAULT 0 CHECK (bonus_points >= 0),
  start_date        date,
  end_date          date,
  per_member_limit  int NOT NULL DEFAULT 0 CHECK (per_member_limit >= 0),
  status            char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark            text NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by        bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name),
  CHECK (start_date IS NULL OR end_date IS NULL OR start_date <= end_date)
);

-- recharges at the counter; Y 已充值 | E 退款待审批 | R 已退款 (the refund workflow, workflow_logs)
CREATE TABLE card_recharges (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  order_no       text NOT NULL,
  card_id        bigint NOT NULL,
  member_id      bigint NOT NULL,
  package_id     bigint,
  paid_amount    numeric(14,2) NOT NULL CHECK (paid_amount > 0),
  bonus_amount   numeric(14,2) NOT NULL DEFAULT 0 CHECK (bonus_amount >= 0),
  bonus_points   int NOT NULL DEFAULT 0 CHECK (bonus_points >= 0),
  pay_type       text NOT NULL,
  reference      text NOT NULL DEFAULT '',
  status         char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'E', 'R')),
  refund_reason  text NOT NULL DEFAULT '',
  decided_by     bigint,
  decided_at     timestamptz,
  operator       text NOT NULL DEFAULT '',
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, order_no),
  FOREIGN KEY (rid, card_id) REFERENCES member_cards (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, package_id) REFERENCES recharge_packages (rid, id)
);
CREATE INDEX card_recharges_card ON card_recharges (rid, card_id, id);
CREATE INDEX card_recharges_member_package ON card_recharges (rid, member_id, package_id);
CREATE INDEX card_recharges_created ON card_recharges (rid, created_at);
