-- Images the console shows (a logo, QR codes, a floor plan; docs/product.md#uploaded-images): kept
-- in the database with the rest of a community's data, served at /files/<id>/<key>.<ext> to <img>
-- tags, which send no token: the random key is what opens one.
CREATE TABLE uploaded_images (
  id          bigserial PRIMARY KEY,
  group_id    int NOT NULL REFERENCES groups(id),
  -- the community it was uploaded in; null on the group side
  rid         int REFERENCES regions(id),
  key         text NOT NULL CHECK (key ~ '^[0-9a-f]{32}$'),
  name        text NOT NULL,
  mime        text NOT NULL CHECK (mime IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')),
  size        int NOT NULL CHECK (size > 0),
  content     bytea NOT NULL,
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploaded_images_rid ON uploaded_images (rid, id);
