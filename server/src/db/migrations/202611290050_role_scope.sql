-- A role's data scope (docs/product.md#team): own, the communities it is assigned in; group, every
-- community of the group, wherever the account holds it (http/authenticate.ts accountCodes,
-- modules/region accountRegions). Only the group side sets or assigns a group-wide role.
ALTER TABLE staff_roles ADD COLUMN scope text NOT NULL DEFAULT 'own' CHECK (scope IN ('own', 'group'));
CREATE INDEX staff_roles_group_scope ON staff_roles (group_id) WHERE scope = 'group';
