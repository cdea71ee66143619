-- Roles the property company defines (team area, docs/product.md#team): a role is a set of
-- permission codes (contract/src/team/permissions.ts), held by a staff account per community.
-- accounts.roles stays: codes granted to the account in all its communities (the group side's
-- leader_admin, accounts made before the team area); a session's codes are those and the codes of
-- the roles it holds in the session's community (http/authenticate.ts).

CREATE TABLE staff_roles (
  id          serial PRIMARY KEY,
  group_id    int NOT NULL REFERENCES groups(id),
  -- web: the console's pages and actions; mobile: the staff app's (the spec's mobilerole)
  app         text NOT NULL DEFAULT 'web' CHECK (app IN ('web', 'mobile')),
  title       text NOT NULL CHECK (length(title) BETWEEN 1 AND 30),
  remark      text NOT NULL DEFAULT '',
  codes       text[] NOT NULL DEFAULT '{}',
  -- seeded with the group; edited but never deleted
  builtin     boolean NOT NULL DEFAULT false,
  status      char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, app, title)
);

-- the roles an account holds in one of its communities (a cashier in A can be a manager in B)
CREATE TABLE account_roles (
  account_id  int NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  rid         int NOT NULL REFERENCES regions(id),
  role_id     int NOT NULL REFERENCES staff_roles(id),
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, rid, role_id)
);
CREATE INDEX account_roles_role ON account_roles (role_id);
CREATE INDEX account_roles_rid ON account_roles (rid, role_id);

-- the staff list's 最近登录 (an account's newest session)
CREATE INDEX sessions_account_created ON sessions (account_id, created_at DESC);

-- a staff account made on the team page may hold its codes through roles only
ALTER TABLE accounts DROP CONSTRAINT accounts_roles_check;

-- a change of roles reaches every server process's remembered sessions at once (008_auth_notify.sql)
CREATE TRIGGER staff_roles_auth_change AFTER UPDATE OR DELETE ON staff_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER account_roles_auth_change AFTER INSERT OR UPDATE OR DELETE ON account_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
