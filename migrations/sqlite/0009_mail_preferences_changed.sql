-- When the user last changed their mail preferences (UTC ms): a one-click unsubscribe
-- link mailed before then no longer overrides what they chose since.
ALTER TABLE users ADD COLUMN mail_preferences_at BIGINT;
