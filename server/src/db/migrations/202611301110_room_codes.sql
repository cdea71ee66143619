-- A room's device code and call number (/carpark/roomcode; docs/product.md#room-codes), and the
-- state of their push to the doors that serve the room, kept as the devices answer (the newest
-- room_sync command of each device for the subject 'room:<hid>').
CREATE TABLE room_codes (
  rid          int NOT NULL REFERENCES regions(id),
  hid          bigint NOT NULL,
  code         text NOT NULL CHECK (code <> ''),
  call_no      text NOT NULL DEFAULT '',
  -- none 无设备 | syncing 同步中 | done 已同步 | failed 同步失败
  sync_state   text NOT NULL DEFAULT 'none' CHECK (sync_state IN ('none', 'syncing', 'done', 'failed')),
  sync_error   text NOT NULL DEFAULT '',
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, hid),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id) ON DELETE CASCADE,
  UNIQUE (rid, code)
);
CREATE UNIQUE INDEX room_codes_call_no ON room_codes (rid, call_no) WHERE call_no <> '';
CREATE INDEX room_codes_state ON room_codes (rid, sync_state);
-- a search by code or call number matches from their start (roomcodelist, roomsynclist)
CREATE INDEX room_codes_code_prefix ON room_codes (rid, code text_pattern_ops);
CREATE INDEX room_codes_call_no_prefix ON room_codes (rid, call_no text_pattern_ops);
