-- Tenant leases (租赁合同 /crm: leaselist … signout; modules/crm/leases*.ts; docs/product.md#crm-leases):
-- the lease defaults of a community, the leases with their rooms, the bills made of their schedules
-- (the key that keeps a period from being billed twice), the check-out settlements, and the rooms
-- marked rentable by hand for the occupancy report.

CREATE TABLE lease_settings (
  rid              int PRIMARY KEY REFERENCES regions(id),
  number_prefix    text NOT NULL DEFAULT 'ZL' CHECK (number_prefix ~ '^[A-Z0-9-]{1,10}$'),
  -- the sequence of the next lease's number (prefix + at least five digits)
  next_seq         int NOT NULL DEFAULT 1 CHECK (next_seq >= 1),
  -- a lease in force ending within this many days becomes 即将到期
  expiring_days    int NOT NULL DEFAULT 60 CHECK (expiring_days BETWEEN 1 AND 365),
  -- the form's default deposit: months of the first rent
  deposit_months   int NOT NULL DEFAULT 2 CHECK (deposit_months BETWEEN 0 AND 12),
  -- the form's default: each period billed this many days before it starts
  bill_ahead_days  int NOT NULL DEFAULT 15 CHECK (bill_ahead_days BETWEEN 0 AND 90),
  cycle_months     int NOT NULL DEFAULT 1 CHECK (cycle_months IN (1, 3, 6, 12)),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint
);

CREATE TABLE leases (
  rid               int NOT NULL REFERENCES regions(id),
  id                bigserial,
  lease_no          text NOT NULL,
  -- P person | C company
  tenant_kind       char(1) NOT NULL CHECK (tenant_kind IN ('P', 'C')),
  tenant_name       text NOT NULL CHECK (length(tenant_name) BETWEEN 1 AND 60),
  contact           text NOT NULL DEFAULT '',
  mobile            text NOT NULL,
  -- a person's ID number or a company's credit code
  id_card           text NOT NULL DEFAULT '',
  -- the resident who holds the rooms as their tenant (picked, or found or made at activation)
  member_id         bigint,
  start_date        date NOT NULL,
  end_date          date NOT NULL,
  -- M monthly rent | A price per m² a month × the rooms' area
  rent_mode         char(1) NOT NULL CHECK (rent_mode IN ('M', 'A')),
  rent_price        numeric(14,2) NOT NULL CHECK (rent_price > 0),
  rent_area         numeric(14,2) NOT NULL DEFAULT 0 CHECK (rent_area >= 0),
  monthly_rent      numeric(14,2) NOT NULL CHECK (monthly_rent > 0),
  deposit           numeric(14,2) NOT NULL DEFAULT 0 CHECK (deposit >= 0),
  cycle_months      int NOT NULL CHECK (cycle_months IN (1, 3, 6, 12)),
  bill_ahead_days   int NOT NULL CHECK (bill_ahead_days BETWEEN 0 AND 90),
  -- [{start, end}]: rent-free days
  free_periods      jsonb NOT NULL DEFAULT '[]',
  escalation_kind   text NOT NULL DEFAULT 'none' CHECK (escalation_kind IN ('none', 'amount', 'percent')),
  escalation_value  numeric(14,2) NOT NULL DEFAULT 0 CHECK (escalation_value >= 0),
  escalation_years  int NOT NULL DEFAULT 1 CHECK (escalation_years BETWEEN 1 AND 10),
  -- [{name, monthly}]: other recurring charges
  charges           jsonb NOT NULL DEFAULT '[]',
  -- the schedule's total (rent and charges) for the term
  total_amount      numeric(14,2) NOT NULL DEFAULT 0,
  -- N 草稿 | P 审批中 | Y 已通过 | B 已退回
  approval_status   char(1) NOT NULL DEFAULT 'N' CHECK (approval_status IN ('N', 'P', 'Y', 'B')),
  -- D 未生效 | Y 生效 | X 即将到期 | O 已到期 | R 已续租 | F 已结束 | C 已作废
  status            char(1) NOT NULL DEFAULT 'D' CHECK (status IN ('D', 'Y', 'X', 'O', 'R', 'F', 'C')),
  renew_of          bigint,
  -- the deposit's bill (a renewal carries its old lease's)
  deposit_bill_id   bigint,
  deposit_kept      numeric(14,2) NOT NULL DEFAULT 0 CHECK (deposit_kept >= 0),
  submitted_by      bigint,
  approver          text NOT NULL DEFAULT '',
  approve_remark    text NOT NULL DEFAULT '',
  approved_at       timestamptz,
  -- the next day a period's bills are due to be made (null: nothing left to bill)
  next_bill_date    date,
  -- the day a check-out ended it
  ended_on          date,
  remark            text NOT NULL DEFAULT '',
  creator           text NOT NULL DEFAULT '',
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by        bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lease_no),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, renew_of) REFERENCES leases (rid, id),
  FOREIGN KEY (rid, deposit_bill_id) REFERENCES fee_bills (rid, id),
  CHECK (end_date >= start_date),
  -- a lease in force has been approved; one not approved is a draft or void
  CHECK ((approval_status = 'Y') = (status NOT IN ('D', 'C')))
);
CREATE INDEX leases_status ON leases (rid, status, id);
CREATE INDEX leases_approval ON leases (rid, approval_status, id);
CREATE INDEX leases_end ON leases (rid, end_date) WHERE status IN ('Y', 'X', 'O', 'R');
CREATE INDEX leases_creator ON leases (rid, created_by, id);
CREATE INDEX leases_next_bill ON leases (next_bill_date) WHERE next_bill_date IS NOT NULL;
CREATE INDEX leases_renew_of ON leases (rid, renew_of) WHERE renew_of IS NOT NULL;
CREATE INDEX leases_mobile ON leases (rid, mobile);

CREATE TABLE lease_rooms (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  lease_id    bigint NOT NULL,
  hid         bigint NOT NULL,
  -- the first room carries the lease's bills
  sort        int NOT NULL DEFAULT 0,
  -- the room's built area when the lease was saved
  area        numeric(14,2) NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lease_id, hid),
  FOREIGN KEY (rid, lease_id) REFERENCES leases (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
CREATE INDEX lease_rooms_room ON lease_rooms (rid, hid, lease_id);

-- every bill a lease made: a period's rent or charge, the deposit, a check-out's damages and penalties
CREATE TABLE lease_bills (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  lease_id    bigint NOT NULL,
  -- the schedule's period (0: the deposit and the check-out's lines)
  seq         int NOT NULL CHECK (seq >= 0),
  kind        text NOT NULL CHECK (kind IN ('rent', 'charge', 'deposit', 'damage', 'penalty')),
  -- the charge's name (物业费), '' for the other kinds
  name        text NOT NULL DEFAULT '',
  bill_id     bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lease_id, seq, kind, name),
  UNIQUE (rid, bill_id),
  FOREIGN KEY (rid, lease_id) REFERENCES leases (rid, id),
  FOREIGN KEY (rid, bill_id) REFERENCES fee_bills (rid, id)
);

-- a check-out: what was settled, as confirmed (the settlement page's sums)
CREATE TABLE lease_signouts (
  rid           int NOT NULL REFERENCES regions(id),
  id            bigserial,
  lease_id      bigint NOT NULL,
  -- N 正常 | E 提前 | O 逾期 | T 其他
  kind          char(1) NOT NULL CHECK (kind IN ('N', 'E', 'O', 'T')),
  signout_date  date NOT NULL,
  deposit_kept  numeric(14,2) NOT NULL DEFAULT 0 CHECK (deposit_kept >= 0),
  deposit_refund numeric(14,2) NOT NULL DEFAULT 0 CHECK (deposit_refund >= 0),
  settlement    jsonb NOT NULL,
  refund_ids    bigint[] NOT NULL DEFAULT '{}',
  operator      text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lease_id),
  FOREIGN KEY (rid, lease_id) REFERENCES leases (rid, id)
);

-- rooms marked rentable by hand (the occupancy report counts them with every room ever leased)
CREATE TABLE lease_rentable_rooms (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  hid         bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, hid),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
