-- Community structure: buildings > units > rooms, with configurable room categories.

CREATE TABLE room_categories (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  title       text NOT NULL,
  -- residence | shop | office | parking | storage | other: drives defaults such as parking fees
  kind        text NOT NULL DEFAULT 'residence',
  sort        int NOT NULL DEFAULT 0,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title)
);

CREATE TABLE buildings (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  title       text NOT NULL,
  floors      int NOT NULL DEFAULT 0 CHECK (floors >= 0),
  sort        int NOT NULL DEFAULT 0,
  remark      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title)
);

CREATE TABLE units (
  rid         int NOT NULL,
  id          bigserial,
  bid         bigint NOT NULL,
  title       text NOT NULL,
  sort        int NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, bid, title),
  FOREIGN KEY (rid, bid) REFERENCES buildings (rid, id)
);

-- a room (house): hid in the product's rid/bid/tid/hid; tid is its unit
CREATE TABLE rooms (
  rid           int NOT NULL,
  id            bigserial,
  bid           bigint NOT NULL,
  tid           bigint NOT NULL,
  title         text NOT NULL,
  floor         int NOT NULL DEFAULT 1,
  category_id   bigint,
  built_area    numeric(12,2) NOT NULL DEFAULT 0 CHECK (built_area >= 0),
  indoor_area   numeric(12,2) NOT NULL DEFAULT 0 CHECK (indoor_area >= 0),
  -- vacant | occupied | rented | renovating
  state         text NOT NULL DEFAULT 'vacant' CHECK (state IN ('vacant', 'occupied', 'rented', 'renovating')),
  remark        text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, tid, title),
  FOREIGN KEY (rid, tid) REFERENCES units (rid, id),
  FOREIGN KEY (rid, bid) REFERENCES buildings (rid, id),
  FOREIGN KEY (rid, category_id) REFERENCES room_categories (rid, id)
);
CREATE INDEX rooms_bid ON rooms (rid, bid, tid);
