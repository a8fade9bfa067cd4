//! The failed-login limit (DESIGN.md §5): five wrong passwords lock an account, twenty
//! lock a client address, each for the rest of a 15-minute window. The counts live in
//! the database, so the limit holds across instances: guesses spread over several
//! instances fill one window.
//!
//! An attempt is counted *before* its password is checked, and the count decides
//! whether the check happens at all. Checking first and recording after would let
//! concurrent guesses all pass the check before any of them was recorded; counting
//! first, in one atomic step per key, means at most five passwords are ever checked
//! per account per window. A right answer hands its own slots back, so only failures
//! use up the limit.
//!
//! Wrong second-factor codes count against the same account window, and only a
//! *completed* sign-in clears it. A right password for an account with a second factor
//! is not one: were it to clear the count, password + four wrong codes, repeated,
//! would check codes without end.

use std::time::Duration;

use crate::domain::shared::limiter::minutes;
use crate::domain::shared::secrets::hash_token;
use crate::error::{Error, Result};
use crate::store::login_failures::{self, Window};
use crate::store::{now_ms, Store, Tx};

const WINDOW: Duration = Duration::from_secs(15 * 60);
const PER_ACCOUNT: i64 = 5;
const PER_ADDRESS: i64 = 20;

/// An attempt counted against both keys, waiting for the password check's verdict.
/// An attempt that never gets one (an error, a dropped request) stays counted: failing
/// to finish a guess must not be a way around the limit.
#[must_use = "a counted attempt is settled by `succeeded`, or stays a failure"]
pub struct Attempt {
    account: String,
    account_window: Window,
    address: String,
    address_window: Window,
}

/// Counts the attempt, or refuses it with the "Too many failed login attempts" error
/// when the account or the address has used up its window. A refused attempt is not
/// counted (its transaction rolls back), so a lock ends when its window does, however
/// often it is knocked on.
pub async fn admit(store: &Store, email: &str, address: &str) -> Result<Attempt> {
    let account = account_key(email);
    let address = hash_token(&format!("address:{address}"));
    let now = now_ms();
    let window_ms = WINDOW.as_millis() as i64;
    // Account before address in every transaction, so two of them never wait on each
    // other's rows in opposite orders.
    let mut tx = store.begin_write().await?;
    let account_window = login_failures::count_attempt(&mut *tx, &account, now, window_ms).await?;
    let address_window = login_failures::count_attempt(&mut *tx, &address, now, window_ms).await?;
    let locked = [(account_window, PER_ACCOUNT), (address_window, PER_ADDRESS)]
        .into_iter()
        .find(|(window, max)| window.attempts > *max);
    if let Some((window, _)) = locked {
        tx.rollback().await?;
        let wait = Duration::from_millis(u64::try_from(window.ends_at - now).unwrap_or(0));
        return Err(Error::rate_limited(
            format!("Too many failed login attempts. Please try again in {} minutes.", minutes(wait)),
            wait,
        ));
    }
    tx.commit().await?;
    Ok(Attempt { account, account_window, address, address_window })
}

/// The sign-in is complete (the password of an account without a second factor, or
/// the second step): the account starts afresh and the address gets its slot back.
pub async fn succeeded(store: &Store, attempt: Attempt) -> Result<()> {
    let mut tx = store.begin_write().await?;
    login_failures::clear(&mut *tx, &attempt.account).await?;
    login_failures::give_back(&mut *tx, &attempt.address, attempt.address_window.ends_at).await?;
    tx.commit().await?;
    Ok(())
}

/// The password was right but a second step follows: this attempt was no failure, so
/// both keys get its slot back, and the account keeps the failures it had (wrong codes
/// included) until a sign-in completes.
pub async fn passed_first_step(store: &Store, attempt: Attempt) -> Result<()> {
    let mut tx = store.begin_write().await?;
    login_failures::give_back(&mut *tx, &attempt.account, attempt.account_window.ends_at).await?;
    login_failures::give_back(&mut *tx, &attempt.address, attempt.address_window.ends_at).await?;
    tx.commit().await?;
    Ok(())
}

/// A sign-in completed without a counted attempt (a passkey): the account starts afresh.
pub async fn completed(store: &Store, email: &str) -> Result<()> {
    login_failures::clear(store.pool(), &account_key(email)).await?;
    Ok(())
}

/// Lifts an account's lock, in the transaction that sets a new password.
pub async fn clear_account(tx: &mut Tx, email: &str) -> Result<()> {
    login_failures::clear(&mut **tx, &account_key(email)).await?;
    Ok(())
}

fn account_key(email: &str) -> String {
    hash_token(&format!("account:{email}"))
}
