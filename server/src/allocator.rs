//! The process's allocator, chosen here so every binary linking the server (the
//! server itself, its tests, the load clients' in-process renditions) measures the same.
//!
//! jemalloc: many small long-lived allocations per socket and argon2's 7 MiB blocks;
//! glibc's per-thread arenas kept both around (see loadtest/README.md, connections).

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc gives allocations past 8 MiB an arena of their own that hands pages back
/// to the kernel at once, so every photo's 36 MB decode buffer was faulted in afresh
/// (8% of rendition throughput). Without that arena they decay like any freed memory
/// (over 10 s): reused while photos keep coming, returned when they stop. Read by
/// jemalloc at start-up; the name carries tikv-jemalloc-sys's symbol prefix.
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: &[u8; 21] = b"oversize_threshold:0\0";

#[cfg(test)]
mod tests {
    #[test]
    fn jemalloc_reads_our_configuration() {
        // SAFETY: jemalloc documents opt.oversize_threshold as a size_t.
        let threshold: usize =
            unsafe { tikv_jemalloc_ctl::raw::read(b"opt.oversize_threshold\0") }.unwrap_or(usize::MAX);
        assert_eq!(threshold, 0);
        assert_eq!(super::MALLOC_CONF.last(), Some(&0));
    }
}
