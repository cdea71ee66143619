-- 成本登记 (docs/product.md#costs; modules/fees/costs.ts): the community's cost items as a two-level
-- tree (categories such as 人工成本, the items under them) and the costs paid against an item. A
-- voided cost stays listed with its reason and counts in no sum (成本统计 reads the registered ones).
CREATE TABLE cost_items (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  -- null: a category; else the category the item is under (two levels at most, checked by the methods)
  parent_id   bigint,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 20),
  sort        int NOT NULL DEFAULT 0 CHECK (sort BETWEEN 0 AND 9999),
  -- Y 启用 | N 停用 (not offered for new costs)
  status      char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, parent_id) REFERENCES cost_items (rid, id),
  CHECK (parent_id IS NULL OR parent_id <> id)
);
-- a name once among its siblings (the categories' too)
CREATE UNIQUE INDEX cost_items_name ON cost_items (rid, coalesce(parent_id, 0), name);
CREATE INDEX cost_items_parent ON cost_items (rid, parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE cost_records (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  pay_date     date NOT NULL,
  -- an item under a category (never a category itself)
  item_id      bigint NOT NULL,
  amount       numeric(14, 2) NOT NULL CHECK (amount > 0),
  payee        text NOT NULL CHECK (length(payee) BETWEEN 1 AND 60),
  pay_method   text NOT NULL CHECK (pay_method IN ('transfer', 'cash', 'check', 'other')),
  -- the staff member who paid it (a name; the registering account's when not given)
  handler      text NOT NULL DEFAULT '',
  invoice_no   text NOT NULL DEFAULT '',
  -- uploaded images' addresses (imageupload): receipts, invoices, contracts
  attachments  text[] NOT NULL DEFAULT '{}' CHECK (cardinality(attachments) <= 9),
  remark       text NOT NULL DEFAULT '',
  -- Y 已登记 | X 已作废 (with its reason, when and by whom)
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'X')),
  void_reason  text NOT NULL DEFAULT '',
  voided_at    timestamptz,
  voided_by    bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, item_id) REFERENCES cost_items (rid, id),
  CHECK ((status = 'X') = (voided_at IS NOT NULL))
);
-- the list, newest payment first, and its date range
CREATE INDEX cost_records_date ON cost_records (rid, pay_date, id);
-- an item's costs (the item filter, a category's items, the delete check)
CREATE INDEX cost_records_item ON cost_records (rid, item_id, pay_date);
-- 成本统计 groups two years of registered costs by item and month from this index alone
CREATE INDEX cost_records_count ON cost_records (rid, pay_date, item_id) INCLUDE (amount) WHERE status = 'Y';
