-- Room-sales and other contracts (modules/crm/contracts*.ts; docs/product.md#crm-contracts): the
-- contract types with their numbering and custom fields, the contracts with their units, payment
-- plan, attachments and change requests, the settings, the units' sale state and list prices.
-- A contract's audit trail is workflow_logs (flows 'contract' and 'contractchange').

-- The community's contract settings (one row; absent: the defaults)
CREATE TABLE contract_settings (
  rid               int PRIMARY KEY REFERENCES regions(id),
  -- an instalment gets its fee bill this many days before it falls due
  bill_days_ahead   int NOT NULL DEFAULT 7 CHECK (bill_days_ahead BETWEEN 0 AND 90),
  -- a contract is 即将到期 this many days before its end (xzroomsales lists it)
  expiring_days     int NOT NULL DEFAULT 30 CHECK (expiring_days BETWEEN 1 AND 365),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  updated_by        bigint
);

CREATE TABLE contract_types (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  name         text NOT NULL,
  -- sale 房屋买卖 | lease 房屋租赁 | parking 车位 | other 其他
  kind         text NOT NULL CHECK (kind IN ('sale', 'lease', 'parking', 'other')),
  -- numbering: prefix + date (date_format) + a sequence of seq_len digits, per type and stem
  prefix       text NOT NULL CHECK (prefix ~ '^[A-Za-z0-9-]{1,10}$'),
  date_format  text NOT NULL DEFAULT 'YYYYMMDD' CHECK (date_format IN ('YYYYMMDD', 'YYYYMM', 'YYYY', 'none')),
  seq_len      int NOT NULL DEFAULT 3 CHECK (seq_len BETWEEN 2 AND 6),
  need_audit   char(1) NOT NULL DEFAULT 'Y' CHECK (need_audit IN ('Y', 'N')),
  -- the custom fields the form shows for the type: [{ key, label, type, required, options }]
  fields       jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(fields) = 'array'),
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  sort         int NOT NULL DEFAULT 0,
  remark       text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, name)
);

-- the last sequence given per type and stem (prefix + date): numbers are never given twice
CREATE TABLE contract_number_seqs (
  rid       int NOT NULL,
  type_id   bigint NOT NULL,
  stem      text NOT NULL,
  last_no   int NOT NULL,
  PRIMARY KEY (rid, type_id, stem),
  FOREIGN KEY (rid, type_id) REFERENCES contract_types (rid, id) ON DELETE CASCADE
);

CREATE TABLE contracts (
  rid             int NOT NULL REFERENCES regions(id),
  id              bigserial,
  contract_no     text NOT NULL CHECK (length(contract_no) BETWEEN 1 AND 40),
  type_id         bigint NOT NULL,
  -- the type's kind when the contract was made
  kind            text NOT NULL CHECK (kind IN ('sale', 'lease', 'parking', 'other')),
  name            text NOT NULL,
  -- D 草稿 | A 审批中 | Y 生效 | E 到期 | R 已续签 | T 终止 | V 作废
  status          char(1) NOT NULL DEFAULT 'D' CHECK (status IN ('D', 'A', 'Y', 'E', 'R', 'T', 'V')),
  -- party B (乙方): a customer or an owner
  party_name      text NOT NULL,
  party_mobile    text NOT NULL DEFAULT '',
  party_id_card   text NOT NULL DEFAULT '',
  -- the owner the party is (picked from the room's people, or found by the mobile once signed)
  member_id       bigint,
  total_amount    numeric(14,2) NOT NULL CHECK (total_amount >= 0),
  sign_date       date NOT NULL,
  start_date      date NOT NULL,
  end_date        date CHECK (end_date IS NULL OR end_date >= start_date),
  custom          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom) = 'object'),
  remark          text NOT NULL DEFAULT '',
  -- a renewal's contract (xzroomsales)
  parent_id       bigint,
  submitted_by    bigint,
  submitted_at    timestamptz,
  approved_by     bigint,
  approved_at     timestamptz,
  end_reason      text NOT NULL DEFAULT '',
  ended_on        date,
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, contract_no),
  FOREIGN KEY (rid, type_id) REFERENCES contract_types (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, parent_id) REFERENCES contracts (rid, id)
);
CREATE INDEX contracts_status ON contracts (rid, status, id);
CREATE INDEX contracts_kind ON contracts (rid, kind, id);
CREATE INDEX contracts_type ON contracts (rid, type_id, id);
CREATE INDEX contracts_parent ON contracts (rid, parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX contracts_sign_date ON contracts (rid, sign_date, id);
CREATE INDEX contracts_end_date ON contracts (rid, end_date) WHERE status IN ('Y', 'E');
CREATE INDEX contracts_party_mobile ON contracts (rid, party_mobile);

-- the rooms and parking spaces of a contract, each with its area and price
CREATE TABLE contract_units (
  rid          int NOT NULL,
  id           bigserial,
  contract_id  bigint NOT NULL,
  unit_kind    text NOT NULL CHECK (unit_kind IN ('room', 'space')),
  hid          bigint,
  space_id     bigint,
  area         numeric(12,2) NOT NULL DEFAULT 0 CHECK (area >= 0),
  price        numeric(14,2) NOT NULL CHECK (price >= 0),
  sort         int NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  CHECK ((unit_kind = 'room' AND hid IS NOT NULL AND space_id IS NULL) OR (unit_kind = 'space' AND space_id IS NOT NULL AND hid IS NULL)),
  FOREIGN KEY (rid, contract_id) REFERENCES contracts (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, space_id) REFERENCES parking_spaces (rid, id)
);
CREATE INDEX contract_units_contract ON contract_units (rid, contract_id, sort, id);
CREATE INDEX contract_units_room ON contract_units (rid, hid) WHERE hid IS NOT NULL;
CREATE INDEX contract_units_space ON contract_units (rid, space_id) WHERE space_id IS NOT NULL;

-- the payment plan: instalments that become fee bills on the contract's room as they fall due
CREATE TABLE contract_instalments (
  rid          int NOT NULL,
  id           bigserial,
  contract_id  bigint NOT NULL,
  seq          int NOT NULL CHECK (seq >= 1),
  -- 定金 | 首付 | 按揭 | 尾款 | 其他
  name         text NOT NULL CHECK (name IN ('定金', '首付', '按揭', '尾款', '其他')),
  amount       numeric(14,2) NOT NULL CHECK (amount > 0),
  due_date     date NOT NULL,
  -- the bill made for it (contract_instalments job); never made twice
  bill_id      bigint,
  billed_at    timestamptz,
  -- why the job made no bill (the room has one of that item and month already)
  bill_note    text NOT NULL DEFAULT '',
  -- set by the bill-paid listener; cleared when a refund reopens the bill
  paid_at      timestamptz,
  receipt_no   text NOT NULL DEFAULT '',
  -- a refund of the paid instalment approved after the contract ended (the bill stays closed)
  refunded     char(1) NOT NULL DEFAULT 'N' CHECK (refunded IN ('Y', 'N')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, contract_id, seq),
  FOREIGN KEY (rid, contract_id) REFERENCES contracts (rid, id)
);
CREATE INDEX contract_instalments_due ON contract_instalments (rid, due_date) WHERE bill_id IS NULL;
CREATE UNIQUE INDEX contract_instalments_bill ON contract_instalments (rid, bill_id) WHERE bill_id IS NOT NULL;

-- changes after approval (amounts, plan, dates, parties): applied only once approved
CREATE TABLE contract_changes (
  rid          int NOT NULL,
  id           bigserial,
  contract_id  bigint NOT NULL,
  -- A 审批中 | Y 已通过 | N 已退回
  status       char(1) NOT NULL DEFAULT 'A' CHECK (status IN ('A', 'Y', 'N')),
  reason       text NOT NULL,
  -- the changed values and the values they replace
  before       jsonb NOT NULL,
  after        jsonb NOT NULL,
  decided_by   bigint,
  decided_at   timestamptz,
  opinion      text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, contract_id) REFERENCES contracts (rid, id)
);
CREATE INDEX contract_changes_contract ON contract_changes (rid, contract_id, id);
CREATE INDEX contract_changes_status ON contract_changes (rid, status, id);
-- one change waiting at a time
CREATE UNIQUE INDEX contract_changes_pending ON contract_changes (rid, contract_id) WHERE status = 'A';

-- scans and photos of a contract (the images are uploaded_images, served at /files/<id>/<key>)
CREATE TABLE contract_files (
  rid          int NOT NULL,
  id           bigserial,
  contract_id  bigint NOT NULL,
  image_id     bigint NOT NULL REFERENCES uploaded_images(id),
  url          text NOT NULL,
  name         text NOT NULL,
  category     text NOT NULL CHECK (category IN ('签字页', '身份证', '房产证', '付款凭证', '现场照片', '其他')),
  caption      text NOT NULL DEFAULT '',
  size         int NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, contract_id) REFERENCES contracts (rid, id)
);
CREATE INDEX contract_files_contract ON contract_files (rid, contract_id, id);
CREATE INDEX contract_files_category ON contract_files (rid, category, id);

-- each unit's sale state, kept from its contracts (modules/crm/contractsUnits.ts syncUnitStates):
-- none is 可售; the live contract that holds it (草稿 已预订, 审批中 已认购, 生效 已签约 or 已出租)
CREATE TABLE contract_unit_states (
  rid          int NOT NULL,
  unit_kind    text NOT NULL CHECK (unit_kind IN ('room', 'space')),
  unit_id      bigint NOT NULL,
  state        text NOT NULL CHECK (state IN ('reserved', 'subscribed', 'signed', 'rented')),
  contract_id  bigint NOT NULL,
  price        numeric(14,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (rid, unit_kind, unit_id),
  FOREIGN KEY (rid, contract_id) REFERENCES contracts (rid, id)
);
CREATE INDEX contract_unit_states_state ON contract_unit_states (rid, state, unit_kind, unit_id);
CREATE INDEX contract_unit_states_contract ON contract_unit_states (rid, contract_id);

-- the list price of a unit (挂牌价) the sales table shows for a unit not signed
CREATE TABLE contract_unit_prices (
  rid          int NOT NULL,
  id           bigserial,
  unit_kind    text NOT NULL CHECK (unit_kind IN ('room', 'space')),
  unit_id      bigint NOT NULL,
  price        numeric(14,2) NOT NULL CHECK (price >= 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, unit_kind, unit_id)
);
