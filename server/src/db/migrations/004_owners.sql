-- Owners: people living in rooms, their cars and parking spaces, and the records the owner
-- drawer's tabs read (points and balance ledgers, parking in/out, visitors, activity
-- sign-ups, access records, face permissions). Every table is keyed by (rid, id).

-- Every fragment of a name (1 to 11 characters, the search box's limit), prefixed with the
-- community, so "any part of a name" is an exact GIN lookup. pg_trgm does not serve Chinese
-- names: they are 2-3 characters and a 1-2 character fragment has no trigram to look up.
CREATE FUNCTION member_name_keys(r int, name text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT r::text || ':' || substr(lower(name), s, l)), '{}')
  FROM generate_series(1, char_length(name)) AS s, generate_series(1, 11) AS l
  WHERE s + l - 1 <= char_length(name)
$$;

CREATE TABLE members (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  realname         text NOT NULL CHECK (char_length(realname) BETWEEN 1 AND 30),
  mobile           text NOT NULL CHECK (mobile ~ '^1[3-9][0-9]{9}$'),
  id_card          text NOT NULL DEFAULT '',
  -- M male | F female | '' unknown
  gender           text NOT NULL DEFAULT '' CHECK (gender IN ('', 'M', 'F')),
  avatar           text NOT NULL DEFAULT '',
  wx_isbind        text NOT NULL DEFAULT 'N' CHECK (wx_isbind IN ('Y', 'N')),
  app_isbind       text NOT NULL DEFAULT 'N' CHECK (app_isbind IN ('Y', 'N')),
  -- owner_balance: prepaid money; the cashier tops it up and pays from it (balance_ledger)
  balance          numeric(14,2) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  -- owner_bonus: points (bonus_ledger)
  bonus            int NOT NULL DEFAULT 0 CHECK (bonus >= 0),
  remark           text NOT NULL DEFAULT '',
  last_login_time  timestamptz,
  create_time      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
-- one person per mobile in a community; text_pattern_ops also serves mobile-prefix LIKE 'x%'
CREATE UNIQUE INDEX members_mobile ON members (rid, mobile text_pattern_ops);
CREATE INDEX members_name_keys ON members USING gin (member_name_keys(rid, realname));

-- a person in a room: owner, family member or tenant; moving out keeps the row as history
CREATE TABLE room_members (
  rid            int NOT NULL,
  id             bigserial,
  hid            bigint NOT NULL,
  member_id      bigint NOT NULL,
  relation       text NOT NULL CHECK (relation IN ('owner', 'family', 'tenant')),
  move_in_date   date,
  move_out_date  date,
  -- Y living there | N moved out
  status         text NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  create_time    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  CHECK ((status = 'Y') = (move_out_date IS NULL))
);
CREATE UNIQUE INDEX room_members_current ON room_members (rid, hid, member_id) WHERE status = 'Y';
CREATE INDEX room_members_hid ON room_members (rid, hid);
CREATE INDEX room_members_member ON room_members (rid, member_id);

CREATE TABLE cars (
  rid          int NOT NULL,
  id           bigserial,
  hid          bigint NOT NULL,
  member_id    bigint,
  -- stored without the middle dot: 沪A12345, 沪AD12345
  carlicense   text NOT NULL,
  -- small | large | new_energy
  car_type     text NOT NULL DEFAULT 'small' CHECK (car_type IN ('small', 'large', 'new_energy')),
  color        text NOT NULL DEFAULT '',
  brand        text NOT NULL DEFAULT '',
  -- Y in use | N disabled
  status       text NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, carlicense),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX cars_hid ON cars (rid, hid);
CREATE INDEX cars_member ON cars (rid, member_id);

CREATE TABLE parking_lots (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  title        text NOT NULL,
  address      text NOT NULL DEFAULT '',
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title)
);

CREATE TABLE parking_spaces (
  rid          int NOT NULL,
  id           bigserial,
  lot_id       bigint NOT NULL,
  title        text NOT NULL,
  hid          bigint,
  member_id    bigint,
  carlicense   text NOT NULL DEFAULT '',
  -- idle | sold | rented
  status       text NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'sold', 'rented')),
  start_date   date,
  end_date     date,
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lot_id, title),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX parking_spaces_hid ON parking_spaces (rid, hid);

CREATE TABLE parking_records (
  rid          int NOT NULL,
  id           bigserial,
  lot_id       bigint NOT NULL,
  carno        text NOT NULL,
  inlane       text NOT NULL DEFAULT '',
  intime       timestamptz NOT NULL,
  outlane      text NOT NULL DEFAULT '',
  outtime      timestamptz,
  total_fee    numeric(14,2) NOT NULL DEFAULT 0 CHECK (total_fee >= 0),
  pay_fee      numeric(14,2) NOT NULL DEFAULT 0 CHECK (pay_fee >= 0),
  -- 月租车 / 临时车 / 业主车 ...: as the barrier system reports it
  car_type     text NOT NULL DEFAULT '',
  reason       text NOT NULL DEFAULT '',
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id)
);
CREATE INDEX parking_records_carno ON parking_records (rid, carno, intime);

-- stores taking member points and balance (消费门店)
CREATE TABLE merchants (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  merchant     text NOT NULL,
  mobile       text NOT NULL DEFAULT '',
  status       text NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, merchant)
);

-- points changes (num > 0 earned, < 0 spent)
CREATE TABLE bonus_ledger (
  rid          int NOT NULL,
  id           bigserial,
  member_id    bigint NOT NULL,
  merchant_id  bigint,
  orderid      text NOT NULL DEFAULT '',
  -- card name, card number, the user's card number
  name         text NOT NULL DEFAULT '',
  code         text NOT NULL DEFAULT '',
  user_code    text NOT NULL DEFAULT '',
  num          int NOT NULL,
  -- change method (消费赠送, 积分抵扣...), change type (增加/减少), channel (收银台, 小程序...)
  pay_cate     text NOT NULL DEFAULT '',
  cate         text NOT NULL DEFAULT '',
  source       text NOT NULL DEFAULT '',
  action_user  text NOT NULL DEFAULT '',
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, merchant_id) REFERENCES merchants (rid, id)
);
CREATE INDEX bonus_ledger_member ON bonus_ledger (rid, member_id);

-- balance movements: io_type 1 income (top-up, refund to balance), 2 consumption
CREATE TABLE balance_ledger (
  rid          int NOT NULL,
  id           bigserial,
  member_id    bigint NOT NULL,
  hid          bigint,
  merchant_id  bigint,
  orderid      text NOT NULL DEFAULT '',
  io_type      smallint NOT NULL CHECK (io_type IN (1, 2)),
  -- what it was for: recharge | property | parking | water | electricity | gas | shop | refund | a cost type
  feetype      text NOT NULL DEFAULT '',
  -- cash | wechat | alipay | bankcard | transfer | balance
  paytype      text NOT NULL DEFAULT '',
  total_fee    numeric(14,2) NOT NULL CHECK (total_fee >= 0),
  -- Y paid | N unpaid
  status       text NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  create_user  text NOT NULL DEFAULT '',
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, merchant_id) REFERENCES merchants (rid, id)
);
CREATE INDEX balance_ledger_member ON balance_ledger (rid, member_id, io_type);
CREATE INDEX balance_ledger_hid ON balance_ledger (rid, hid);

-- visitor applications; status '' pending, Y approved, D visited, C cancelled, 3 refused
CREATE TABLE visitors (
  rid          int NOT NULL,
  id           bigserial,
  hid          bigint NOT NULL,
  member_id    bigint,
  realname     text NOT NULL,
  mobile       text NOT NULL DEFAULT '',
  visit_cause  text NOT NULL DEFAULT '',
  status       text NOT NULL DEFAULT '' CHECK (status IN ('', 'Y', 'D', 'C', '3')),
  visit_time   timestamptz NOT NULL,
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX visitors_hid ON visitors (rid, hid);

-- community activities; status Y open for sign-up, N ended, E not yet open
CREATE TABLE activities (
  rid               int NOT NULL REFERENCES regions(id),
  id                bigserial,
  title             text NOT NULL,
  limit_num         int NOT NULL DEFAULT 0 CHECK (limit_num >= 0),
  -- all | owner (owners only) | member (registered members)
  join_type         text NOT NULL DEFAULT 'all' CHECK (join_type IN ('all', 'owner', 'member')),
  is_pay            text NOT NULL DEFAULT 'N' CHECK (is_pay IN ('Y', 'N')),
  status            text NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N', 'E')),
  start_time        timestamptz,
  end_time          timestamptz,
  event_start_time  timestamptz,
  event_end_time    timestamptz,
  create_user       text NOT NULL DEFAULT '',
  create_time       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);

CREATE TABLE activity_signups (
  rid          int NOT NULL,
  id           bigserial,
  activity_id  bigint NOT NULL,
  member_id    bigint NOT NULL,
  hid          bigint NOT NULL,
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, activity_id, member_id),
  FOREIGN KEY (rid, activity_id) REFERENCES activities (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
CREATE INDEX activity_signups_hid ON activity_signups (rid, hid);

CREATE TABLE access_devices (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  title        text NOT NULL,
  address      text NOT NULL DEFAULT '',
  create_time  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);

CREATE TABLE access_records (
  rid        int NOT NULL,
  id         bigserial,
  device_id  bigint NOT NULL,
  member_id  bigint,
  hid        bigint,
  rec_time   timestamptz NOT NULL,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, device_id) REFERENCES access_devices (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
CREATE INDEX access_records_hid ON access_records (rid, hid, rec_time);

-- face permissions; status '' not yet sent, Y active, N failed, P disabled, W waiting for review
CREATE TABLE face_permissions (
  rid              int NOT NULL,
  id               bigserial,
  member_id        bigint NOT NULL,
  hid              bigint NOT NULL,
  area_title       text NOT NULL DEFAULT '',
  door_start_time  timestamptz,
  door_end_time    timestamptz,
  status           text NOT NULL DEFAULT '' CHECK (status IN ('', 'Y', 'N', 'P', 'W')),
  create_user      text NOT NULL DEFAULT '',
  create_time      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
CREATE INDEX face_permissions_hid ON face_permissions (rid, hid, create_time);
