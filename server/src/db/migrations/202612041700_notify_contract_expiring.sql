-- 合同到期提醒 (docs/product.md#notifications): a contract's party (乙方) is a recipient of the
-- message matrix, and a contract remembers the day it was reminded, so it is reminded once
ALTER TABLE notify_rules DROP CONSTRAINT notify_rules_recipient_check;
ALTER TABLE notify_rules ADD CONSTRAINT notify_rules_recipient_check
  CHECK (recipient IN ('owner', 'handler', 'steward', 'staff', 'visitor', 'party'));
ALTER TABLE notifications DROP CONSTRAINT notifications_recipient_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_recipient_check
  CHECK (recipient IN ('owner', 'handler', 'steward', 'staff', 'visitor', 'party'));

ALTER TABLE contracts ADD COLUMN expiry_reminded_on date;
