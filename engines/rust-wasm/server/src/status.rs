//! What a node reports about itself in its log: the once-a-second `status {...}` line
//! (docs/protocol.md, "Native servers"). The same keys in all four servers.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Instant;

/// The server's own running totals and levels.
#[derive(Default)]
pub struct DriverCounters {
    /// client connections open
    pub clients: AtomicU64,
    /// connections turned away over MAX_CLIENTS
    pub clients_refused: AtomicU64,
    /// client requests in the core, not yet answered
    pub in_flight: AtomicU64,
    /// requests answered `retry` by the server's limits
    pub shed_retries: AtomicU64,
    /// times a client's reading paused on its reply backlog
    pub reads_paused: AtomicU64,
    /// bytes queued for all peers, not yet written
    pub peer_queue_bytes: AtomicI64,
    /// peer messages dropped (link down or queue full)
    pub dropped_sends: AtomicU64,
    /// peer lines that did not decode or were misaddressed
    pub garbage_frames: AtomicU64,
    /// worst timer lateness since the last status line
    pub timer_late_max_us: AtomicU64,
    /// group writes the persister made (one sync each under --fsync always)
    pub wal_groups: AtomicU64,
    /// persist batches those groups carried
    pub wal_batches: AtomicU64,
}

impl DriverCounters {
    /// Records how long after its deadline a timer reached the core.
    pub fn note_timer_lateness(&self, deadline: Instant) {
        let late = Instant::now().saturating_duration_since(deadline).as_micros() as u64;
        self.timer_late_max_us.fetch_max(late, Ordering::Relaxed);
    }

    /// Counts one group write of the persister that carried `batches` persist batches
    /// (batches first: a reader that sees the group sees its batches, so a mean is never below 1).
    pub fn note_wal_group(&self, batches: usize) {
        self.wal_batches.fetch_add(batches as u64, Ordering::Relaxed);
        self.wal_groups.fetch_add(1, Ordering::Relaxed);
    }
}

/// The mean persist batches per group write between two readings of the WAL counters, "0.00"
/// when there was none: above 1, requests shared a sync (the group commit).
pub fn group_mean(groups: u64, batches: u64) -> String {
    if groups == 0 {
        return "0.00".into();
    }
    format!("{:.2}", batches as f64 / groups as f64)
}

/// The core's side of a status line, read from its status fields (inspect's spelling:
/// `Node::status_fields`).
#[derive(Debug, PartialEq)]
pub struct CoreView {
    pub role: String,
    pub leader: String,
    pub ballot: u64,
    pub elections: u64,
    pub last_index: u64,
    pub last_executed: u64,
    pub global_last_executed: u64,
    pub replay_remaining: u64,
}

/// The raw text of the first `"key":value` in json (value up to , or }); in canonical Inspect
/// output the first "ballot" and "leader" keys are the node's own.
fn field_text<'a>(json: &'a str, key: &str) -> &'a str {
    let needle = format!("\"{key}\":");
    let Some(at) = json.find(&needle) else { return "" };
    let rest = &json[at + needle.len()..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    &rest[..end]
}

pub fn read_core_view(inspect: &[u8]) -> CoreView {
    let json = String::from_utf8_lossy(inspect);
    let role = field_text(&json, "role");
    let leader = field_text(&json, "leader");
    CoreView {
        role: if role.len() >= 2 && role.starts_with('"') && role.ends_with('"') { role[1..role.len() - 1].to_string() } else { "?".into() },
        leader: if leader.is_empty() { "null".into() } else { leader.to_string() },
        ballot: field_text(&json, "ballot").parse().unwrap_or(0),
        elections: field_text(&json, "elections").parse().unwrap_or(0),
        last_index: field_text(&json, "last_index").parse().unwrap_or(0),
        last_executed: field_text(&json, "last_executed").parse().unwrap_or(0),
        global_last_executed: field_text(&json, "global_last_executed").parse().unwrap_or(0),
        replay_remaining: field_text(&json, "replay_remaining").parse().unwrap_or(0),
    }
}

/// The line; `wal_mean` is the mean group size since the previous line (`group_mean`).
pub fn status_line(v: &CoreView, c: &DriverCounters, wal_mean: &str) -> String {
    let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
    format!(
        "status {{\"role\":\"{}\",\"leader\":{},\"ballot\":{},\"elections\":{},\"last_index\":{},\"last_executed\":{},\"global_last_executed\":{},\"replay_remaining\":{},\"clients\":{},\"clients_refused\":{},\"in_flight\":{},\"shed_retries\":{},\"reads_paused\":{},\"peer_queue_bytes\":{},\"dropped_sends\":{},\"garbage_frames\":{},\"timer_late_max_ms\":{},\"wal_groups\":{},\"wal_batches\":{},\"wal_group_mean\":{}}}",
        v.role,
        v.leader,
        v.ballot,
        v.elections,
        v.last_index,
        v.last_executed,
        v.global_last_executed,
        v.replay_remaining,
        n(&c.clients),
        n(&c.clients_refused),
        n(&c.in_flight),
        n(&c.shed_retries),
        n(&c.reads_paused),
        c.peer_queue_bytes.load(Ordering::Relaxed),
        n(&c.dropped_sends),
        n(&c.garbage_frames),
        n(&c.timer_late_max_us) / 1000,
        n(&c.wal_groups),
        n(&c.wal_batches),
        wal_mean
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_nodes_own_fields_not_the_logs() {
        let v = read_core_view(
            br#"{"id":1,"num_peers":3,"role":"leader","ballot":257,"leader":1,"commit_received":false,"log":[{"ballot":2,"index":1}],"counters":{"events":9,"elections":2}}"#,
        );
        assert_eq!(v, CoreView { role: "leader".into(), leader: "1".into(), ballot: 257, elections: 2, last_index: 0, last_executed: 0, global_last_executed: 0, replay_remaining: 0 });
    }

    /// The status loop reads `Node::status_fields`, not inspect: both must give the same view.
    #[test]
    fn reads_the_same_view_from_status_fields_as_from_inspect() {
        use replicant_core::{Config, Event, TimerName};
        let mut node = replicant_core::Node::new(Config { id: 0, num_peers: 1, ..Config::default() });
        assert_eq!(read_core_view(&node.status_fields()), read_core_view(&node.inspect()));
        node.step(Event::Timer(TimerName::Election));
        node.step(Event::Client { client_id: 1, request_id: 1, line: b"put k v".to_vec() });
        let v = read_core_view(&node.status_fields());
        assert_eq!((v.role.as_str(), v.leader.as_str(), v.elections, v.last_executed), ("leader", "0", 1, 1));
        assert_eq!(v, read_core_view(&node.inspect()));
    }

    #[test]
    fn line_carries_every_counter() {
        let c = DriverCounters::default();
        c.shed_retries.store(5, Ordering::Relaxed);
        let line = status_line(&CoreView { role: "follower".into(), leader: "null".into(), ballot: 0, elections: 0, last_index: 0, last_executed: 0, global_last_executed: 0, replay_remaining: 0 }, &c, "0.00");
        assert!(line.starts_with("status {\"role\":\"follower\",\"leader\":null,"), "{line}");
        assert!(line.contains("\"shed_retries\":5,"), "{line}");
    }

    #[test]
    fn group_mean_is_batches_per_group_with_two_decimals() {
        for (groups, batches, want) in [(0, 0, "0.00"), (1, 1, "1.00"), (4, 10, "2.50"), (3, 10, "3.33")] {
            assert_eq!(group_mean(groups, batches), want, "group_mean({groups}, {batches})");
        }
    }
}
