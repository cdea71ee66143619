-- The queue's order (docs/product.md#access-control, queue order): 0 a remote open or restart (a
-- person waits at the door), 1 one person's or one room's change, 2 the bulk syncs (codes generated,
-- imported or pushed to a door just added); within a priority, the earliest due first.
ALTER TABLE device_commands ADD COLUMN priority smallint NOT NULL DEFAULT 1 CHECK (priority BETWEEN 0 AND 2);
UPDATE device_commands SET priority = 0 WHERE kind IN ('open', 'restart');
UPDATE device_commands SET priority = 2 WHERE kind = 'room_sync';
