-- Parking lanes (车道, a barrier gate each) become rows of the one devices table, family 'gate'
-- (docs/product.md#parking-gates): a gate belongs to a booth, looks one way (in or out) and stands
-- at no building. The stays, the gate log and the QR orders point at the devices' rows.
ALTER TABLE devices
  ADD COLUMN booth_id bigint,
  ADD FOREIGN KEY (rid, booth_id) REFERENCES parking_booths (rid, id),
  ADD CONSTRAINT devices_gate_booth CHECK ((family = 'gate') = (booth_id IS NOT NULL)),
  ADD CONSTRAINT devices_gate_place CHECK (family <> 'gate' OR (direction IN ('in', 'out') AND location = 'community'));
CREATE INDEX devices_booth ON devices (rid, booth_id) WHERE booth_id IS NOT NULL;

-- each lane's device id; a lane whose code a door already has is told apart by a -G suffix
ALTER TABLE parking_lanes ADD COLUMN device_id bigint;
UPDATE parking_lanes SET device_id = nextval(pg_get_serial_sequence('devices', 'id'));
INSERT INTO devices (rid, id, family, code, title, vendor, direction, location, booth_id, last_heartbeat, remark, created_at, created_by)
SELECT n.rid, n.device_id, 'gate',
       CASE WHEN EXISTS (SELECT 1 FROM devices d WHERE d.rid = n.rid AND d.code = n.code) THEN n.code || '-G' ELSE n.code END,
       n.title, n.vendor, CASE n.direction WHEN 'I' THEN 'in' ELSE 'out' END, 'community', n.booth_id, n.last_heartbeat,
       n.remark, n.created_at, n.created_by
FROM parking_lanes n;

ALTER TABLE parking_records
  DROP CONSTRAINT parking_records_rid_entry_lane_id_fkey,
  DROP CONSTRAINT parking_records_rid_exit_lane_id_fkey;
ALTER TABLE parking_gate_events DROP CONSTRAINT parking_gate_events_rid_lane_id_fkey;

UPDATE parking_records r SET entry_lane_id = n.device_id FROM parking_lanes n WHERE n.rid = r.rid AND n.id = r.entry_lane_id;
UPDATE parking_records r SET exit_lane_id = n.device_id FROM parking_lanes n WHERE n.rid = r.rid AND n.id = r.exit_lane_id;
UPDATE parking_gate_events e SET lane_id = n.device_id FROM parking_lanes n WHERE n.rid = e.rid AND n.id = e.lane_id;
UPDATE parking_pay_orders o SET lane_id = n.device_id FROM parking_lanes n WHERE n.rid = o.rid AND n.id = o.lane_id;

ALTER TABLE parking_records
  ADD FOREIGN KEY (rid, entry_lane_id) REFERENCES devices (rid, id),
  ADD FOREIGN KEY (rid, exit_lane_id) REFERENCES devices (rid, id);
ALTER TABLE parking_gate_events ADD FOREIGN KEY (rid, lane_id) REFERENCES devices (rid, id);
ALTER TABLE parking_pay_orders ADD FOREIGN KEY (rid, lane_id) REFERENCES devices (rid, id);

DROP TABLE parking_lanes;
