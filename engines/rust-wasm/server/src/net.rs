//! Sockets, timers and the serialized core.

use crate::config::{Args, ServerConfig};
use crate::die;
use crate::limits::*;
use crate::status::{read_core_view, status_line, DriverCounters};
use crate::wal::{parse_fsync_policy, Wal};
use replicant_core::codec::decode_record_json;
use replicant_core::{append_effect, append_message, decode_message, reply_line, Config, Durability, Effect, Event, Node, TimerName};
use replicant_runtimestats::{stats_json, CountingAlloc};
use std::collections::{HashMap, VecDeque};
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::{mpsc, Notify};

/// How long a client that closed its sending side may wait for replies still in flight.
const CLIENT_DRAIN: Duration = Duration::from_secs(5);

/// One client's reply path: lines go to its writer task; `backlog` counts the bytes not yet
/// written, and the writer notifies `drained` after each write.
struct ClientOut {
    tx: mpsc::UnboundedSender<Vec<u8>>,
    backlog: Arc<AtomicUsize>,
    /// requests in the core, not yet answered
    in_flight: u64,
}

/// The node and what its effects are routed to; always behind `Shared::core`.
struct Core {
    node: Node,
    /// Per timer: bumped by every set and cancel, so a sleeping timer task knows it is stale.
    timer_generation: [u64; 2],
    timer_deadline: [Instant; 2],
    clients: HashMap<u64, ClientOut>,
    /// client requests in the core, over all connections
    in_flight: u64,
    /// durability log: the write-ahead log every persist effect goes to first
    wal: Option<Wal>,
}

/// Messages waiting for one peer's writer task; bounded in bytes, oldest dropped first.
struct PeerQueue {
    queue: VecDeque<Vec<u8>>,
    bytes: usize,
    /// connected: messages are queued only while true
    up: bool,
}

struct PeerLink {
    state: Mutex<PeerQueue>,
    wake: Notify,
}

pub struct Shared {
    id: u64,
    num_peers: u64,
    core: Mutex<Core>,
    peers: Vec<Option<PeerLink>>,
    verbose: bool,
    commit_interval_ms: u64,
    counters: DriverCounters,
}

fn timer_slot(t: TimerName) -> usize {
    match t {
        TimerName::Election => 0,
        TimerName::Commit => 1,
    }
}

impl PeerLink {
    fn enqueue(&self, line: Vec<u8>, c: &DriverCounters) {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if !q.up {
            c.dropped_sends.fetch_add(1, Ordering::Relaxed);
            return;
        }
        while !q.queue.is_empty() && q.bytes + line.len() > MAX_PEER_QUEUE_BYTES {
            let old = q.queue.pop_front().map_or(0, |m| m.len());
            q.bytes -= old;
            c.peer_queue_bytes.fetch_sub(old as i64, Ordering::Relaxed);
            c.dropped_sends.fetch_add(1, Ordering::Relaxed);
        }
        q.bytes += line.len();
        c.peer_queue_bytes.fetch_add(line.len() as i64, Ordering::Relaxed);
        q.queue.push_back(line);
        drop(q);
        self.wake.notify_one();
    }

    /// Marks the link connected or not; going down drops what is queued.
    fn set_up(&self, up: bool, c: &DriverCounters) {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        q.up = up;
        if !up {
            c.dropped_sends.fetch_add(q.queue.len() as u64, Ordering::Relaxed);
            c.peer_queue_bytes.fetch_sub(q.bytes as i64, Ordering::Relaxed);
            q.queue.clear();
            q.bytes = 0;
        }
    }

    /// Takes up to about 1 MiB of queued messages as one batch.
    fn take_batch(&self, c: &DriverCounters) -> Vec<u8> {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let mut batch = Vec::new();
        while batch.len() < (1 << 20) {
            let Some(m) = q.queue.pop_front() else { break };
            q.bytes -= m.len();
            c.peer_queue_bytes.fetch_sub(m.len() as i64, Ordering::Relaxed);
            batch.extend_from_slice(&m);
        }
        batch
    }
}

impl Shared {
    fn log(&self, msg: &str) {
        eprintln!("replicant-server[{}]: {msg}", self.id);
    }

    /// Steps the core with one event and dispatches its effects, all under the lock.
    fn step(self: &Arc<Self>, ev: Event) {
        let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
        self.step_locked(&mut core, ev);
    }

    fn step_locked(self: &Arc<Self>, core: &mut Core, ev: Event) {
        let Core { node, timer_generation, timer_deadline, clients, in_flight, wal } = core;
        let mut persisted = 0;
        for e in node.step(ev) {
            match e {
                Effect::Persist { persist_id, records } => {
                    // On disk (and synced, by policy) before the core hears it is done, so
                    // nothing that reveals these records leaves first.
                    if let Some(w) = wal.as_mut() {
                        if let Err(err) = w.append(records) {
                            self.log(&format!("write-ahead log: {err}; stopping: a node that cannot persist must not answer"));
                            std::process::exit(1);
                        }
                    }
                    persisted = *persist_id;
                }
                Effect::Send(m) => {
                    let Some(Some(link)) = self.peers.get(m.to as usize) else { continue };
                    let mut line = Vec::with_capacity(128);
                    append_message(&mut line, m);
                    line.push(b'\n');
                    link.enqueue(line, &self.counters);
                }
                Effect::Reply { client_id, result, .. } => {
                    // A client that has gone took its requests off the count.
                    if let Some(c) = clients.get_mut(client_id) {
                        if c.in_flight > 0 {
                            c.in_flight -= 1;
                            *in_flight -= 1;
                            self.counters.in_flight.store(*in_flight, Ordering::Relaxed);
                        }
                        let mut line = reply_line(result).into_bytes();
                        line.push(b'\n');
                        c.backlog.fetch_add(line.len(), Ordering::Relaxed);
                        let _ = c.tx.send(line);
                    }
                }
                // Rust has no collector to announce: the server never sends gc_pending, so
                // the core never asks it to collect.
                Effect::Collect { .. } => {}
                Effect::SetTimer { timer, delay_us } => {
                    let slot = timer_slot(*timer);
                    timer_generation[slot] += 1;
                    let generation = timer_generation[slot];
                    let (me, timer, delay) = (Arc::clone(self), *timer, Duration::from_micros(*delay_us));
                    timer_deadline[slot] = Instant::now() + delay;
                    tokio::spawn(async move {
                        tokio::time::sleep(delay).await;
                        me.fire(timer, generation);
                    });
                }
                Effect::CancelTimer(timer) => timer_generation[timer_slot(*timer)] += 1,
                Effect::Trace(_) | Effect::Error => {
                    if self.verbose || matches!(e, Effect::Error) {
                        let mut line = Vec::new();
                        append_effect(&mut line, e);
                        self.log(&String::from_utf8_lossy(&line));
                    }
                }
            }
        }
        if persisted != 0 {
            self.step_locked(core, Event::Persisted(persisted));
        }
    }

    /// A timer's sleep ended: feed the core a timer event unless it was re-armed or cancelled.
    fn fire(self: &Arc<Self>, timer: TimerName, generation: u64) {
        let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
        let slot = timer_slot(timer);
        if core.timer_generation[slot] != generation {
            return;
        }
        core.timer_generation[slot] += 1; // one timer per name: this one is used up
        self.counters.note_timer_lateness(core.timer_deadline[slot]);
        self.step_locked(&mut core, Event::Timer(timer));
    }

    /// Hands one client request to the core, or answers `retry` itself when the connection or
    /// the node already has as many requests in the core as the limits allow.
    fn client_line(self: &Arc<Self>, client_id: u64, request_id: u64, line: Vec<u8>) {
        let mut guard = self.core.lock().unwrap_or_else(|p| p.into_inner());
        let core = &mut *guard;
        let total = core.in_flight;
        let Some(c) = core.clients.get_mut(&client_id) else { return };
        if c.in_flight < MAX_IN_FLIGHT_PER_CLIENT && total < MAX_IN_FLIGHT_TOTAL {
            c.in_flight += 1;
            core.in_flight += 1;
            self.counters.in_flight.store(core.in_flight, Ordering::Relaxed);
            self.step_locked(core, Event::Client { client_id, request_id, line });
            return;
        }
        self.counters.shed_retries.fetch_add(1, Ordering::Relaxed);
        c.backlog.fetch_add(6, Ordering::Relaxed);
        let _ = c.tx.send(b"retry\n".to_vec());
    }

    fn stats(&self, alloc: &CountingAlloc<tikv_jemallocator::Jemalloc>) -> String {
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

    /// Logs the status line every STATUS_INTERVAL, and says when a limit turned work away in
    /// the last interval.
    async fn run_status(self: Arc<Self>) {
        let c = &self.counters;
        let (mut shed, mut dropped, mut refused) = (0, 0, 0);
        loop {
            tokio::time::sleep(STATUS_INTERVAL).await;
            let view = read_core_view(&self.core.lock().unwrap_or_else(|p| p.into_inner()).node.inspect());
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
            self.log(&status_line(&view, c));
            c.timer_late_max_us.store(0, Ordering::Relaxed);
        }
    }
}

pub enum LineRead {
    Complete,
    TooLong,
    Eof,
}

/// Reads one `\n`-terminated line (without the `\n`) into `buf`, refusing lines longer than
/// `limit`. A last line without `\n` before end of input counts as a line.
pub async fn read_line_limited<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>, limit: usize) -> io::Result<LineRead> {
    buf.clear();
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            return Ok(if buf.is_empty() { LineRead::Eof } else { LineRead::Complete });
        }
        if let Some(i) = avail.iter().position(|&c| c == b'\n') {
            if buf.len() + i > limit {
                r.consume(i + 1);
                return Ok(LineRead::TooLong);
            }
            buf.extend_from_slice(&avail[..i]);
            r.consume(i + 1);
            return Ok(LineRead::Complete);
        }
        let n = avail.len();
        if buf.len() + n > limit {
            r.consume(n);
            return Ok(LineRead::TooLong);
        }
        buf.extend_from_slice(avail);
        r.consume(n);
    }
}

fn shown(line: &[u8]) -> String {
    let cut = &line[..line.len().min(160)];
    format!("{:?}{}", String::from_utf8_lossy(cut), if line.len() > 160 { "…" } else { "" })
}

/// One client connection: lines in, replies out (in a writer task). While more than
/// MAX_REPLY_BACKLOG_BYTES of replies wait unwritten, its requests are not read.
async fn serve_client(shared: Arc<Shared>, stream: TcpStream, client_id: u64) {
    let _ = stream.set_nodelay(true);
    let (rd, mut wr) = stream.into_split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let backlog = Arc::new(AtomicUsize::new(0));
    let drained = Arc::new(Notify::new());
    shared
        .core
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clients
        .insert(client_id, ClientOut { tx: tx.clone(), backlog: Arc::clone(&backlog), in_flight: 0 });
    let writer = {
        let (backlog, drained) = (Arc::clone(&backlog), Arc::clone(&drained));
        tokio::spawn(async move {
            while let Some(mut batch) = rx.recv().await {
                while let Ok(more) = rx.try_recv() {
                    batch.extend_from_slice(&more);
                }
                if wr.write_all(&batch).await.is_err() {
                    break;
                }
                backlog.fetch_sub(batch.len(), Ordering::Relaxed);
                drained.notify_one();
            }
            let _ = wr.shutdown().await;
        })
    };
    let mut reader = BufReader::with_capacity(1 << 16, rd);
    let mut line = Vec::new();
    let mut request_id = 0u64;
    loop {
        if backlog.load(Ordering::Relaxed) >= MAX_REPLY_BACKLOG_BYTES {
            shared.counters.reads_paused.fetch_add(1, Ordering::Relaxed);
            while backlog.load(Ordering::Relaxed) >= MAX_REPLY_BACKLOG_BYTES && !writer.is_finished() {
                let _ = tokio::time::timeout(Duration::from_millis(200), drained.notified()).await;
            }
        }
        match read_line_limited(&mut reader, &mut line, MAX_CLIENT_LINE).await {
            Ok(LineRead::Complete) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                request_id += 1;
                shared.client_line(client_id, request_id, std::mem::take(&mut line));
            }
            Ok(LineRead::TooLong) => {
                shared.log(&format!("client {client_id}: line longer than {MAX_CLIENT_LINE} bytes; closing"));
                let _ = tx.send(b"bad command\n".to_vec());
                break;
            }
            Ok(LineRead::Eof) | Err(_) => break,
        }
    }
    // The client stopped sending: give replies still in flight a moment to arrive.
    let deadline = tokio::time::Instant::now() + CLIENT_DRAIN;
    loop {
        let waiting = shared.core.lock().unwrap_or_else(|p| p.into_inner()).clients.get(&client_id).map_or(0, |c| c.in_flight);
        if waiting == 0 || writer.is_finished() || tokio::time::Instant::now() >= deadline {
            break;
        }
        let _ = tokio::time::timeout(Duration::from_millis(50), drained.notified()).await;
    }
    {
        let mut core = shared.core.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = core.clients.remove(&client_id) {
            core.in_flight -= c.in_flight;
            shared.counters.in_flight.store(core.in_flight, Ordering::Relaxed);
        }
    }
    drop(tx);
    let _ = writer.await;
    shared.counters.clients.fetch_sub(1, Ordering::Relaxed);
}

/// One connection another node opened to us: its messages, one per line.
async fn serve_peer(shared: Arc<Shared>, stream: TcpStream, addr: SocketAddr) {
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::with_capacity(1 << 16, stream);
    let mut line = Vec::new();
    loop {
        match read_line_limited(&mut reader, &mut line, MAX_PEER_LINE).await {
            Ok(LineRead::Complete) => match decode_message(&line) {
                Err(e) => {
                    shared.counters.garbage_frames.fetch_add(1, Ordering::Relaxed);
                    shared.log(&format!("dropped a peer frame from {addr} ({e}): {}", shown(&line)));
                }
                Ok(m) if m.to != shared.id || m.from >= shared.num_peers || m.from == shared.id => {
                    shared.counters.garbage_frames.fetch_add(1, Ordering::Relaxed);
                    shared.log(&format!("dropped a message from {addr} with from={} to={}", m.from, m.to));
                }
                Ok(m) => shared.step(Event::Message(m)),
            },
            Ok(LineRead::TooLong) => {
                shared.log(&format!("peer {addr} sent a line longer than {MAX_PEER_LINE} bytes; closing"));
                return;
            }
            Ok(LineRead::Eof) => return,
            Err(e) => {
                if shared.verbose {
                    shared.log(&format!("peer {addr}: {e}"));
                }
                return;
            }
        }
    }
}

/// The link to peer `to`: dials, writes what the core sends, reconnects with back-off. While
/// the link is down its messages are dropped (the protocol retries on its own).
async fn peer_writer(shared: Arc<Shared>, to: u64, addr: SocketAddr) {
    let Some(Some(link)) = shared.peers.get(to as usize) else { return };
    // The redial interval stays under the election timeout (at least 1.5 commit intervals): a
    // restarted peer must hear our heartbeat before its first election timer fires, or it starts
    // an election, wins it with an empty log, and cannot execute what the others have already
    // trimmed (docs/protocol.md, "Native servers").
    let max_backoff = Duration::from_millis(shared.commit_interval_ms / 2).max(Duration::from_millis(1));
    let min_backoff = Duration::from_millis(25).min(max_backoff);
    let mut backoff = min_backoff;
    let mut was_connected = false;
    loop {
        match TcpStream::connect(addr).await {
            Ok(mut stream) => {
                let _ = stream.set_nodelay(true);
                backoff = min_backoff;
                if shared.verbose || was_connected {
                    shared.log(&format!("connected to peer {to} at {addr}"));
                }
                was_connected = true;
                link.set_up(true, &shared.counters);
                loop {
                    let batch = link.take_batch(&shared.counters);
                    if batch.is_empty() {
                        link.wake.notified().await;
                        continue;
                    }
                    if let Err(e) = stream.write_all(&batch).await {
                        shared.log(&format!("link to peer {to} at {addr} broke: {e}; reconnecting"));
                        break;
                    }
                }
                link.set_up(false, &shared.counters);
            }
            Err(e) => {
                if shared.verbose {
                    shared.log(&format!("cannot reach peer {to} at {addr}: {e}"));
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(max_backoff);
            }
        }
    }
}

async fn bind(addr: SocketAddr, what: &str) -> TcpListener {
    TcpListener::bind(addr).await.unwrap_or_else(|e| die(&format!("cannot listen for {what} on {addr}: {e}")))
}

pub async fn run(args: Args, cfg: ServerConfig, alloc: &'static CountingAlloc<tikv_jemallocator::Jemalloc>) {
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
            eprintln!("replicant-server[{id}]: warning: {warning}");
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
    let peer_listener = bind(cfg.peers[id as usize], "peers").await;
    let client_listener = bind(cfg.clients[id as usize], "clients").await;

    let peers = (0..num_peers)
        .map(|p| {
            (p != id).then(|| PeerLink { state: Mutex::new(PeerQueue { queue: VecDeque::new(), bytes: 0, up: false }), wake: Notify::new() })
        })
        .collect();
    let shared = Arc::new(Shared {
        id,
        num_peers,
        core: Mutex::new(Core {
            node: Node::new(node_cfg),
            timer_generation: [0; 2],
            timer_deadline: [Instant::now(); 2],
            clients: HashMap::new(),
            in_flight: 0,
            wal,
        }),
        peers,
        verbose: args.verbose,
        commit_interval_ms: cfg.commit_interval_ms,
        counters: DriverCounters::default(),
    });
    for p in (0..num_peers).filter(|&p| p != id) {
        tokio::spawn(peer_writer(Arc::clone(&shared), p, cfg.peers[p as usize]));
    }
    tokio::spawn(Arc::clone(&shared).run_status());
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
    tokio::spawn(stop_on_signal(Arc::clone(&shared), alloc, SignalKind::terminate(), "SIGTERM"));
    tokio::spawn(stop_on_signal(Arc::clone(&shared), alloc, SignalKind::interrupt(), "SIGINT"));
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

/// SIGTERM or SIGINT ends the node cleanly, status 0, as the Go and C++ servers do: what it has
/// acknowledged is already on the peers (and, with --data-dir, on disk before it was answered).
async fn stop_on_signal(shared: Arc<Shared>, alloc: &'static CountingAlloc<tikv_jemallocator::Jemalloc>, kind: SignalKind, name: &'static str) {
    let Ok(mut sig) = signal(kind) else {
        shared.log(&format!("cannot watch {name}: the node will end by its default action"));
        return;
    };
    sig.recv().await;
    shared.log(&format!("stopping on {name}; stats {}", shared.stats(alloc)));
    std::process::exit(0);
}
