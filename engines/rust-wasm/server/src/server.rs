//! The server on top: builds the node and its core driver, opens the listeners, starts the
//! peer links, logs status lines and stops cleanly on a signal.

use crate::client::serve_client;
use crate::config::{die, Args, ServerConfig};
use crate::core_driver::{Core, Shared};
use crate::limits::*;
use crate::outbound::PeerLink;
use crate::persister::Persister;
use crate::peer::{peer_writer, serve_peer};
use crate::status::{group_mean, read_core_view, status_line, DriverCounters};
use crate::wal::{parse_fsync_policy, Wal};
use replicant_core::codec::decode_record_json;
use replicant_core::{Config, Durability, Event, Node};
use replicant_runtimestats::{stats_json, CountingAlloc};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

impl Shared {
    pub(crate) fn stats(&self, alloc: &CountingAlloc<tikv_jemallocator::Jemalloc>) -> String {
        let c = self.core.lock().unwrap_or_else(|p| p.into_inner()).node.counters().clone();
        stats_json(
            "jemalloc",
            alloc.snapshot(),
            &[
                ("events", c.events),
                ("messages_in", c.messages_in),
                ("messages_out", c.messages_out),
                ("executed", c.executed),
                ("dropped_sends", self.counters.dropped_sends.load(Ordering::Relaxed)),
                ("garbage_frames", self.counters.garbage_frames.load(Ordering::Relaxed)),
            ],
        )
    }

    /// Logs the status line every `every` (--status-interval-ms; STATUS_INTERVAL by default),
    /// and says when a limit turned work away in the last interval.
    pub(crate) async fn run_status(self: Arc<Self>, every: Duration) {
        let c = &self.counters;
        let (mut shed, mut dropped, mut refused, mut groups, mut batches) = (0, 0, 0, 0, 0);
        loop {
            tokio::time::sleep(every).await;
            let view = read_core_view(&self.core.lock().unwrap_or_else(|p| p.into_inner()).node.status_fields());
            let n = c.shed_retries.load(Ordering::Relaxed);
            if n > shed {
                self.log(&format!(
                    "limit: answered {} client requests retry (in flight: {} of {MAX_IN_FLIGHT_TOTAL} per node, {MAX_IN_FLIGHT_PER_CLIENT} per connection)",
                    n - shed,
                    c.in_flight.load(Ordering::Relaxed)
                ));
                shed = n;
            }
            let n = c.dropped_sends.load(Ordering::Relaxed);
            if n > dropped {
                self.log(&format!("limit: dropped {} peer messages (link down or over {} MiB queued)", n - dropped, MAX_PEER_QUEUE_BYTES >> 20));
                dropped = n;
            }
            let n = c.clients_refused.load(Ordering::Relaxed);
            if n > refused {
                self.log(&format!("limit: refused {} client connections ({MAX_CLIENTS} open)", n - refused));
                refused = n;
            }
            let (g, b) = (c.wal_groups.load(Ordering::Relaxed), c.wal_batches.load(Ordering::Relaxed));
            self.log(&status_line(&view, c, &group_mean(g - groups, b - batches)));
            (groups, batches) = (g, b);
            c.timer_late_max_us.store(0, Ordering::Relaxed);
        }
    }
}

pub(crate) async fn bind(addr: SocketAddr, what: &str) -> TcpListener {
    TcpListener::bind(addr).await.unwrap_or_else(|e| die(&format!("cannot listen for {what} on {addr}: {e}")))
}

pub(crate) async fn run(args: Args, cfg: ServerConfig, alloc: &'static CountingAlloc<tikv_jemallocator::Jemalloc>) {
    let id = args.id;
    let num_peers = cfg.peers.len() as u64;
    let mut node_cfg = Config {
        id,
        num_peers,
        seed: args.seed.unwrap_or(id + 1),
        commit_interval_us: cfg.commit_interval_ms * 1000,
        check_quorum: cfg.check_quorum,
        repair_batch: replicant_core::config::SERVER_REPAIR_BATCH,
        election_batch: replicant_core::config::SERVER_ELECTION_BATCH,
        log_bound: args.log_bound,
        trace: args.verbose,
        max_pending_accepts: MAX_PENDING_ACCEPTS,
        ..Config::default()
    };
    if let Err(e) = node_cfg.validate() {
        die(&e);
    }
    // --data-dir: durability log, its write-ahead log read back before anything else happens
    let mut wal = None;
    let mut restart = Vec::new();
    if let Some(dir) = &args.data_dir {
        let policy = parse_fsync_policy(&args.fsync).unwrap_or_else(|e| die(&e));
        let (w, read) = Wal::open(std::path::Path::new(dir), policy).unwrap_or_else(|e| die(&e));
        if let Some(warning) = &read.warning {
            crate::log_line::log(id, &format!("warning: {warning}"));
        }
        for (i, raw) in read.records.iter().enumerate() {
            let r = decode_record_json(raw)
                .unwrap_or_else(|_| die(&format!("{}: record {i} (a good checksum) is not a record", w.path().display())));
            restart.push(r);
        }
        node_cfg.durability = Durability::Log;
        node_cfg.snapshot_every = args.snapshot_every;
        wal = Some(w);
    }
    let peer_addr = cfg.peers[id as usize];
    let peer_listener = crate::peer::listen_for_peers(peer_addr).unwrap_or_else(|e| die(&format!("cannot listen for peers on {peer_addr}: {e}")));
    let client_listener = bind(cfg.clients[id as usize], "clients").await;

    let peers = (0..num_peers).map(|p| (p != id).then(PeerLink::new)).collect();
    let shared = Arc::new(Shared {
        id,
        num_peers,
        core: Mutex::new(Core {
            node: Node::new(node_cfg),
            timer_generation: [0; 2],
            timer_deadline: [Instant::now(); 2],
            clients: HashMap::new(),
            in_flight: 0,
        }),
        peers,
        verbose: args.verbose,
        test_peer_reset: args.test_peer_reset,
        commit_interval_ms: cfg.commit_interval_ms,
        counters: DriverCounters::default(),
        persister: wal.is_some().then(Persister::default),
    });
    if let Some(mut wal) = wal {
        // the persister's thread: blocking writes and fsyncs, off the core lock and the runtime
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            let p = shared.persister.as_ref().expect("a persister beside the log");
            let ended = p.run(|frames, checkpoint| wal.append_group(frames, checkpoint), |id, batches| {
                shared.counters.note_wal_group(batches);
                shared.step(Event::Persisted(id))
            });
            if let Err(err) = ended {
                shared.log(&format!("write-ahead log: {err}; stopping: a node that cannot persist must not answer"));
                std::process::exit(1);
            }
        });
    }
    // The restart (or start) is stepped before any peer, client or timer can reach the core:
    // before its restart a node has not read its disk, and a promise it gave would carry none of
    // the slots it accepted (docs/protocol.md, "Nothing before restart"; nemesis java seed 371).
    if args.data_dir.is_some() {
        let count = restart.len();
        let mut core = shared.core.lock().unwrap_or_else(|p| p.into_inner());
        let bad_before = core.node.counters().bad_events;
        shared.step_locked(&mut core, Event::Restart(restart));
        if core.node.counters().bad_events != bad_before {
            die("the core refused the write-ahead log's records (a record no node could have written)");
        }
        drop(core);
        shared.log(&format!("restarted from {}: {count} records", args.data_dir.as_deref().unwrap_or("")));
    } else {
        shared.step(Event::Start);
    }
    for p in (0..num_peers).filter(|&p| p != id) {
        tokio::spawn(peer_writer(Arc::clone(&shared), p, cfg.peers[p as usize]));
    }
    tokio::spawn(Arc::clone(&shared).run_status(Duration::from_millis(args.status_interval_ms)));
    {
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            loop {
                match peer_listener.accept().await {
                    Ok((stream, addr)) => {
                        tokio::spawn(serve_peer(Arc::clone(&shared), stream, addr));
                    }
                    Err(e) => {
                        shared.log(&format!("accepting a peer: {e}"));
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            }
        });
    }
    if let Some(every) = args.stats_every_s {
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(every)).await;
                shared.log(&format!("stats {}", shared.stats(alloc)));
            }
        });
    }
    shared.log(&format!(
        "node {id} of {num_peers}: peers on {}, clients on {}, commit interval {} ms",
        cfg.peers[id as usize], cfg.clients[id as usize], cfg.commit_interval_ms
    ));
    {
        let shared = Arc::clone(&shared);
        crate::stop_signals::serving(move |name| stop(&shared, alloc, name));
    }
    // client ids id + n·k with k = 1, 2, … (as the Go server numbers them)
    let mut k = 1u64;
    loop {
        match client_listener.accept().await {
            Ok((mut stream, _)) => {
                if shared.counters.clients.load(Ordering::Relaxed) >= MAX_CLIENTS {
                    shared.counters.clients_refused.fetch_add(1, Ordering::Relaxed);
                    tokio::spawn(async move {
                        let _ = stream.write_all(b"retry\n").await;
                    });
                    continue;
                }
                shared.counters.clients.fetch_add(1, Ordering::Relaxed);
                let client_id = id + num_peers * k;
                k += 1;
                tokio::spawn(serve_client(Arc::clone(&shared), stream, client_id));
            }
            Err(e) => {
                shared.log(&format!("accepting a client: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// SIGTERM or SIGINT once serving ends the node cleanly, status 0, as the other servers do: what
/// it has acknowledged is already on the peers (and, with --data-dir, on disk before it was
/// answered).
fn stop(shared: &Shared, alloc: &'static CountingAlloc<tikv_jemallocator::Jemalloc>, name: &str) {
    shared.log(&format!("stopping on {name}; stats {}", shared.stats(alloc)));
    std::process::exit(0);
}
