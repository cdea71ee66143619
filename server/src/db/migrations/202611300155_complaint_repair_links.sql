-- A complaint turned into a repair ticket (complainttorepair; docs/product.md#complaints) and the
-- ticket made from it point at each other, within the same community.
ALTER TABLE complaints ADD FOREIGN KEY (rid, repair_id) REFERENCES repair_tickets (rid, id);
ALTER TABLE repair_tickets ADD FOREIGN KEY (rid, complaint_id) REFERENCES complaints (rid, id);
