-- A visitor's face on the doors (visitor setting push_face; docs/product.md#visitors): a grant of
-- kind visitor tied to its registration, made, changed and revoked by the visitor area as the
-- visit changes; one a registration.
ALTER TABLE access_grants DROP CONSTRAINT access_grants_person_kind_check;
ALTER TABLE access_grants
  ADD CONSTRAINT access_grants_person_kind_check CHECK (person_kind IN ('owner', 'family', 'tenant', 'staff', 'other', 'visitor')),
  ADD COLUMN visitor_id bigint,
  ADD FOREIGN KEY (rid, visitor_id) REFERENCES visitors (rid, id);
CREATE UNIQUE INDEX access_grants_visitor ON access_grants (rid, visitor_id) WHERE visitor_id IS NOT NULL;
