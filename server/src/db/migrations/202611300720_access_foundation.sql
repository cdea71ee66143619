-- Access control foundation (智能物联 /carpark 门禁; docs/product.md#access-control): one table of
-- devices for every device family and one command queue for every family; the owners area's
-- passage records and face permissions move here and grow into pass records and grants.

-- A device of any family: door (门禁/人脸终端), gate (道闸), meter (表计), pile (充电桩).
-- Online = a heartbeat within DEVICE_ONLINE_SECONDS (contract/src/access) of now.
CREATE TABLE devices (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  family           text NOT NULL CHECK (family IN ('door', 'gate', 'meter', 'pile')),
  -- the code the device reports (unique in the community)
  code             text NOT NULL CHECK (code <> ''),
  title            text NOT NULL,
  -- simulator: the built-in simulated vendor (server/src/devices/access.ts)
  vendor           text NOT NULL DEFAULT 'simulator',
  version          text NOT NULL DEFAULT '',
  ip               text NOT NULL DEFAULT '',
  mac              text NOT NULL DEFAULT '',
  -- in | out | both
  direction        text NOT NULL DEFAULT 'both' CHECK (direction IN ('in', 'out', 'both')),
  -- community: a community gate | building: a building's door (bid) | unit: a unit door (bid, tid)
  location         text NOT NULL DEFAULT 'community' CHECK (location IN ('community', 'building', 'unit')),
  bid              bigint,
  tid              bigint,
  address          text NOT NULL DEFAULT '',
  -- the equipment ledger's asset (no foreign key: the ledger's table is its own)
  asset_id         bigint,
  last_heartbeat   timestamptz,
  enabled          char(1) NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code),
  CHECK ((location = 'community' AND bid IS NULL AND tid IS NULL)
      OR (location = 'building' AND bid IS NOT NULL AND tid IS NULL)
      OR (location = 'unit' AND bid IS NOT NULL AND tid IS NOT NULL)),
  FOREIGN KEY (rid, bid) REFERENCES buildings (rid, id),
  FOREIGN KEY (rid, tid) REFERENCES units (rid, id)
);
CREATE INDEX devices_family ON devices (rid, family, id);
CREATE INDEX devices_unit ON devices (rid, tid);

-- The old door rows keep their ids (their records point at them).
INSERT INTO devices (rid, id, family, code, title, address, created_at)
SELECT rid, id, 'door', 'D' || lpad(id::text, 4, '0'), title, address, create_time FROM access_devices;
SELECT setval(pg_get_serial_sequence('devices', 'id'), GREATEST((SELECT max(id) FROM devices), 1));

-- The command queue of every device family. subject names what a command is about as
-- '<thing>:<id>' (grant:12, visitor:5, room:101); '' for open and restart.
CREATE TABLE device_commands (
  rid              int NOT NULL,
  id               bigserial,
  device_id        bigint NOT NULL,
  -- person_add | person_del | open | restart | room_sync (each family adds its own)
  kind             text NOT NULL,
  subject          text NOT NULL DEFAULT '',
  payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- pending: to send | sent: waiting for the device's ack | done: acknowledged | failed: the device refused or did not answer (retried at next_try_at)
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'done', 'failed')),
  attempts         int NOT NULL DEFAULT 0,
  next_try_at      timestamptz NOT NULL DEFAULT now(),
  last_error       text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  sent_at          timestamptz,
  acked_at         timestamptz,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, device_id) REFERENCES devices (rid, id) ON DELETE CASCADE
);
CREATE INDEX device_commands_device ON device_commands (rid, device_id, state, id);
CREATE INDEX device_commands_subject ON device_commands (rid, subject, device_id);
CREATE INDEX device_commands_due ON device_commands (next_try_at) WHERE state IN ('pending', 'failed');

-- Pass records (通行记录): who passed which device, how, and whether the door opened.
ALTER TABLE access_records DROP CONSTRAINT access_records_rid_device_id_fkey;
ALTER TABLE access_records RENAME TO access_passes;
ALTER INDEX access_records_hid RENAME TO access_passes_hid;
ALTER TABLE access_passes
  ADD COLUMN person_name  text NOT NULL DEFAULT '',
  ADD COLUMN grant_id     bigint,
  ADD COLUMN visitor_id   bigint,
  -- face | card | qr | remote
  ADD COLUMN method       text NOT NULL DEFAULT 'face' CHECK (method IN ('face', 'card', 'qr', 'remote')),
  -- face match score 0..100 (face passes only)
  ADD COLUMN similarity   numeric(5,2) CHECK (similarity BETWEEN 0 AND 100),
  -- the snapshot image's address ('' none)
  ADD COLUMN snapshot     text NOT NULL DEFAULT '',
  -- open | refused
  ADD COLUMN result       text NOT NULL DEFAULT 'open' CHECK (result IN ('open', 'refused')),
  ADD FOREIGN KEY (rid, device_id) REFERENCES devices (rid, id),
  ADD FOREIGN KEY (rid, visitor_id) REFERENCES visitors (rid, id);
UPDATE access_passes p SET person_name = m.realname FROM members m WHERE m.rid = p.rid AND m.id = p.member_id;
CREATE INDEX access_passes_time ON access_passes (rid, rec_time);
CREATE INDEX access_passes_device ON access_passes (rid, device_id, rec_time);
CREATE INDEX access_passes_member ON access_passes (rid, member_id, rec_time);

DROP TABLE access_devices;

-- Grants (门禁授权): a person's right to pass the doors of some regions with a credential.
-- status '' none | W waiting for review | P being pushed | Y in force on every device | N refused or failed
ALTER TABLE face_permissions RENAME TO access_grants;
ALTER INDEX face_permissions_hid RENAME TO access_grants_hid;
ALTER TABLE access_grants
  ALTER COLUMN member_id DROP NOT NULL,
  ALTER COLUMN hid DROP NOT NULL,
  -- owner | family | tenant | staff | other
  ADD COLUMN person_kind  text NOT NULL DEFAULT 'owner' CHECK (person_kind IN ('owner', 'family', 'tenant', 'staff', 'other')),
  ADD COLUMN person_name  text NOT NULL DEFAULT '',
  ADD COLUMN mobile       text NOT NULL DEFAULT '',
  -- credentials: the face photo (an uploaded image's address), a card number, a QR content
  ADD COLUMN face_image   text NOT NULL DEFAULT '',
  ADD COLUMN card_no      text NOT NULL DEFAULT '',
  ADD COLUMN qr_code      text NOT NULL DEFAULT '',
  -- why the review refused it, or the device's error when a push failed
  ADD COLUMN reason       text NOT NULL DEFAULT '',
  -- set when revoked (moved out, lease ended, by hand): the devices are told to delete it
  ADD COLUMN revoked_at   timestamptz,
  ADD COLUMN updated_at   timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN created_by   bigint;
UPDATE access_grants g SET person_name = m.realname FROM members m WHERE m.rid = g.rid AND m.id = g.member_id;
CREATE INDEX access_grants_status ON access_grants (rid, status, id);
CREATE INDEX access_grants_member ON access_grants (rid, member_id, hid);
