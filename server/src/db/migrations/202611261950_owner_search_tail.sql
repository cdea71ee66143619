-- The owner search also finds people by their mobile number's last four digits ('8000') and the
-- people of a room by its number ('1101'), at the counter as a cashier asks (issue 34), each an
-- exact look-up beside the mobile-prefix and name indexes of 004_owners.sql (modules/owners/search.ts).
CREATE INDEX members_mobile_tail ON members (rid, right(mobile, 4));
-- a room number's rooms in address order (the rooms' kept sorts, 026_room_addresses.sql), so the
-- search reads the first of a common number's hundreds of rooms and stops
CREATE INDEX rooms_title ON rooms (rid, title, building_sort, bid, unit_sort, tid);
