//! Sockets, timers and the serialized core.

use crate::config::{Args, ServerConfig};
use crate::die;
use replicant_core::{append_effect, append_message, decode_message, reply_line, Config, Effect, Event, Node, TimerName};
use replicant_runtimestats::{stats_json, CountingAlloc};
use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, Notify};

/// Client lines longer than this get `bad command` and the connection is closed.
pub const MAX_CLIENT_LINE: usize = 1 << 20;
/// Peer lines longer than this close the connection.
pub const MAX_PEER_LINE: usize = 64 << 20;
/// Messages queued for one peer link before new ones are dropped (the protocol tolerates loss).
const PEER_QUEUE: usize = 1 << 16;
/// How long a client that closed its sending side may wait for replies still in flight.
const CLIENT_DRAIN: Duration = Duration::from_secs(5);

/// The node and what its effects are routed to; always behind `Shared::core`.
struct Core {
    node: Node,
    /// Per timer: bumped by every set and cancel, so a sleeping timer task knows it is stale.
    timer_generation: [u64; 2],
    clients: HashMap<u64, mpsc::UnboundedSender<Vec<u8>>>,
}

pub struct Shared {
    id: u64,
    num_peers: u64,
    core: Mutex<Core>,
    peers: Vec<Option<mpsc::Sender<Vec<u8>>>>,
    verbose: bool,
    commit_interval_ms: u64,
    dropped_sends: AtomicU64,
    garbage_frames: AtomicU64,
}

fn timer_slot(t: TimerName) -> usize {
    match t {
        TimerName::Election => 0,
        TimerName::Commit => 1,
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
        let Core { node, timer_generation, clients } = core;
        for e in node.step(ev) {
            match e {
                Effect::Send(m) => {
                    let Some(Some(tx)) = self.peers.get(m.to as usize) else { continue };
                    let mut line = Vec::with_capacity(128);
                    append_message(&mut line, m);
                    line.push(b'\n');
                    if tx.try_send(line).is_err() {
                        self.dropped_sends.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Effect::Reply { client_id, result, .. } => {
                    if let Some(tx) = clients.get(client_id) {
                        let mut line = reply_line(result).into_bytes();
                        line.push(b'\n');
                        let _ = tx.send(line);
                    }
                }
                Effect::SetTimer { timer, delay_us } => {
                    let slot = timer_slot(*timer);
                    timer_generation[slot] += 1;
                    let generation = timer_generation[slot];
                    let (me, timer, delay) = (Arc::clone(self), *timer, Duration::from_micros(*delay_us));
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
    }

    /// A timer's sleep ended: feed the core a timer event unless it was re-armed or cancelled.
    fn fire(self: &Arc<Self>, timer: TimerName, generation: u64) {
        let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
        let slot = timer_slot(timer);
        if core.timer_generation[slot] != generation {
            return;
        }
        core.timer_generation[slot] += 1; // one timer per name: this one is used up
        self.step_locked(&mut core, Event::Timer(timer));
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
                ("dropped_sends", self.dropped_sends.load(Ordering::Relaxed)),
                ("garbage_frames", self.garbage_frames.load(Ordering::Relaxed)),
            ],
        )
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

/// One client connection: lines in, replies out (in a writer task).
async fn serve_client(shared: Arc<Shared>, stream: TcpStream, client_id: u64) {
    let _ = stream.set_nodelay(true);
    let (rd, mut wr) = stream.into_split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let answered = Arc::new(AtomicU64::new(0));
    let notify = Arc::new(Notify::new());
    shared.core.lock().unwrap_or_else(|p| p.into_inner()).clients.insert(client_id, tx.clone());
    let writer = {
        let (answered, notify) = (Arc::clone(&answered), Arc::clone(&notify));
        tokio::spawn(async move {
            while let Some(mut batch) = rx.recv().await {
                let mut count = 1;
                while let Ok(more) = rx.try_recv() {
                    batch.extend_from_slice(&more);
                    count += 1;
                }
                if wr.write_all(&batch).await.is_err() {
                    break;
                }
                answered.fetch_add(count, Ordering::Relaxed);
                notify.notify_one();
            }
            let _ = wr.shutdown().await;
        })
    };
    let mut reader = BufReader::with_capacity(1 << 16, rd);
    let mut line = Vec::new();
    let mut request_id = 0u64;
    loop {
        match read_line_limited(&mut reader, &mut line, MAX_CLIENT_LINE).await {
            Ok(LineRead::Complete) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                request_id += 1;
                shared.step(Event::Client { client_id, request_id, line: std::mem::take(&mut line) });
            }
            Ok(LineRead::TooLong) => {
                shared.log(&format!("client {client_id}: line longer than {MAX_CLIENT_LINE} bytes; closing"));
                let _ = tx.send(b"bad command\n".to_vec());
                request_id = 0; // do not wait for replies still in flight
                break;
            }
            Ok(LineRead::Eof) | Err(_) => break,
        }
    }
    // The client stopped sending: give replies still in flight a moment to arrive.
    let deadline = tokio::time::Instant::now() + CLIENT_DRAIN;
    while answered.load(Ordering::Relaxed) < request_id {
        if tokio::time::timeout_at(deadline, notify.notified()).await.is_err() {
            break;
        }
    }
    shared.core.lock().unwrap_or_else(|p| p.into_inner()).clients.remove(&client_id);
    drop(tx);
    let _ = writer.await;
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
                    shared.garbage_frames.fetch_add(1, Ordering::Relaxed);
                    shared.log(&format!("dropped a peer frame from {addr} ({e}): {}", shown(&line)));
                }
                Ok(m) if m.to != shared.id || m.from >= shared.num_peers || m.from == shared.id => {
                    shared.garbage_frames.fetch_add(1, Ordering::Relaxed);
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

/// The link to peer `to`: dials, writes what the core sends, reconnects with back-off. What is
/// queued while the link is down is dropped (the protocol retries on its own).
async fn peer_writer(shared: Arc<Shared>, to: u64, addr: SocketAddr, mut rx: mpsc::Receiver<Vec<u8>>) {
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
                loop {
                    let Some(mut batch) = rx.recv().await else { return };
                    while batch.len() < (1 << 20) {
                        match rx.try_recv() {
                            Ok(more) => batch.extend_from_slice(&more),
                            Err(_) => break,
                        }
                    }
                    if let Err(e) = stream.write_all(&batch).await {
                        shared.log(&format!("link to peer {to} at {addr} broke: {e}; reconnecting"));
                        break;
                    }
                }
            }
            Err(e) => {
                if shared.verbose {
                    shared.log(&format!("cannot reach peer {to} at {addr}: {e}"));
                }
                while rx.try_recv().is_ok() {}
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
    let node_cfg = Config {
        id,
        num_peers,
        seed: args.seed.unwrap_or(id + 1),
        commit_interval_us: cfg.commit_interval_ms * 1000,
        check_quorum: cfg.check_quorum,
        repair_batch: replicant_core::config::SERVER_REPAIR_BATCH,
        trace: args.verbose,
        ..Config::default()
    };
    if let Err(e) = node_cfg.validate() {
        die(&e);
    }
    let peer_listener = bind(cfg.peers[id as usize], "peers").await;
    let client_listener = bind(cfg.clients[id as usize], "clients").await;

    let mut peers = Vec::new();
    let mut receivers = Vec::new();
    for p in 0..num_peers {
        if p == id {
            peers.push(None);
        } else {
            let (tx, rx) = mpsc::channel(PEER_QUEUE);
            peers.push(Some(tx));
            receivers.push((p, rx));
        }
    }
    let shared = Arc::new(Shared {
        id,
        num_peers,
        core: Mutex::new(Core { node: Node::new(node_cfg), timer_generation: [0; 2], clients: HashMap::new() }),
        peers,
        verbose: args.verbose,
        commit_interval_ms: cfg.commit_interval_ms,
        dropped_sends: AtomicU64::new(0),
        garbage_frames: AtomicU64::new(0),
    });
    for (p, rx) in receivers {
        tokio::spawn(peer_writer(Arc::clone(&shared), p, cfg.peers[p as usize], rx));
    }
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
    shared.step(Event::Start);
    // client ids id + n·k with k = 1, 2, … (as the Go server numbers them)
    let mut k = 1u64;
    loop {
        match client_listener.accept().await {
            Ok((stream, _)) => {
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
