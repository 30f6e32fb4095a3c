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
mod server;
mod status;
mod persister;
mod wal;

use config::{die, parse_args, parse_config, Args, ServerConfig};
use replicant_runtimestats::CountingAlloc;

#[global_allocator]
static ALLOC: CountingAlloc<tikv_jemallocator::Jemalloc> = CountingAlloc::new(tikv_jemallocator::Jemalloc);

/// jemalloc keeps freed pages for 10 s by default (dirty_decay_ms), and purges them only when
/// an arena is touched again. Under a cgroup memory limit of a few MiB over the data (the
/// benchmark's ratio 1.25 at small scale) that retained churn is what gets a node OOM-killed,
/// so a background thread returns freed pages within a second. jemalloc reads this symbol at
/// start-up (tikv-jemallocator prefixes jemalloc's names with `_rjem_`).
#[allow(non_upper_case_globals)]
#[export_name = "_rjem_malloc_conf"]
pub static malloc_conf: &[u8] = b"background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

fn main() {
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
