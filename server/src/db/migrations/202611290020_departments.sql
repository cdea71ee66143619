-- 部门与岗位 (issue 35; modules/team): the property company's org tree and its positions. They
-- belong to the group (group_id), not to one community: the group's staff work across its
-- communities. Every statement is scoped by group_id (lib/resource.ts, owner 'group').
CREATE TABLE departments (
  id           serial PRIMARY KEY,
  group_id     int NOT NULL REFERENCES groups(id),
  parent_id    int REFERENCES departments(id),
  title        text NOT NULL,
  leader_name  text NOT NULL DEFAULT '',
  phone        text NOT NULL DEFAULT '',
  sort         int NOT NULL DEFAULT 0,
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (parent_id IS DISTINCT FROM id)
);
-- a title once among its siblings (the top level counts as one parent)
CREATE UNIQUE INDEX departments_sibling_title ON departments (group_id, coalesce(parent_id, 0), title);
CREATE INDEX departments_parent ON departments (parent_id);

CREATE TABLE positions (
  id           serial PRIMARY KEY,
  group_id     int NOT NULL REFERENCES groups(id),
  code         text NOT NULL,
  title        text NOT NULL,
  sort         int NOT NULL DEFAULT 0,
  status       char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark       text NOT NULL DEFAULT '',
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, code),
  UNIQUE (group_id, title)
);

-- a staff member's department and position (the staff accounts of /team/user set them)
ALTER TABLE accounts
  ADD COLUMN dept_id int REFERENCES departments(id),
  ADD COLUMN position_id int REFERENCES positions(id);
CREATE INDEX accounts_dept ON accounts (dept_id) WHERE dept_id IS NOT NULL;
CREATE INDEX accounts_position ON accounts (position_id) WHERE position_id IS NOT NULL;
