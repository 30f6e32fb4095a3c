//! Everything a node is created with.

use crate::ballot::MAX_NUM_PEERS;
use crate::types::{Durability, Mitigation};
use crate::json::MAX_SAFE_INT;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub id: u64,
    pub num_peers: u64,
    pub seed: u64,
    /// The leader's heartbeat; followers wait 1.5–2× this for it.
    pub commit_interval_us: u64,
    /// Heartbeats an accept phase may wait for a majority.
    pub accept_timeout_ticks: u64,
    /// Open accept phases before clients are told to retry.
    pub max_pending_accepts: u64,
    /// Emit trace records.
    pub trace: bool,
    /// Check-quorum: a leader that heard from no majority for [`QUORUM_WINDOW_TICKS`]
    /// heartbeats steps down, and a node that hears a live leader refuses prepares
    /// (docs/protocol.md). Off keeps the paper's behaviour.
    pub check_quorum: bool,
    /// At most this many log entries a leader re-sends to a follower whose heartbeat answer
    /// shows it could not execute what the leader had (a lost accept, a stale entry); 0 turns
    /// repair off, the paper's behaviour.
    pub repair_batch: u64,
    /// Bounded elections (docs/protocol.md, "Bounded elections"): a candidate asks only for
    /// instances after its gle, a promise travels in chunks of at most this many instances, a
    /// prepare phase that hears answers is not abandoned, and a new leader replays this many
    /// instances at once. 0 turns it off, the paper's behaviour.
    pub election_batch: u64,
    /// The most executed entries a leader keeps between trims (docs/protocol.md, "Log bound").
    /// The leader raises gle to at least last_executed − log_bound without waiting for every
    /// peer, so one node down does not stop trimming; a node behind that point is sent a
    /// snapshot and cannot win an election. 0 turns it off, the paper's behaviour; it needs
    /// repair_batch and election_batch (the snapshot and the prepare's from_index).
    pub log_bound: u64,
    /// `none` (the paper's, the lab's preset) or `log` (persist before revealing).
    pub durability: Durability,
    /// In durability log, a checkpoint persist (the KV store, the ballot and the slots after
    /// it) every this many executed instances, so a driver can compact its records
    /// (docs/protocol.md, "Compaction"). 0, the default, takes none.
    pub snapshot_every: u64,
    /// What a node does when its runtime announces a collection (mitigation.rs); none
    /// collects at once, the paper's behaviour.
    pub mitigation: Mitigation,
    /// MITMEM answers busy when the predicted pause is longer than this.
    pub mitmem_deadline_us: u64,
}

/// The repair batch the native servers use (docs/protocol.md, "Repair").
pub const SERVER_REPAIR_BATCH: u64 = 256;

/// The election batch the native servers use (docs/protocol.md, "Bounded elections").
pub const SERVER_ELECTION_BATCH: u64 = 256;

/// The log bound the native servers use (docs/protocol.md, "Log bound"): far above what a
/// live follower lags (repair_batch 256, 256 accepts in flight), small enough that a leader's
/// log stays a few megabytes while a follower is down.
pub const SERVER_LOG_BOUND: u64 = 16384;

/// The checkpoint interval the native servers use (docs/protocol.md, "Compaction").
pub const SERVER_SNAPSHOT_EVERY: u64 = 4096;

/// The check-quorum window in heartbeats: 2 commit intervals, the longest election timeout.
pub const QUORUM_WINDOW_TICKS: u64 = 2;

/// The most an election delay is doubled after lost elections: 2^3 = 8 times
/// (docs/protocol.md, "Election backoff").
pub const ELECTION_BACKOFF_MAX: u64 = 3;

impl Default for Config {
    fn default() -> Config {
        Config {
            id: 0,
            num_peers: 3,
            seed: 0,
            commit_interval_us: 150_000, // the paper's default commit interval (§3.2.2)
            accept_timeout_ticks: 3,
            max_pending_accepts: 4096,
            trace: true,
            check_quorum: false,
            repair_batch: 0,
            election_batch: 0,
            log_bound: 0,
            durability: Durability::None,
            snapshot_every: 0,
            mitigation: Mitigation::None,
            mitmem_deadline_us: 20_000, // the MITMEM paper's 20 ms SLO
        }
    }
}

impl Config {
    pub fn validate(&self) -> std::result::Result<(), String> {
        let err = |m: &str| Err(format!("config: {m}"));
        if self.num_peers < 1 || self.num_peers > MAX_NUM_PEERS {
            return err("num_peers must be between 1 and 15");
        }
        if self.id >= self.num_peers {
            return err("id must be below num_peers");
        }
        if self.seed > MAX_SAFE_INT {
            return err("seed must be below 2^53");
        }
        if !(1000..=60_000_000).contains(&self.commit_interval_us) {
            return err("commit_interval_us must be between 1000 and 60000000");
        }
        if !(1..=1000).contains(&self.accept_timeout_ticks) {
            return err("accept_timeout_ticks must be between 1 and 1000");
        }
        if !(1..=1_000_000).contains(&self.max_pending_accepts) {
            return err("max_pending_accepts must be between 1 and 1000000");
        }
        if self.repair_batch > 4096 {
            return err("repair_batch must be between 0 and 4096");
        }
        if self.election_batch > 4096 {
            return err("election_batch must be between 0 and 4096");
        }
        if self.log_bound > 1_000_000 {
            return err("log_bound must be between 0 and 1000000");
        }
        if self.log_bound > 0 && (self.repair_batch == 0 || self.election_batch == 0) {
            return err("log_bound needs repair_batch and election_batch");
        }
        if self.snapshot_every > 1_000_000 {
            return err("snapshot_every must be between 0 and 1000000");
        }
        // A node restarted from a checkpoint holds no slots at or below it: only the trim-point
        // guard of bounded elections keeps a candidate behind it from filling them with no-ops,
        // and only state transfer brings a follower behind it back (docs/protocol.md, Compaction).
        if self.snapshot_every > 0 && (self.repair_batch == 0 || self.election_batch == 0) {
            return err("snapshot_every needs repair_batch and election_batch");
        }
        if self.mitmem_deadline_us > 60_000_000 {
            return err("mitmem_deadline_us must be between 0 and 60000000");
        }
        Ok(())
    }
}
