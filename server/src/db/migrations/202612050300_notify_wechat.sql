-- 微信 in 消息设置 (docs/product.md#notifications): an owner is also reached by the official
-- account's template message, sent to the followers bound to them (公众号粉丝); a notification of
-- that channel keeps the open id it went to.
ALTER TABLE notify_rules DROP CONSTRAINT notify_rules_channel_check;
ALTER TABLE notify_rules ADD CONSTRAINT notify_rules_channel_check CHECK (channel IN ('inbox', 'sms', 'wechat'));
ALTER TABLE notifications DROP CONSTRAINT notifications_channel_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check CHECK (channel IN ('inbox', 'sms', 'wechat'));
ALTER TABLE notifications ADD COLUMN openid text NOT NULL DEFAULT '';
