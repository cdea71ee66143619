-- Points expire (docs/product.md#member-ledgers): an earning row keeps the day its points expire
-- (the card's rule when earned: never, the end of the next year, or N months on) and how many of
-- them are still unspent; a spend takes the earliest to expire first; the daily job takes what
-- has expired. A member's points are the sum of the unspent (checked with the ledgers).
ALTER TABLE bonus_ledger ADD COLUMN expires_on date, ADD COLUMN unspent int CHECK (unspent >= 0 AND unspent <= num);
CREATE INDEX bonus_ledger_unspent ON bonus_ledger (rid, member_id, expires_on, id) WHERE unspent > 0;
CREATE INDEX bonus_ledger_expiring ON bonus_ledger (expires_on) WHERE unspent > 0;
