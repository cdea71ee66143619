-- Rooms in address order (building, unit, room), as lists of households show them: a notice's
-- read list walks this and stops at its page instead of sorting the community's households
-- (bench/README.md#scale-data, the steward desk's sweep).
CREATE INDEX rooms_address_order ON rooms (rid, building_sort, unit_sort, id);
