-- Access regions, grants' regions and per-device sync state, and the face-terminal simulator's
-- own state (docs/product.md#access-control).

-- A region (门禁区域): the devices a grant of it opens, and the default time plan.
CREATE TABLE access_regions (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  title            text NOT NULL,
  -- community | building (bid) | unit (bid, tid)
  scope            text NOT NULL DEFAULT 'community' CHECK (scope IN ('community', 'building', 'unit')),
  bid              bigint,
  tid              bigint,
  -- the weekdays the plan opens, ISO numbers 1 (Monday) to 7 as a text ('1234567' every day)
  weekdays         text NOT NULL DEFAULT '1234567' CHECK (weekdays ~ '^[1-7]{1,7}$'),
  -- up to three windows [{"start":"06:00","end":"23:00"}]; [] the whole day
  windows          jsonb NOT NULL DEFAULT '[]'::jsonb,
  enabled          char(1) NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  -- Y: made by 生成单元区域 for its unit (the community gates and that unit's doors)
  auto             char(1) NOT NULL DEFAULT 'N' CHECK (auto IN ('Y', 'N')),
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title),
  FOREIGN KEY (rid, bid) REFERENCES buildings (rid, id),
  FOREIGN KEY (rid, tid) REFERENCES units (rid, id)
);
CREATE UNIQUE INDEX access_regions_auto_unit ON access_regions (rid, tid) WHERE auto = 'Y';

CREATE TABLE access_region_devices (
  rid              int NOT NULL,
  region_id        bigint NOT NULL,
  device_id        bigint NOT NULL,
  PRIMARY KEY (rid, region_id, device_id),
  FOREIGN KEY (rid, region_id) REFERENCES access_regions (rid, id) ON DELETE CASCADE,
  FOREIGN KEY (rid, device_id) REFERENCES devices (rid, id)
);
CREATE INDEX access_region_devices_device ON access_region_devices (rid, device_id);

CREATE TABLE access_grant_regions (
  rid              int NOT NULL,
  grant_id         bigint NOT NULL,
  region_id        bigint NOT NULL,
  PRIMARY KEY (rid, grant_id, region_id),
  FOREIGN KEY (rid, grant_id) REFERENCES access_grants (rid, id) ON DELETE CASCADE,
  FOREIGN KEY (rid, region_id) REFERENCES access_regions (rid, id)
);
CREATE INDEX access_grant_regions_region ON access_grant_regions (rid, region_id);

-- What each device holds of each grant (the sync's desired state against the acks):
-- pending: an add is queued | held: the device acknowledged the add | failed: the add failed (last_error; retried)
-- | deleting: a delete is queued (the row goes when the device acknowledges it)
CREATE TABLE access_grant_devices (
  rid              int NOT NULL,
  grant_id         bigint NOT NULL,
  device_id        bigint NOT NULL,
  state            text NOT NULL CHECK (state IN ('pending', 'held', 'failed', 'deleting')),
  last_error       text NOT NULL DEFAULT '',
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, grant_id, device_id),
  FOREIGN KEY (rid, grant_id) REFERENCES access_grants (rid, id),
  FOREIGN KEY (rid, device_id) REFERENCES devices (rid, id)
);
CREATE INDEX access_grant_devices_device ON access_grant_devices (rid, device_id, state);

-- The simulator vendor's terminals: their settings, person store and the acks they will send.
CREATE TABLE device_sims (
  rid              int NOT NULL,
  device_id        bigint NOT NULL,
  capacity         int NOT NULL DEFAULT 1000 CHECK (capacity BETWEEN 1 AND 100000),
  reject_photos    char(1) NOT NULL DEFAULT 'N' CHECK (reject_photos IN ('Y', 'N')),
  offline          char(1) NOT NULL DEFAULT 'N' CHECK (offline IN ('Y', 'N')),
  PRIMARY KEY (rid, device_id),
  FOREIGN KEY (rid, device_id) REFERENCES devices (rid, id) ON DELETE CASCADE
);

CREATE TABLE device_sim_persons (
  rid              int NOT NULL,
  device_id        bigint NOT NULL,
  -- the command's subject (grant:12)
  subject          text NOT NULL,
  person_name      text NOT NULL DEFAULT '',
  face_image       text NOT NULL DEFAULT '',
  card_no          text NOT NULL DEFAULT '',
  valid_from       timestamptz,
  valid_to         timestamptz,
  added_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, device_id, subject),
  FOREIGN KEY (rid, device_id) REFERENCES devices (rid, id) ON DELETE CASCADE
);

-- a command the simulator received and will answer at due_at
CREATE TABLE device_sim_inbox (
  rid              int NOT NULL,
  command_id       bigint NOT NULL,
  due_at           timestamptz NOT NULL,
  PRIMARY KEY (rid, command_id),
  FOREIGN KEY (rid, command_id) REFERENCES device_commands (rid, id) ON DELETE CASCADE
);
CREATE INDEX device_sim_inbox_due ON device_sim_inbox (due_at);

-- A grant's approval (通过): only an approved, unrevoked grant is pushed to devices. A new photo
-- clears it (back to review).
ALTER TABLE access_grants
  ADD COLUMN approved_at  timestamptz,
  ADD COLUMN approved_by  bigint;
