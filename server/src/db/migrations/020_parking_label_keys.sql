-- Every fragment of a parking bill's label (its space title or plate, kept as the bill's measure),
-- as rooms' numbers have theirs (019): the bill list's keyword finds a parking bill by part of its
-- label in this index, where matching the label of every parking bill read them all (keywordArms,
-- modules/fees/billQuery.ts). Rooms' own bills measure a quantity and are left out.
CREATE INDEX fee_bills_parking_label ON fee_bills USING gin (member_name_keys(rid, measure)) WHERE space_id <> 0 OR car_id <> 0;
