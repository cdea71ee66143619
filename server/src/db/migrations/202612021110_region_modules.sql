-- The modules a group closed for a community (docs/product.md#community-modules): their methods
-- answer NO_PERMISSION there and their pages are not drawn. Empty is every module open, so an area
-- added later is open in the communities that exist.
ALTER TABLE regions
  ADD COLUMN modules_off text[] NOT NULL DEFAULT '{}',
  ADD COLUMN province text NOT NULL DEFAULT '' CHECK (length(province) <= 20),
  ADD COLUMN city text NOT NULL DEFAULT '' CHECK (length(city) <= 20),
  ADD COLUMN district text NOT NULL DEFAULT '' CHECK (length(district) <= 20);

-- a session's remembered row carries the community's closed modules (http/session-cache.ts)
DROP TRIGGER regions_auth_change ON regions;
CREATE TRIGGER regions_auth_change AFTER UPDATE OF end_time, modules_off OR DELETE ON regions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
