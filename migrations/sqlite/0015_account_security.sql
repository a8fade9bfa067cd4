-- Account security (issue 31): second factors, passkeys, signed-in devices.

-- An authenticator app's secret (RFC 6238), base32 as the app was given it. It has to
-- be read back to check codes, so it is kept as is, like the database's other
-- credentials' material (backups hold it too). `confirmed_at` is NULL while enrolling:
-- the secret was shown but no code from it has been typed yet. `last_step` is the
-- newest 30-second step a code was accepted for; a code is accepted only for a later
-- step, in one conditional update, so a code works once on every instance.
CREATE TABLE totp_factors (
    user_id      TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret       TEXT NOT NULL,
    confirmed_at BIGINT,
    last_step    BIGINT NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL
);

-- One-time recovery codes: SHA-256 of each (they are random, 50 bits each), spent by
-- setting `used_at` in one conditional update.
CREATE TABLE recovery_codes (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL,
    used_at    BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, code_hash)
);

-- WebAuthn credentials. `credential` is webauthn-rs's Passkey (public key, counter)
-- as JSON; `credential_id` (base64url) finds it from a browser's assertion.
CREATE TABLE passkeys (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    credential    TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT
);
CREATE INDEX passkeys_user ON passkeys (user_id);

-- A sign-in or ceremony in progress, keyed by the SHA-256 of the ticket the browser
-- holds: the second step of a sign-in, or a WebAuthn challenge (its state as JSON).
-- In the database so that the step may land on another instance; single use.
CREATE TABLE auth_challenges (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE,
    state      TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX auth_challenges_expiry ON auth_challenges (expires_at);

-- A session's assurance: when a second factor was last proved in it (NULL: aal1) and
-- which; whether it must enrol one before anything else (an admin requires it).
ALTER TABLE sessions ADD COLUMN factor_at BIGINT;
ALTER TABLE sessions ADD COLUMN factor_kind TEXT;
ALTER TABLE sessions ADD COLUMN enrol_required BOOLEAN NOT NULL DEFAULT FALSE;

-- Devices an account has signed in from (SHA-256 of browser and system), so a sign-in
-- from a new one can be mailed.
CREATE TABLE known_devices (
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_hash   TEXT NOT NULL,
    first_seen_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, device_hash)
);

-- Who must have a second factor.
ALTER TABLE installation_settings ADD COLUMN require_factor_admins BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE installation_settings ADD COLUMN require_factor_company_leads BOOLEAN NOT NULL DEFAULT FALSE;
