-- The setup area's reads at scale (bench/README.md#sweep, 2026-11-29): an SMS job's preview and start
-- leave out the mobiles messaged within the job's window (dedupe_days), asking which of the audience's
-- mobiles had a message submitted since then. With only (rid, mobile, submitted_at) to go by, that
-- was one probe per mobile (a whole community's 35,000: 200-500 ms); by time, it reads the window's
-- messages alone.
CREATE INDEX sms_messages_submitted ON sms_messages (rid, submitted_at) WHERE submit_status = 'S';
