//! argon2id hashing on its own small pool of low-priority threads: a burst of logins
//! queues there instead of piling threads onto the machine or stalling the executor
//! that drives live sockets, and when the cores are busy the live path comes first.

use std::sync::Arc;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::{Error, Result};
use crate::workers::Workers;

/// Niceness of the hashing threads: a login waits a few milliseconds more when the
/// cores are busy, rather than a status change reaching ten thousand homeowners late.
/// With 25 logins a second beside a 1,000-socket fan-out, the fan-out's p99 rose 52%
/// at normal priority and 23% at this one (loadtest/README.md). `SCHED_IDLE` would
/// spare the live path entirely but starve logins behind an upload's renditions.
const HASHING_NICENESS: i32 = 10;

#[derive(Clone)]
pub struct Passwords {
    workers: Workers,
    params: Params,
    /// Verified against when the account does not exist, so an unknown email costs
    /// the same time as a wrong password.
    dummy_hash: Arc<str>,
}

impl Passwords {
    /// OWASP's argon2id setting of 7 MiB, 5 passes, 1 lane: as strong as its 19 MiB,
    /// 2-pass one, but the smaller working set leaves the cache to the live path (a
    /// 25/s login burst raised the fan-out p99 by 8% instead of 30%; DESIGN.md §5).
    pub fn owasp() -> Result<Passwords> {
        Passwords::with_params(owasp_params()?)
    }

    pub fn with_params(params: Params) -> Result<Passwords> {
        let workers = Workers::per_core("argon2", HASHING_NICENESS).map_err(Error::internal)?;
        let dummy_hash = hash_blocking(&params, "sitecast-timing-equaliser")?;
        Ok(Passwords { workers, params, dummy_hash: dummy_hash.into() })
    }

    pub async fn hash(&self, password: &str) -> Result<String> {
        let params = self.params.clone();
        let password = password.to_owned();
        self.run(move || hash_blocking(&params, &password)).await?
    }

    /// Whether `password` matches `hash`; with no hash (unknown user, or an invited user
    /// with no password yet) it does the same work and answers false.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool> {
        let (hash, real) = match hash {
            Some(h) => (h.to_owned(), true),
            None => (self.dummy_hash.to_string(), false),
        };
        let password = password.to_owned();
        let ok = self
            .run(move || {
                PasswordHash::new(&hash)
                    .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
                    .unwrap_or(false)
            })
            .await?;
        Ok(ok && real)
    }

    /// Whether `hash` was made with other settings than ours (an older default, another
    /// algorithm or version), so the next login should store a fresh one. A hash we
    /// cannot read counts as outdated.
    pub fn needs_rehash(&self, hash: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(hash) else { return true };
        let current = parsed.algorithm == Algorithm::Argon2id.ident()
            && parsed.version == Some(Version::V0x13.into())
            && Params::try_from(&parsed).is_ok_and(|p| {
                let ours = &self.params;
                (p.m_cost(), p.t_cost(), p.p_cost(), p.output_len())
                    == (ours.m_cost(), ours.t_cost(), ours.p_cost(), Some(ours.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)))
            });
        !current
    }

    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
        self.workers.run(work).await.map_err(|_| Error::internal("password hashing failed"))
    }
}

fn owasp_params() -> Result<Params> {
    Params::new(7 * 1024, 5, 1, None).map_err(|e| Error::internal(e.to_string()))
}

fn hash_blocking(params: &Params, password: &str) -> Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone())
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_reject() {
        let pw = Passwords::owasp().unwrap();
        let hash = pw.hash("correct horse").await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"));
        assert!(pw.verify("correct horse", Some(&hash)).await.unwrap());
        assert!(!pw.verify("wrong horse", Some(&hash)).await.unwrap());
        assert!(!pw.verify("sitecast-timing-equaliser", None).await.unwrap());
        assert!(!pw.verify("x", Some("not a hash")).await.unwrap());
        assert!(!pw.needs_rehash(&hash));
    }

    #[tokio::test]
    async fn older_settings_still_verify_and_ask_for_a_rehash() {
        let pw = Passwords::owasp().unwrap();
        let old = hash_blocking(&Params::new(19 * 1024, 2, 1, None).unwrap(), "correct horse").unwrap();
        assert!(old.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(pw.verify("correct horse", Some(&old)).await.unwrap(), "verification uses the hash's own settings");
        assert!(pw.needs_rehash(&old));
        let argon2i = Argon2::new(Algorithm::Argon2i, Version::V0x13, owasp_params().unwrap())
            .hash_password(b"correct horse", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(pw.needs_rehash(&argon2i), "same costs, other algorithm");
        assert!(pw.needs_rehash("not a hash"));
    }
}
