-- Invoices for what owners paid (modules/invoice; docs/product.md#invoices).

-- Every receipt line keeps its share of the receipt's discount (so what was received for it is
-- fee + late_fee - discount) and how much of it is invoiced (blue lines taken, red lines given back).
ALTER TABLE fee_payment_items
  ADD COLUMN discount numeric(14,2) NOT NULL DEFAULT 0,
  ADD COLUMN invoiced numeric(14,2) NOT NULL DEFAULT 0 CHECK (invoiced >= 0);

-- A receipt's discount shared over its lines by their amounts, the last line taking what rounding
-- left, so the shares add up to the discount exactly: for the receipts (rid, id) given.
CREATE OR REPLACE FUNCTION fee_payment_item_share_discounts(rids int[], ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE fee_payment_items pi SET discount = s.share
  FROM (
    SELECT rid, id, CASE WHEN rn = 1 THEN d - (sum(part) OVER w - part) ELSE part END AS share
    FROM (
      SELECT i.rid, i.id, i.payment_id, p.discount AS d,
        CASE WHEN sum(i.fee + i.late_fee) OVER pw = 0 THEN 0
             ELSE round(p.discount * (i.fee + i.late_fee) / sum(i.fee + i.late_fee) OVER pw, 2) END AS part,
        row_number() OVER (PARTITION BY i.rid, i.payment_id ORDER BY i.id DESC) AS rn
      FROM unnest(rids, ids) AS k(rid, id)
      JOIN fee_payments p ON p.rid = k.rid AND p.id = k.id
      JOIN fee_payment_items i ON i.rid = p.rid AND i.payment_id = p.id
      WHERE p.discount > 0
      WINDOW pw AS (PARTITION BY i.rid, i.payment_id)
    ) lines
    WINDOW w AS (PARTITION BY rid, payment_id)
  ) s
  WHERE pi.rid = s.rid AND pi.id = s.id AND pi.discount IS DISTINCT FROM s.share;
$$;

CREATE OR REPLACE FUNCTION fee_payment_item_discounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fee_payment_item_share_discounts(array_agg(rid), array_agg(payment_id))
  FROM (SELECT DISTINCT rid, payment_id FROM new_items) k;
  RETURN NULL;
END $$;
CREATE TRIGGER fee_payment_items_discount AFTER INSERT ON fee_payment_items
  REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION fee_payment_item_discounts();

SELECT fee_payment_item_share_discounts(array_agg(rid), array_agg(id)) FROM fee_payments WHERE discount > 0;

-- The waiting list: lines of bills (not a stay's at the gate), not refunded, not deposits, with
-- something left to invoice.
CREATE INDEX fee_payment_items_invoiceable ON fee_payment_items (rid, id)
  WHERE refunded = 'N' AND bill_id IS NOT NULL AND cost_type <> 'deposit' AND fee + late_fee - discount - invoiced > 0;
-- 收费统计's 已开票: the lines invoices cover, by period
CREATE INDEX fee_payment_items_invoiced ON fee_payment_items (rid, period) INCLUDE (bill_id, payment_id, invoiced) WHERE invoiced > 0;

-- 开票设置: one row per community
CREATE TABLE invoice_settings (
  rid             int PRIMARY KEY REFERENCES regions(id),
  seller_name     text NOT NULL,
  seller_tax_no   text NOT NULL,
  seller_address  text NOT NULL DEFAULT '',
  seller_phone    text NOT NULL DEFAULT '',
  seller_bank     text NOT NULL DEFAULT '',
  seller_account  text NOT NULL DEFAULT '',
  taxpayer_kind   text NOT NULL DEFAULT 'general' CHECK (taxpayer_kind IN ('general', 'small')),
  default_kind    char(1) NOT NULL DEFAULT 'p' CHECK (default_kind IN ('p', 's')),
  payee           text NOT NULL DEFAULT '',
  checker         text NOT NULL DEFAULT '',
  clerk           text NOT NULL DEFAULT '',
  auto_issue      char(1) NOT NULL DEFAULT 'N' CHECK (auto_issue IN ('Y', 'N')),
  merge_rule      text NOT NULL DEFAULT 'payment' CHECK (merge_rule IN ('payment', 'owner_month')),
  allow_future    char(1) NOT NULL DEFAULT 'N' CHECK (allow_future IN ('Y', 'N')),
  push_default    text NOT NULL DEFAULT 'none' CHECK (push_default IN ('none', 'email', 'sms')),
  provider        text NOT NULL DEFAULT 'sandbox' CHECK (provider IN ('sandbox')),
  app_key         text NOT NULL DEFAULT '',
  -- sealed with lib/secrets.ts; only the last four characters are ever shown
  secret_blob     text,
  secret_last4    text NOT NULL DEFAULT '',
  sandbox_mode    text NOT NULL DEFAULT 'ok' CHECK (sandbox_mode IN ('ok', 'fail')),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      bigint,
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint
);

-- a fee item as invoices name it; an item without one cannot be invoiced
CREATE TABLE invoice_item_maps (
  rid           int NOT NULL,
  item_id       bigint NOT NULL,
  goods_name    text NOT NULL,
  tax_code      text NOT NULL CHECK (tax_code ~ '^[0-9]{19}$'),
  -- percent
  rate          numeric(5,2) NOT NULL CHECK (rate >= 0 AND rate < 100),
  tax_included  char(1) NOT NULL DEFAULT 'Y' CHECK (tax_included IN ('Y', 'N')),
  special       text NOT NULL DEFAULT 'none' CHECK (special IN ('none', 'simple', 'diff', 'exempt')),
  unit          text NOT NULL DEFAULT '',
  updated_at    timestamptz NOT NULL DEFAULT now(),
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, item_id),
  FOREIGN KEY (rid, item_id) REFERENCES fee_items (rid, id) ON DELETE CASCADE
);

-- owners' invoice titles (抬头)
CREATE TABLE invoice_titles (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  hid            bigint NOT NULL,
  member_id      bigint NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('person', 'company')),
  title          text NOT NULL,
  tax_no         text NOT NULL DEFAULT '',
  address_phone  text NOT NULL DEFAULT '',
  bank_account   text NOT NULL DEFAULT '',
  email          text NOT NULL DEFAULT '',
  mobile         text NOT NULL DEFAULT '',
  is_default     char(1) NOT NULL DEFAULT 'N' CHECK (is_default IN ('Y', 'N')),
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  CHECK (kind = 'person' OR tax_no <> '')
);
CREATE INDEX invoice_titles_member ON invoice_titles (rid, member_id);
-- one default title per owner
CREATE UNIQUE INDEX invoice_titles_default ON invoice_titles (rid, member_id) WHERE is_default = 'Y';

-- applications for an owner (开票申请), reviewed by finance
CREATE TABLE invoice_applications (
  rid                  int NOT NULL REFERENCES regions(id),
  id                   bigserial,
  hid                  bigint NOT NULL,
  member_id            bigint NOT NULL,
  buyer_kind           text NOT NULL CHECK (buyer_kind IN ('person', 'company')),
  buyer_title          text NOT NULL,
  buyer_tax_no         text NOT NULL DEFAULT '',
  buyer_address_phone  text NOT NULL DEFAULT '',
  buyer_bank_account   text NOT NULL DEFAULT '',
  buyer_email          text NOT NULL DEFAULT '',
  buyer_mobile         text NOT NULL DEFAULT '',
  kind                 char(1) NOT NULL DEFAULT 'p' CHECK (kind IN ('p', 's')),
  -- [{ id: receipt line, amount }]
  lines                jsonb NOT NULL,
  amount               numeric(14,2) NOT NULL CHECK (amount > 0),
  -- W waiting | Y issued | N rejected
  status               char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'Y', 'N')),
  remark               text NOT NULL DEFAULT '',
  applicant            text NOT NULL DEFAULT '',
  invoice_ids          bigint[] NOT NULL DEFAULT '{}',
  reviewer             text NOT NULL DEFAULT '',
  review_remark        text NOT NULL DEFAULT '',
  reviewed_at          timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  created_by           bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX invoice_applications_status ON invoice_applications (rid, status, id);

CREATE TABLE invoices (
  rid                  int NOT NULL REFERENCES regions(id),
  id                   bigserial,
  -- our order number, given to the provider (it finds the invoice by it after a crash)
  serial               text NOT NULL,
  -- the provider's number (数电: 20 digits), '' until issued
  invoice_no           text NOT NULL DEFAULT '',
  kind                 char(1) NOT NULL CHECK (kind IN ('p', 's')),
  -- B blue | R red
  color                char(1) NOT NULL CHECK (color IN ('B', 'R')),
  blue_id              bigint,
  -- W issuing | Y issued | F failed | P partly reversed | R reversed
  status               char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'Y', 'F', 'P', 'R')),
  member_id            bigint,
  buyer_kind           text NOT NULL CHECK (buyer_kind IN ('person', 'company')),
  buyer_title          text NOT NULL,
  buyer_tax_no         text NOT NULL DEFAULT '',
  buyer_address_phone  text NOT NULL DEFAULT '',
  buyer_bank_account   text NOT NULL DEFAULT '',
  buyer_email          text NOT NULL DEFAULT '',
  buyer_mobile         text NOT NULL DEFAULT '',
  seller_name          text NOT NULL,
  seller_tax_no        text NOT NULL,
  -- tax included; negative on a red invoice
  amount               numeric(14,2) NOT NULL,
  ex_tax               numeric(14,2) NOT NULL,
  tax                  numeric(14,2) NOT NULL,
  -- of a blue invoice: what red invoices (issuing or issued) take back
  reversed             numeric(14,2) NOT NULL DEFAULT 0 CHECK (reversed >= 0),
  red_reason           text NOT NULL DEFAULT '',
  push                 text NOT NULL DEFAULT 'none' CHECK (push IN ('none', 'email', 'sms')),
  message              text NOT NULL DEFAULT '',
  remark               text NOT NULL DEFAULT '',
  application_id       bigint,
  pdf                  bytea,
  attempts             int NOT NULL DEFAULT 0,
  issued_at            timestamptz,
  issuer               text NOT NULL DEFAULT '',
  created_at           timestamptz NOT NULL DEFAULT now(),
  created_by           bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, serial),
  FOREIGN KEY (rid, blue_id) REFERENCES invoices (rid, id),
  CHECK ((color = 'B') = (blue_id IS NULL)),
  CHECK (reversed <= amount OR color = 'R')
);
CREATE INDEX invoices_time ON invoices (rid, created_at);
CREATE INDEX invoices_status ON invoices (rid, status, id);
CREATE INDEX invoices_blue ON invoices (rid, blue_id) WHERE blue_id IS NOT NULL;

CREATE TABLE invoice_lines (
  rid              int NOT NULL,
  id               bigserial,
  invoice_id       bigint NOT NULL,
  payment_item_id  bigint NOT NULL,
  payment_id       bigint NOT NULL,
  hid              bigint NOT NULL,
  item_id          bigint NOT NULL,
  goods_name       text NOT NULL,
  tax_code         text NOT NULL,
  rate             numeric(5,2) NOT NULL,
  tax_included     char(1) NOT NULL DEFAULT 'Y',
  special          text NOT NULL DEFAULT 'none',
  unit             text NOT NULL DEFAULT '',
  -- tax included, after the discount; negative on a red invoice
  amount           numeric(14,2) NOT NULL,
  -- the discount shown as a discount line (coupons, points, approved discounts)
  discount         numeric(14,2) NOT NULL DEFAULT 0,
  ex_tax           numeric(14,2) NOT NULL,
  tax              numeric(14,2) NOT NULL,
  -- of a blue line: what red lines (issuing or issued) take back
  reversed         numeric(14,2) NOT NULL DEFAULT 0 CHECK (reversed >= 0),
  blue_line_id     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, invoice_id) REFERENCES invoices (rid, id),
  FOREIGN KEY (rid, payment_item_id) REFERENCES fee_payment_items (rid, id),
  FOREIGN KEY (rid, blue_line_id) REFERENCES invoice_lines (rid, id),
  CHECK (reversed <= amount OR blue_line_id IS NOT NULL)
);
CREATE INDEX invoice_lines_invoice ON invoice_lines (rid, invoice_id);
CREATE INDEX invoice_lines_item ON invoice_lines (rid, payment_item_id);
CREATE INDEX invoice_lines_payment ON invoice_lines (rid, payment_id);

-- pushes of an issued invoice to the buyer (email or SMS)
CREATE TABLE invoice_pushes (
  rid         int NOT NULL,
  id          bigserial,
  invoice_id  bigint NOT NULL,
  channel     text NOT NULL CHECK (channel IN ('email', 'sms')),
  target      text NOT NULL,
  status      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  created_by_name text NOT NULL DEFAULT '',
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, invoice_id) REFERENCES invoices (rid, id)
);
CREATE INDEX invoice_pushes_invoice ON invoice_pushes (rid, invoice_id);

-- the sandbox invoice platform's own records (modules/invoice/provider.ts): what it issued, by our serial
CREATE TABLE invoice_sandbox_issued (
  serial      text PRIMARY KEY,
  invoice_no  text NOT NULL UNIQUE,
  total       numeric(14,2) NOT NULL,
  pdf         bytea NOT NULL,
  issued_at   timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE invoice_sandbox_numbers;
-- the sandbox's outbox of pushed invoices (emails and SMS it pretends to send)
CREATE TABLE invoice_sandbox_outbox (
  id          bigserial PRIMARY KEY,
  channel     text NOT NULL,
  target      text NOT NULL,
  invoice_no  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
