//! The outbox worker: one loop that claims due messages from the one outbox and hands
//! each to its kind's sender (`sender::MailSender`, `push::PushSender`), then marks it
//! done or due again.
//!
//! Each kind keeps the rules it had when it had a queue and a worker of its own (a
//! `Lane`): its lease, how many due messages it looks at a time, its backoff, whether
//! it ever gives up, and when it looks again. Mail is retried for as long as it takes
//! (an SMTP outage delays mail, it never drops it); a push is dropped after a few tries
//! (a notification hours late is noise). The kinds never wait on each other: each lane
//! sends one message at a time, as its worker did, and a mail server that hangs holds
//! up mail, not pushes.

use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::{FuturesUnordered, StreamExt};
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::push::PushSender;
use super::sender::MailSender;
use super::Tried;
use crate::store::outbox::{self, OutboxKind, OutboxRow, Queued};
use crate::store::{now_ms, Store};

/// How one kind of message is claimed, retried and looked for.
#[derive(Debug)]
pub struct Lane {
    pub kind: OutboxKind,
    /// How long a worker owns a claimed message before another may try it.
    pub lease_ms: i64,
    /// Due messages looked at per query.
    pub batch: i64,
    /// The wait before the next try, after `attempts` tries.
    pub backoff: fn(i32) -> i64,
    /// Tries after which a message that keeps failing is dropped; `None`: never.
    pub gives_up_after: Option<i32>,
    /// When the lane looks again once nothing of its kind is due.
    pub idle: Idle,
}

#[derive(Debug)]
pub enum Idle {
    /// When the next message falls due, and at most this long (so what another
    /// instance queued is picked up), or as soon as the worker is woken.
    UntilDue { at_most: Duration },
    /// Every so often, whatever is queued.
    Poll(Duration),
}

/// Mail: a lease of two minutes, 20 at a time, 30 s doubling to at most an hour between
/// tries, and never given up.
pub const MAIL: Lane = Lane {
    kind: OutboxKind::Mail,
    lease_ms: 2 * 60 * 1000,
    batch: 20,
    backoff: mail_retry_delay_ms,
    gives_up_after: None,
    idle: Idle::UntilDue { at_most: Duration::from_secs(15) },
};

/// Pushes: a lease of a minute, 50 at a time, 15 s doubling to at most ten minutes
/// between tries, dropped after five; looked for every second, so what another instance
/// queued goes out within one.
pub const PUSH: Lane = Lane {
    kind: OutboxKind::Push,
    lease_ms: 60 * 1000,
    batch: 50,
    backoff: push_retry_delay_ms,
    gives_up_after: Some(5),
    idle: Idle::Poll(Duration::from_secs(1)),
};

/// How long a lane waits after the outbox could not be read.
const UNAVAILABLE_PAUSE: Duration = Duration::from_secs(5);

pub fn mail_retry_delay_ms(attempts: i32) -> i64 {
    let exp = attempts.clamp(1, 8) - 1;
    (30_000i64 << exp).min(3_600_000)
}

pub fn push_retry_delay_ms(attempts: i32) -> i64 {
    (15_000i64 << (attempts.clamp(1, 6) - 1)).min(10 * 60 * 1000)
}

pub struct OutboxWorker {
    pub store: Store,
    pub mail: MailSender,
    /// `None` when pushes are off (the server's push key could not be read): queued
    /// pushes then wait, as they did without a push worker.
    pub push: Option<PushSender>,
    /// Notified after a transaction that queued mail commits (`mail::Outbox::wake`).
    pub wake: Arc<Notify>,
    /// Cancelled when the instance stops: the worker finishes the sends in progress
    /// and returns (`ops::drain`).
    pub stop: CancellationToken,
}

impl OutboxWorker {
    /// The lanes this worker runs: mail always, pushes when it can send them.
    fn lanes(&self) -> Vec<&'static Lane> {
        if self.push.is_some() {
            vec![&MAIL, &PUSH]
        } else {
            vec![&MAIL]
        }
    }

    /// Runs until stopped.
    pub async fn run(self) {
        let this = &self;
        let lanes = self.lanes();
        tracing::info!(transport = %self.mail.describe(), pushes = self.push.is_some(), "outbox worker started");
        // Per lane: whether it is sending now, when it should look next, and whether
        // the worker was woken while it was sending (it then looks again at once).
        let mut busy = vec![false; lanes.len()];
        let mut next_look = vec![Instant::now(); lanes.len()];
        let mut woken = vec![false; lanes.len()];
        let mut sending = FuturesUnordered::new();
        while !self.stop.is_cancelled() {
            let now = Instant::now();
            for (i, lane) in lanes.iter().copied().enumerate() {
                if !busy[i] && next_look[i] <= now {
                    busy[i] = true;
                    woken[i] = false;
                    sending.push(async move { (i, this.turn(lane).await) });
                }
            }
            let wait_until = (0..lanes.len()).filter(|&i| !busy[i]).map(|i| next_look[i]).min().unwrap_or(now + Duration::from_secs(3600));
            tokio::select! {
                Some((i, pause)) = sending.next() => {
                    busy[i] = false;
                    next_look[i] = if woken[i] { Instant::now() } else { Instant::now() + pause };
                }
                // Mail was queued: the lanes that sleep until something is due look now.
                _ = self.wake.notified() => {
                    let now = Instant::now();
                    for (i, lane) in lanes.iter().enumerate() {
                        if !matches!(lane.idle, Idle::UntilDue { .. }) {
                            continue;
                        }
                        if busy[i] {
                            woken[i] = true;
                        } else {
                            next_look[i] = now;
                        }
                    }
                }
                _ = tokio::time::sleep_until(wait_until) => {}
                _ = self.stop.cancelled() => {}
            }
        }
        // Each lane stops before its next claim; what is left stays in the outbox for
        // the next instance.
        while sending.next().await.is_some() {}
        tracing::info!("outbox worker stopped");
    }

    /// Sends every message of the lane's kind that is due now; says how long until the
    /// lane should look again.
    async fn turn(&self, lane: &Lane) -> Duration {
        match self.drain(lane).await {
            Ok(()) => self.idle_time(lane).await,
            Err(err) => {
                tracing::warn!(kind = lane.kind.as_str(), error = %err, "outbox unavailable; retrying");
                UNAVAILABLE_PAUSE
            }
        }
    }

    /// Sends every message of the lane's kind that is due now.
    pub async fn drain(&self, lane: &Lane) -> crate::store::Result<()> {
        loop {
            let now = now_ms();
            let ids = outbox::due_ids(self.store.pool(), lane.kind, now, lane.batch).await?;
            if ids.is_empty() {
                return Ok(());
            }
            for id in ids {
                // Stopping: what is left stays in the outbox for the next instance.
                if self.stop.is_cancelled() {
                    return Ok(());
                }
                if let Some(row) = outbox::claim(self.store.pool(), &id, now, now + lane.lease_ms).await? {
                    self.deliver(lane, row).await?;
                }
            }
        }
    }

    /// Hands one claimed message to its kind's sender, then settles it by the lane's rules.
    async fn deliver(&self, lane: &Lane, row: OutboxRow) -> crate::store::Result<()> {
        let pool = self.store.pool();
        let tried = match (&row.message, &self.push) {
            (Queued::Mail(mail), _) => match self.mail.send(mail).await {
                Ok(()) => Tried::Finished,
                // Mail has no `Refused`: even a recipient the builder refuses is tried
                // again, as it always was, and shows in the outbox's `last_error`.
                Err(error) => Tried::Failed(error),
            },
            (Queued::Push(queued), Some(sender)) => sender.send(queued).await?,
            // Only the push lane claims pushes, and it runs only with a sender; the
            // lease runs out and the push waits, as without a push worker.
            (Queued::Push(_), None) => return Ok(()),
        };
        let kind = row.kind().as_str();
        match tried {
            Tried::Finished => outbox::done(pool, &row.id, now_ms()).await,
            Tried::Failed(error) if lane.gives_up_after.is_none_or(|tries| row.attempts < tries) => {
                tracing::warn!(kind, id = %row.id, attempts = row.attempts, %error, "not sent; will retry");
                outbox::retry(pool, &row.id, &error, now_ms() + (lane.backoff)(row.attempts)).await
            }
            Tried::Failed(error) | Tried::Refused(error) => {
                tracing::warn!(kind, id = %row.id, attempts = row.attempts, %error, "not sent; dropped");
                outbox::done(pool, &row.id, now_ms()).await
            }
        }
    }

    async fn idle_time(&self, lane: &Lane) -> Duration {
        match lane.idle {
            Idle::Poll(every) => every,
            Idle::UntilDue { at_most } => match outbox::next_due_at(self.store.pool(), lane.kind).await {
                Ok(Some(at)) => Duration::from_millis((at - now_ms()).clamp(50, at_most.as_millis() as i64) as u64),
                _ => at_most,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_backoff_doubles_and_caps() {
        assert_eq!(mail_retry_delay_ms(1), 30_000);
        assert_eq!(mail_retry_delay_ms(2), 60_000);
        assert_eq!(mail_retry_delay_ms(4), 240_000);
        assert_eq!(mail_retry_delay_ms(8), 3_600_000);
        assert_eq!(mail_retry_delay_ms(50), 3_600_000);
    }

    #[test]
    fn push_backoff_doubles_and_caps() {
        assert_eq!(push_retry_delay_ms(1), 15_000);
        assert_eq!(push_retry_delay_ms(2), 30_000);
        assert_eq!(push_retry_delay_ms(4), 120_000);
        assert_eq!(push_retry_delay_ms(9), 480_000);
    }

    /// The rules each kind had with a worker of its own.
    #[test]
    fn each_kind_keeps_its_rules() {
        assert_eq!((MAIL.lease_ms, MAIL.batch, MAIL.gives_up_after), (120_000, 20, None));
        assert!(matches!(MAIL.idle, Idle::UntilDue { at_most } if at_most == Duration::from_secs(15)));
        assert_eq!((PUSH.lease_ms, PUSH.batch, PUSH.gives_up_after), (60_000, 50, Some(5)));
        assert!(matches!(PUSH.idle, Idle::Poll(every) if every == Duration::from_secs(1)));
    }
}
