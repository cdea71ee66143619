-- The setup area's reads at scale (bench/README.md#sweep, 2026-11-29): an SMS job's preview and start
-- leave out the mobiles messaged within the job's window (dedupe_days), asking which of the audience's
-- mobiles had a message submitted since then. With only (rid, mobile, submitted_at) to go by, that
-- was one probe per mobile (a whole community's 35,000: 200-500 ms); by time, it reads the window's
-- messages alone.
CREATE INDEX sms_messages_submitted ON sms_messages (rid, submitted_at) WHERE submit_status = 'S';

-- The send log (smsjoblog) filtered by a status, a failure code or dates: its page newest first and
-- its total. Without these a rare or absent status (未送达, 等待回执, 已领取) read the community's
-- messages in id order for a page, and every such filter read the table for the total (120-250 ms at
-- 465,000 messages a community). A receipt's update (W -> Y or N) now changes an index, as a
-- submission's already did (sms_messages_job).
CREATE INDEX sms_messages_submit_status ON sms_messages (rid, submit_status, id);
CREATE INDEX sms_messages_receipt_status ON sms_messages (rid, receipt_status, id);
-- the provider's failure codes: the failed and undelivered messages only
CREATE INDEX sms_messages_code ON sms_messages (rid, code, id) WHERE code <> '';
CREATE INDEX sms_messages_created ON sms_messages (rid, created_at);
