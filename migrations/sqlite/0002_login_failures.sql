-- Failed-login counters (DESIGN.md §5), in the database so every instance counts into
-- the same window: five wrong passwords lock an account whichever instance they reach.
-- One row per limited key (an account or a client address), stored as a SHA-256 hex
-- digest: fixed length whatever a client sends, and no list of guessed addresses.
CREATE TABLE login_failures (
    key_hash       TEXT PRIMARY KEY,
    -- Attempts counted in the current window, the one in progress included.
    attempts       BIGINT NOT NULL,
    -- The window opened at the first counted attempt and ends here (UTC ms); a row
    -- past it counts as empty and is swept by the hourly maintenance.
    window_ends_at BIGINT NOT NULL
);
CREATE INDEX login_failures_window ON login_failures (window_ends_at);
