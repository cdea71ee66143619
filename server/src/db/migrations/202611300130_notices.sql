-- 通知公告 (docs/product.md#notices; modules/steward/notices*): the notices, the households each
-- one reached when it was published (frozen then, so its read rate keeps one denominator), the
-- reads per household and member, and the SMS re-sends to unread households (each an SMS job of
-- modules/setup/sms*).

CREATE TABLE notices (
  rid           int NOT NULL REFERENCES regions(id),
  id            serial,
  title         text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 50),
  -- notice 通知 | urgent 紧急 | outage 停水停电 | activity 活动 | fees 费用公示
  type          text NOT NULL CHECK (type IN ('notice', 'urgent', 'outage', 'activity', 'fees')),
  cover         text NOT NULL DEFAULT '',
  -- sanitised HTML (modules/steward/noticeHtml.ts)
  body          text NOT NULL DEFAULT '',
  -- all 全小区 | building | unit | room, with the chosen ids
  scope         text NOT NULL DEFAULT 'all' CHECK (scope IN ('all', 'building', 'unit', 'room')),
  scope_ids     bigint[] NOT NULL DEFAULT '{}',
  -- all 全部住户 | owner 业主 | tenant 租户
  audience      text NOT NULL DEFAULT 'all' CHECK (audience IN ('all', 'owner', 'tenant')),
  -- app (App/微信推送) and sms
  channels      text[] NOT NULL DEFAULT '{app}',
  -- the approved SMS template of the sms channel (messages go to the SMS-only households' owners)
  sms_template_id int,
  send_at       timestamptz,
  valid_until   timestamptz,
  pinned        char(1) NOT NULL DEFAULT 'N' CHECK (pinned IN ('Y', 'N')),
  -- D 草稿 | S 待发布 (scheduled) | P 已发布 (已过期 once valid_until has passed) | W 已撤回
  status        char(1) NOT NULL DEFAULT 'D' CHECK (status IN ('D', 'S', 'P', 'W')),
  published_at  timestamptz,
  published_by  bigint,
  withdrawn_at  timestamptz,
  withdrawn_by  bigint,
  -- households reached at publication (notice_recipients' rows)
  households    int NOT NULL DEFAULT 0,
  copied_from   int,
  created_by    bigint,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
CREATE INDEX notices_list ON notices (rid, pinned, id);
CREATE INDEX notices_due ON notices (send_at) WHERE status = 'S';

CREATE TABLE notice_recipients (
  rid         int NOT NULL,
  notice_id   int NOT NULL,
  hid         bigint NOT NULL,
  -- how the household was reachable at publication: app (App or WeChat bound) | sms (SMS only)
  reach       text NOT NULL CHECK (reach IN ('app', 'sms')),
  PRIMARY KEY (rid, notice_id, hid),
  FOREIGN KEY (rid, notice_id) REFERENCES notices (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);
CREATE INDEX notice_recipients_hid ON notice_recipients (rid, hid);

CREATE TABLE notice_reads (
  rid            int NOT NULL,
  id             bigserial,
  notice_id      int NOT NULL,
  hid            bigint NOT NULL,
  member_id      bigint NOT NULL,
  first_read_at  timestamptz NOT NULL DEFAULT now(),
  last_read_at   timestamptz NOT NULL DEFAULT now(),
  read_count     int NOT NULL DEFAULT 1 CHECK (read_count >= 1),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, notice_id, hid, member_id),
  FOREIGN KEY (rid, notice_id, hid) REFERENCES notice_recipients (rid, notice_id, hid),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX notice_reads_member ON notice_reads (rid, member_id);

CREATE TABLE notice_resends (
  rid          int NOT NULL,
  id           serial,
  notice_id    int NOT NULL,
  sms_job_id   int NOT NULL,
  households   int NOT NULL DEFAULT 0,
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, notice_id) REFERENCES notices (rid, id),
  FOREIGN KEY (rid, sms_job_id) REFERENCES sms_jobs (rid, id)
);
CREATE INDEX notice_resends_notice ON notice_resends (rid, notice_id);
