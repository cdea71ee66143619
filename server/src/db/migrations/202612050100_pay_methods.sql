-- The group's own payment methods (支付方式 paytypelist, issue 45; docs/product.md#paytypelist): a
-- named way of taking money at the counter (POS机-工行, 支票, 现金-前台) on one of the system's offline
-- methods, its base. It behaves as its base (reports group by the base, and count it in 实收 as the
-- base is counted) and has its own name, switch, reference rule and order. Deleted only while no
-- receipt or top-up used it (used_at), otherwise only disabled.
CREATE TABLE pay_methods (
  id                  serial PRIMARY KEY,
  group_id            int NOT NULL REFERENCES groups(id),
  base                text NOT NULL CHECK (base IN ('cash', 'bankcard', 'transfer')),
  name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 20),
  enabled             char(1) NOT NULL CHECK (enabled IN ('Y', 'N')),
  ref_required        char(1) NOT NULL CHECK (ref_required IN ('Y', 'N')),
  sort                int NOT NULL CHECK (sort BETWEEN 0 AND 999),
  remark              text NOT NULL DEFAULT '',
  used_at             timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          bigint,
  UNIQUE (group_id, name)
);

-- the receipt keeps the method's id and its name as printed (a rename does not rewrite receipts)
ALTER TABLE fee_payments ADD COLUMN pay_method_id int REFERENCES pay_methods(id);
ALTER TABLE fee_payments ADD COLUMN pay_method text NOT NULL DEFAULT '';
