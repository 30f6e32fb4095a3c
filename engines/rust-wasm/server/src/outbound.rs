//! Where the core's effects go out: each client's reply path and each peer's bounded queue.
//! The lowest unit of the server: the core driver routes effects into these, and the client
//! and peer tasks drain them.

use crate::limits::*;
use crate::status::DriverCounters;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{mpsc, Notify};

/// One client's reply path: lines go to its writer task; `backlog` counts the bytes not yet
/// written, and the writer notifies `drained` after each write.
pub(crate) struct ClientOut {
    pub(crate) tx: mpsc::UnboundedSender<Vec<u8>>,
    pub(crate) backlog: Arc<AtomicUsize>,
    /// requests in the core, not yet answered
    pub(crate) in_flight: u64,
}

/// Messages waiting for one peer's writer task, each with when it was queued; bounded in bytes
/// (oldest dropped first) and in age (MAX_PEER_MESSAGE_AGE).
pub(crate) struct PeerQueue {
    pub(crate) queue: VecDeque<(Instant, Vec<u8>)>,
    pub(crate) bytes: usize,
    /// connected: messages are queued only while true
    pub(crate) up: bool,
    /// reset-peer asked the writer to close this connection abortively and redial (peer_reset.rs)
    pub(crate) reset_requested: bool,
}

pub(crate) struct PeerLink {
    pub(crate) state: Mutex<PeerQueue>,
    pub(crate) wake: Notify,
}

impl PeerLink {
    /// A link that is down, with nothing queued, until its writer task connects.
    pub(crate) fn new() -> Self {
        PeerLink { state: Mutex::new(PeerQueue { queue: VecDeque::new(), bytes: 0, up: false, reset_requested: false }), wake: Notify::new() }
    }

    pub(crate) fn enqueue(&self, line: Vec<u8>, c: &DriverCounters) {
        self.enqueue_at(Instant::now(), line, c)
    }

    /// `enqueue` with the time taken as `now` (a test's clock).
    pub(crate) fn enqueue_at(&self, now: Instant, line: Vec<u8>, c: &DriverCounters) {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if !q.up {
            c.dropped_sends.fetch_add(1, Ordering::Relaxed);
            return;
        }
        q.drop_aged(now, c);
        while !q.queue.is_empty() && q.bytes + line.len() > MAX_PEER_QUEUE_BYTES {
            q.drop_oldest(c);
        }
        q.bytes += line.len();
        c.peer_queue_bytes.fetch_add(line.len() as i64, Ordering::Relaxed);
        q.queue.push_back((now, line));
        drop(q);
        self.wake.notify_one();
    }

    /// Marks the link connected or not; going down drops what is queued.
    pub(crate) fn set_up(&self, up: bool, c: &DriverCounters) {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        q.up = up;
        q.reset_requested = false;
        if !up {
            c.dropped_sends.fetch_add(q.queue.len() as u64, Ordering::Relaxed);
            c.peer_queue_bytes.fetch_sub(q.bytes as i64, Ordering::Relaxed);
            q.queue.clear();
            q.bytes = 0;
        }
    }

    /// Drops what is queued and has the writer close its connection with an RST (SO_LINGER 0)
    /// and redial, as after a TCP reset from outside; a write under way finishes first. False
    /// when the link is down (nothing to reset).
    pub(crate) fn request_reset(&self, c: &DriverCounters) -> bool {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if !q.up {
            return false;
        }
        c.dropped_sends.fetch_add(q.queue.len() as u64, Ordering::Relaxed);
        c.peer_queue_bytes.fetch_sub(q.bytes as i64, Ordering::Relaxed);
        q.queue.clear();
        q.bytes = 0;
        q.reset_requested = true;
        drop(q);
        self.wake.notify_one();
        true
    }

    /// Whether reset-peer asked for this connection to be closed (the writer checks before each batch).
    pub(crate) fn reset_requested(&self) -> bool {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).reset_requested
    }

    /// Takes up to about 1 MiB of queued messages as one batch (what waited too long while
    /// the peer did not read is dropped, not sent).
    pub(crate) fn take_batch(&self, c: &DriverCounters) -> Vec<u8> {
        let mut q = self.state.lock().unwrap_or_else(|p| p.into_inner());
        q.drop_aged(Instant::now(), c);
        let mut batch = Vec::new();
        while batch.len() < (1 << 20) {
            let Some((_, m)) = q.queue.pop_front() else { break };
            q.bytes -= m.len();
            c.peer_queue_bytes.fetch_sub(m.len() as i64, Ordering::Relaxed);
            batch.extend_from_slice(&m);
        }
        batch
    }
}

impl PeerQueue {
    /// Drops the oldest queued message and counts it.
    fn drop_oldest(&mut self, c: &DriverCounters) {
        if let Some((_, m)) = self.queue.pop_front() {
            self.bytes -= m.len();
            c.peer_queue_bytes.fetch_sub(m.len() as i64, Ordering::Relaxed);
            c.dropped_sends.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Drops every message queued longer than MAX_PEER_MESSAGE_AGE before `now`.
    fn drop_aged(&mut self, now: Instant, c: &DriverCounters) {
        while self.queue.front().is_some_and(|(at, _)| now.saturating_duration_since(*at) > MAX_PEER_MESSAGE_AGE) {
            self.drop_oldest(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    // A message queued for a peer longer than MAX_PEER_MESSAGE_AGE is dropped and counted,
    // whatever room the queue has left: a peer that stopped reading gets no backlog of stale
    // messages to work through when it resumes (issue 20).
    #[test]
    fn drops_messages_queued_too_long() {
        let c = DriverCounters::default();
        let link = PeerLink::new();
        link.set_up(true, &c);
        let t0 = Instant::now();
        for _ in 0..100 {
            link.enqueue_at(t0, vec![b'x'; 1000], &c);
        }
        assert_eq!(c.dropped_sends.load(Ordering::Relaxed), 0, "dropped with 100 kB queued and no time passed");
        link.enqueue_at(t0 + MAX_PEER_MESSAGE_AGE / 2, vec![b'x'; 1000], &c);
        assert_eq!(c.dropped_sends.load(Ordering::Relaxed), 0, "dropped after half the age limit");
        link.enqueue_at(t0 + MAX_PEER_MESSAGE_AGE + Duration::from_millis(1), vec![b'x'; 1000], &c);
        // the 100 queued first are over the age; the one queued at half of it is not
        assert_eq!(c.dropped_sends.load(Ordering::Relaxed), 100);
        let q = link.state.lock().unwrap();
        assert_eq!((q.queue.len(), q.bytes), (2, 2000));
        assert_eq!(c.peer_queue_bytes.load(Ordering::Relaxed), 2000);
    }
}
