-- Security policy (/setup/setsys 安全, issue 36): the group's default, a community's override where
-- the group allows it, and what enforcing it needs on accounts and sessions.

-- the group's policy (contract/src/setup/security.ts; a key left out reads its default) and
-- whether its communities may set their own
ALTER TABLE groups ADD COLUMN security jsonb NOT NULL DEFAULT '{}';
ALTER TABLE groups ADD COLUMN security_override char(1) NOT NULL DEFAULT 'Y' CHECK (security_override IN ('Y', 'N'));
-- a community's own policy; NULL: the group's
ALTER TABLE regions ADD COLUMN security jsonb;

-- when the password was last set (expiry counts from it)
ALTER TABLE accounts ADD COLUMN password_changed_at timestamptz NOT NULL DEFAULT now();

-- the policy's idle timeout at sign-in (NULL: the server's TOKEN_TTL_HOURS alone), and whether
-- the password had expired then (the session may only change it)
ALTER TABLE sessions ADD COLUMN idle_seconds int;
ALTER TABLE sessions ADD COLUMN must_change boolean NOT NULL DEFAULT false;
