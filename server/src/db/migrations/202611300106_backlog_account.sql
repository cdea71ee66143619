-- A to-do may be one account's (a technician's ticket, a complaint's handler): null is anyone
-- holding the source's codes (modules/setup/backlog.ts, docs/product.md#to-do-list).
ALTER TABLE backlog ADD COLUMN account_id bigint;
