-- 巡更统计 reads kept figures beside the tasks instead of joining their points and check-ins
-- (docs/adr/0004-kept-totals.md; bench/README.md#patrols):
-- a task keeps the count of its points made up (补检) beside its done, abnormal and late counts,
ALTER TABLE patrol_tasks ADD COLUMN makeup_count int NOT NULL DEFAULT 0;
UPDATE patrol_tasks t SET makeup_count = m.n
  FROM (SELECT rid, task_id, count(*)::int AS n FROM patrol_task_points WHERE status = 'B' GROUP BY rid, task_id) m
  WHERE t.rid = m.rid AND t.id = m.task_id;
-- and its matched check-ins by hour of the business day (keepCheckinHours, modules/patrols/checkin.ts).
CREATE TABLE patrol_task_hours (
  rid        int NOT NULL REFERENCES regions(id),
  task_id    bigint NOT NULL,
  hour       smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  checkins   int NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  PRIMARY KEY (rid, task_id, hour),
  FOREIGN KEY (rid, task_id) REFERENCES patrol_tasks (rid, id) ON DELETE CASCADE
);
INSERT INTO patrol_task_hours (rid, task_id, hour, checkins)
  SELECT rid, task_id, extract(hour FROM server_time AT TIME ZONE 'Asia/Shanghai')::int, count(*)::int
  FROM patrol_checkins WHERE outcome = 'ok' AND task_id IS NOT NULL GROUP BY 1, 2, 3;
