//! Where the core's effects go out: each client's reply path and each peer's bounded queue.
//! The lowest unit of the server: the core driver routes effects into these, and the client
//! and peer tasks drain them.

use crate::limits::*;
use crate::status::DriverCounters;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, Notify};

/// One client's reply path: lines go to its writer task; `backlog` counts the bytes not yet
/// written, and the writer notifies `drained` after each write.
pub(crate) struct ClientOut {
    pub(crate) tx: mpsc::UnboundedSender<Vec<u8>>,
    pub(crate) backlog: Arc<AtomicUsize>,
    /// requests in the core, not yet answered
    pub(crate) in_flight: u64,
}

/// Messages waiting for one peer's writer task; bounded in bytes, oldest dropped first.
pub(crate) struct PeerQueue {
    pub(crate) queue: VecDeque<Vec<u8>>,
    pub(crate) bytes: usize,
    /// connected: messages are queued only while true
    pub(crate) up: bool,
}

pub(crate) struct PeerLink {
    pub(crate) state: Mutex<PeerQueue>,
    pub(crate) wake: Notify,
}

impl PeerLink {
    /// A link that is down, with nothing queued, until its writer task connects.
    pub(crate) fn new() -> Self {
        PeerLink { state: Mutex::new(PeerQueue { queue: VecDeque::new(), bytes: 0, up: false }), wake: Notify::new() }
    }

    pub(crate) fn enqueue(&self, line: Vec<u8>, c: &DriverCounters) {
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
    pub(crate) fn set_up(&self, up: bool, c: &DriverCounters) {
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
    pub(crate) fn take_batch(&self, c: &DriverCounters) -> Vec<u8> {
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
