-- Claim links (领卡链接 /carpark/cardslink; modules/cards/links.ts; docs/product.md#card-links): a
-- link and its QR code that claim a member card or a coupon, each with the channel it is put out
-- through (公众号菜单, 小区海报, 业主群, 前台…), and every claim made through it, so the counts per
-- link and per channel are exact.
CREATE TABLE card_links (
  rid                 int NOT NULL REFERENCES regions(id),
  id                  bigserial,
  -- card: claims a card of card_template_id | coupon: claims a coupon of coupon_template_id
  kind                text NOT NULL CHECK (kind IN ('card', 'coupon')),
  card_template_id    bigint,
  coupon_template_id  bigint,
  channel             text NOT NULL CHECK (length(channel) BETWEEN 1 AND 20),
  -- the link's unguessable part (/claim/<token>): 128 random bits, unique across communities
  token               text NOT NULL CHECK (token ~ '^[A-Za-z0-9_-]{22,64}$'),
  -- Y 投放中 | N 已停止 (claims refused; a link claimed through is stopped, not deleted)
  status              char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark              text NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  created_by          bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (token),
  FOREIGN KEY (rid, card_template_id) REFERENCES card_templates (rid, id),
  FOREIGN KEY (rid, coupon_template_id) REFERENCES member_coupon_templates (rid, id),
  CHECK ((kind = 'card') = (card_template_id IS NOT NULL)),
  CHECK ((kind = 'coupon') = (coupon_template_id IS NOT NULL))
);
CREATE INDEX card_links_channel ON card_links (rid, channel, id);

-- each claim through a link: who claimed and what they got (the card opened or the coupon given)
CREATE TABLE card_link_claims (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  link_id     bigint NOT NULL,
  member_id   bigint NOT NULL,
  card_id     bigint,
  coupon_id   bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- the staff account that claimed on the member's behalf (代领 at the counter)
  created_by  bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, link_id) REFERENCES card_links (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, card_id) REFERENCES member_cards (rid, id),
  FOREIGN KEY (rid, coupon_id) REFERENCES member_coupons (rid, id),
  CHECK (num_nonnulls(card_id, coupon_id) = 1)
);
-- a link's counts (total, today) and the channels' totals
CREATE INDEX card_link_claims_link ON card_link_claims (rid, link_id, created_at);
CREATE INDEX card_link_claims_member ON card_link_claims (rid, member_id);
CREATE INDEX card_link_claims_card ON card_link_claims (rid, card_id) WHERE card_id IS NOT NULL;
CREATE INDEX card_link_claims_coupon ON card_link_claims (rid, coupon_id) WHERE coupon_id IS NOT NULL;
