-- Every fragment of a room number, as members' names have theirs (004_owners.sql): a keyword that
-- is part of a room number ('80' of '801') is then an exact GIN lookup, where matching every
-- room's joined address read a community's 50,000 rooms (roomsAddressed, owners/access.ts).
CREATE INDEX rooms_title_keys ON rooms USING gin (member_name_keys(rid, title));
