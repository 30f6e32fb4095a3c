//! Client connections: lines in, replies out, each client's backlog and in-flight bound.

use crate::limits::*;
use crate::line_reader::{read_line_limited, LineRead};
use crate::core_driver::Shared;
use crate::outbound::ClientOut;
use replicant_core::Event;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, Notify};

/// How long a client that closed its sending side may wait for replies still in flight.
pub(crate) const CLIENT_DRAIN: Duration = Duration::from_secs(5);

impl Shared {
    /// Hands one client request to the core, or answers `retry` itself when the connection or
    /// the node already has as many requests in the core as the limits allow.
    pub(crate) fn client_line(self: &Arc<Self>, client_id: u64, request_id: u64, line: Vec<u8>) {
        if let Some(reply) = self.peer_reset_command(&line) {
            // (answered at once, not in the core's order: an operator's connection)
            let core = self.core.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(c) = core.clients.get(&client_id) {
                c.backlog.fetch_add(reply.len(), Ordering::Relaxed);
                let _ = c.tx.send(reply);
            }
            return;
        }
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
}

/// One client connection: lines in, replies out (in a writer task). While more than
/// MAX_REPLY_BACKLOG_BYTES of replies wait unwritten, its requests are not read.
pub(crate) async fn serve_client(shared: Arc<Shared>, stream: TcpStream, client_id: u64) {
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
