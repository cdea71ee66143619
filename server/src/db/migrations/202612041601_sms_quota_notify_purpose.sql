-- an SMS notification takes its segments from the group's quota like any message, under its own purpose
ALTER TABLE sms_quota_ledger DROP CONSTRAINT sms_quota_ledger_purpose_check;
ALTER TABLE sms_quota_ledger ADD CONSTRAINT sms_quota_ledger_purpose_check
  CHECK (purpose IN ('', 'sms_job', 'notice', 'meter_alert', 'charging_code', 'notify', 'test', 'other'));
