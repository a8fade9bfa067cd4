//! Small pools of low-priority threads for CPU-heavy work that runs beside the live
//! path (argon2 for logins, renditions for uploads): work queues here instead of
//! piling threads onto the machine, and when the cores are busy a waking socket
//! thread comes first. Niceness is per thread on Linux and never raised again:
//! unprivileged threads may not, and these threads only do this work.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use tokio::sync::oneshot;

#[derive(Clone)]
pub struct Workers {
    pool: Arc<rayon::ThreadPool>,
}

/// The work panicked (or its pool is gone); the panic was contained to it.
#[derive(Debug)]
pub struct WorkFailed;

impl Workers {
    /// `threads` threads named `name-N`, each at `niceness` (0: normal priority).
    pub fn new(name: &'static str, threads: usize, niceness: i32) -> Result<Workers, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(move |i| format!("{name}-{i}"))
            .start_handler(move |_| lower_priority(niceness))
            .build()?;
        Ok(Workers { pool: Arc::new(pool) })
    }

    /// One thread per core.
    pub fn per_core(name: &'static str, niceness: i32) -> Result<Workers, rayon::ThreadPoolBuildError> {
        Workers::new(name, std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2), niceness)
    }

    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `work` on the pool; a panic in it (a decoder meeting a hostile file, say)
    /// fails this call only: rayon would otherwise abort the process.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, WorkFailed> {
        let (done, result) = oneshot::channel();
        self.pool.spawn(move || {
            let _ = done.send(catch_unwind(AssertUnwindSafe(work)));
        });
        result.await.map_err(|_| WorkFailed)?.map_err(|_| WorkFailed)
    }
}

fn lower_priority(niceness: i32) {
    #[cfg(target_os = "linux")]
    if niceness > 0 {
        // SAFETY: a plain system call on the calling thread (`who` 0 is per thread on
        // Linux); the result is only advisory.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, niceness);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn work_runs_at_the_given_niceness_and_a_panic_stays_in_its_call() {
        let workers = Workers::new("test", 1, 7).unwrap();
        // SAFETY: reads the calling thread's niceness.
        let niceness = workers.run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }).await.unwrap();
        assert_eq!(niceness, 7);
        assert!(workers.run(|| panic!("a hostile file")).await.is_err());
        assert_eq!(workers.run(|| 2 + 2).await.unwrap(), 4, "the pool still works after a panic");
    }
}
