-- The group's defaults of the system settings (/setup/setsys on the group side): the brand, the
-- client downloads and the help, by field (contract GROUP_SETSYS_KEYS). A community's empty field
-- follows the group's (docs/product.md#setup-settings).
ALTER TABLE groups ADD COLUMN sys_defaults jsonb NOT NULL DEFAULT '{}';
