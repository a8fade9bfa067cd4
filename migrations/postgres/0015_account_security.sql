-- Account security (issue 31): second factors, passkeys, signed-in devices.

-- An authenticator app's secret (RFC 6238), base32 as the app was given it. It has to
-- be read back to check codes, so it is kept as is, like the database's other
-- credentials' material (backups hold it too). `confirmed_at` is NULL while enrolling:
-- the secret was shown but no code from it has been typed yet. `last_step` is the
-- newest 30-second step a code was accepted for; a code is accepted only for a later
-- step, in one conditional update, so a code works once on every instance.
CREATE TABLE totp_factors (
    user_id      uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret       text NOT NULL,
    confirmed_at timestamptz,
    last_step    bigint NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL
);

-- One-time recovery codes: SHA-256 of each (they are random, 50 bits each), spent by
-- setting `used_at` in one conditional update.
CREATE TABLE recovery_codes (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  text NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, code_hash)
);

-- WebAuthn credentials. `credential` is webauthn-rs's Passkey (public key, counter);
-- `credential_id` (base64url) finds it from a browser's assertion.
CREATE TABLE passkeys (
    id            uuid PRIMARY KEY,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id text NOT NULL UNIQUE,
    name          text NOT NULL,
    credential    jsonb NOT NULL,
    created_at    timestamptz NOT NULL,
    last_used_at  timestamptz
);
CREATE INDEX passkeys_user ON passkeys (user_id);

-- A sign-in or ceremony in progress, keyed by the SHA-256 of the ticket the browser
-- holds: the second step of a sign-in, or a WebAuthn challenge (its state as JSON).
-- In the database so that the step may land on another instance; single use.
CREATE TABLE auth_challenges (
    id         text PRIMARY KEY,
    kind       text NOT NULL,
    user_id    uuid REFERENCES users (id) ON DELETE CASCADE,
    session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
    state      jsonb,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX auth_challenges_expiry ON auth_challenges (expires_at);

-- A session's assurance: when a second factor was last proved in it (NULL: aal1) and
-- which; whether it must enrol one before anything else (an admin requires it).
ALTER TABLE sessions ADD COLUMN factor_at timestamptz;
ALTER TABLE sessions ADD COLUMN factor_kind text;
ALTER TABLE sessions ADD COLUMN enrol_required boolean NOT NULL DEFAULT false;

-- Devices an account has signed in from (SHA-256 of browser and system), so a sign-in
-- from a new one can be mailed.
CREATE TABLE known_devices (
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_hash   text NOT NULL,
    first_seen_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, device_hash)
);

-- Who must have a second factor.
ALTER TABLE installation_settings ADD COLUMN require_factor_admins boolean NOT NULL DEFAULT false;
ALTER TABLE installation_settings ADD COLUMN require_factor_company_leads boolean NOT NULL DEFAULT false;
