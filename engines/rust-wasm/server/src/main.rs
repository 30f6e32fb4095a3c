//! replicant-server: one Replicant node as a native TCP server (docs/protocol.md, "Native
//! servers"). The sans-IO core does the protocol; this driver owns sockets, timers and threads:
//!
//! - Tokio's multi-threaded runtime; a task per client connection, a task per incoming peer
//!   connection, a writer task per outgoing peer link (it reconnects with back-off), and a task
//!   per armed timer;
//! - every call into the core goes through one mutex (like Replicant's Log mutex), and the
//!   effects of a step are dispatched under it, so each link keeps the core's order;
//! - TCP_NODELAY on every socket; jemalloc as the global allocator, counted by
//!   [`CountingAlloc`].

mod client;
mod config;
mod core_driver;
mod limits;
mod line_reader;
mod log_line;
mod outbound;
mod peer;
mod peer_reset;
mod server;
mod status;
mod persister;
mod stop_signals;
mod wal;

use config::{die, parse_args, parse_config, Args, ServerConfig};
use replicant_runtimestats::CountingAlloc;

#[global_allocator]
static ALLOC: CountingAlloc<tikv_jemallocator::Jemalloc> = CountingAlloc::new(tikv_jemallocator::Jemalloc);

/// jemalloc keeps freed pages for 10 s by default (dirty_decay_ms) before it returns them to the
/// kernel. Under a cgroup memory limit of a few MiB over the data (the benchmark's ratio 1.25 at
/// small scale) those pages are the node's problem: they are anonymous memory the kernel cannot
/// reclaim, so they count against the limit like live data. How many there are is the
/// allocation churn (≈ 4 KB per operation at the leader) × the decay time, so it moves with the
/// rate and the machine's load: at 1 s (this server until issue 16's CI failure) they were 4–6 MiB
/// per node at 12–17 Kops/s, more than the 5,000-record data set they sat beside, and a footprint
/// measured in one run did not hold in the next (bench/src/memory-limit.native.test.ts). At 0 a
/// freed page goes back at once: what a node holds is what it uses (docs/benchmarks.md, "Memory
/// limits"). The background thread stays for the purges jemalloc still defers (muzzy pages: 0).
/// jemalloc reads this symbol at start-up (tikv-jemallocator prefixes jemalloc's names with
/// `_rjem_`); `_RJEM_MALLOC_CONF` in the environment overrides it, for A/B runs.
#[allow(non_upper_case_globals)]
#[export_name = "_rjem_malloc_conf"]
pub static malloc_conf: &[u8] = b"background_thread:true,dirty_decay_ms:0,muzzy_decay_ms:0\0";

fn main() {
    stop_signals::watch();
    let args: Args = parse_args(std::env::args().skip(1)).unwrap_or_else(|e| die(&e));
    let text = std::fs::read(&args.config_path)
        .unwrap_or_else(|e| die(&format!("cannot read configuration {}: {e}", args.config_path)));
    let cfg: ServerConfig =
        parse_config(&text).unwrap_or_else(|e| die(&format!("bad configuration {}: {e}", args.config_path)));
    if args.id >= cfg.peers.len() as u64 {
        die(&format!("bad id {}: the configuration lists {} peers (ids 0..{})", args.id, cfg.peers.len(), cfg.peers.len() - 1));
    }
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    rt.enable_io().enable_time().thread_name("replicant");
    if let Some(t) = args.threads {
        rt.worker_threads(t);
    }
    let rt = rt.build().unwrap_or_else(|e| die(&format!("cannot start the runtime: {e}")));
    rt.block_on(server::run(args, cfg, &ALLOC));
}

#[cfg(test)]
mod tests {
    /// Resident bytes of this process (/proc/self/statm's second field, in pages).
    fn rss_bytes() -> usize {
        let statm = std::fs::read_to_string("/proc/self/statm").expect("statm");
        let pages: usize = statm.split_whitespace().nth(1).expect("resident").parse().expect("number");
        pages * 4096
    }

    /// Freed memory goes back to the kernel at once (dirty_decay_ms:0 in `malloc_conf`): with
    /// jemalloc's default, or the 1 s this server had before, the 32 MiB freed here stay resident.
    #[test]
    fn freed_pages_return_to_the_kernel_at_once() {
        const CHUNK: usize = 256 << 10; // large allocations: past jemalloc's thread cache
        const TOTAL: usize = 32 << 20;
        let before = rss_bytes();
        let mut chunks: Vec<Vec<u8>> = (0..TOTAL / CHUNK).map(|i| vec![(i % 251) as u8 + 1; CHUNK]).collect();
        let touched: usize = chunks.iter().map(|c| c[CHUNK - 1] as usize).sum();
        assert!(touched > 0);
        let held = rss_bytes();
        assert!(held >= before + TOTAL / 2, "the chunks were resident: {before} → {held} bytes");
        chunks.clear();
        chunks.shrink_to_fit();
        let after = rss_bytes();
        assert!(after < before + TOTAL / 4, "freed {TOTAL} bytes but resident went {before} → {held} → {after}");
    }
}
