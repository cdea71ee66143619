-- The group's head office enters one of its communities (docs/product.md#enter-community): a
-- one-time code of purpose 'enter' is traded for a community session of the leader's account that
-- holds the community administrator's codes (as_admin), every call of it audited under its name.
ALTER TABLE login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE login_codes ADD CONSTRAINT login_codes_purpose_check CHECK (purpose IN ('board', 'handover', 'enter'));
ALTER TABLE sessions ADD COLUMN as_admin boolean NOT NULL DEFAULT false;
