-- Comments on photos (issue 17). Each photo keeps its comment count, changed in the
-- same transaction as the comment, so a gallery shows every tile's count without
-- counting rows per tile.
ALTER TABLE project_images ADD COLUMN comment_count BIGINT NOT NULL DEFAULT 0;
-- Deleting a user deletes their comments (ON DELETE CASCADE): found by author.
CREATE INDEX photo_comments_author ON photo_comments (author_id);

-- Notifications (issue 17): who caused each one, by name at the time (the account
-- may go; the notification stays readable). Unread counts read this index.
ALTER TABLE notifications ADD COLUMN actor_name TEXT;
CREATE INDEX notifications_unread ON notifications (user_id, read_at);

-- Mail preferences (issue 17), "Email me about" in Profile & Settings; 1 is on.
ALTER TABLE users ADD COLUMN mail_new_photos BIGINT NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN mail_comments BIGINT NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN mail_status_changes BIGINT NOT NULL DEFAULT 0;
-- Comment, reply and mention notifications waiting for their user's digest mail
-- (1), which is sent a few minutes after the first of them.
ALTER TABLE notifications ADD COLUMN mail_pending BIGINT NOT NULL DEFAULT 0;
CREATE INDEX notifications_mail_pending ON notifications (mail_pending, user_id, created_at);
-- RFC 8058 one-click unsubscribe: the URL a mail client POSTs to, sent as the
-- List-Unsubscribe header.
ALTER TABLE mail_outbox ADD COLUMN list_unsubscribe TEXT;
-- Keys the server signs with (unsubscribe links), the same for every instance.
CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
