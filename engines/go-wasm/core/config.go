package core

import "errors"

// Config is everything a Node is created with.
type Config struct {
	ID                 uint64
	NumPeers           uint64
	Seed               uint64
	CommitIntervalUs   uint64 // the leader's heartbeat; followers wait 1.5–2× this for it
	AcceptTimeoutTicks uint64 // heartbeats an accept phase may wait for a majority
	MaxPendingAccepts  uint64 // open accept phases before clients are told to retry
	Trace              bool   // emit trace records
	// CheckQuorum: a leader that heard from no majority for QuorumWindowTicks heartbeats steps
	// down, and a node that hears a live leader refuses prepares (docs/protocol.md). Off keeps
	// the paper's behaviour.
	CheckQuorum bool
	// RepairBatch: at most this many log entries a leader re-sends to a follower whose
	// heartbeat answer shows it could not execute what the leader had (a lost accept, a stale
	// entry); 0 turns repair off, the paper's behaviour.
	RepairBatch uint64
	// ElectionBatch: bounded elections (docs/protocol.md, "Bounded elections"). A candidate asks
	// only for instances after its gle, a promise travels in chunks of at most this many
	// instances, a prepare phase that hears answers is not abandoned, and a new leader replays
	// this many instances at once. 0 turns it off, the paper's behaviour.
	ElectionBatch uint64
	// LogBound: the most executed entries a leader keeps between trims (docs/protocol.md, "Log
	// bound"). The leader raises gle to at least last_executed − LogBound without waiting for
	// every peer, so one node down does not stop trimming; a node behind that point is sent a
	// snapshot and cannot win an election. 0 turns it off, the paper's behaviour; it needs
	// RepairBatch and ElectionBatch (the snapshot and the prepare's from_index).
	LogBound uint64
	// Durability: none (the paper's, the lab's preset) or log (persist before revealing).
	Durability Durability
	// SnapshotEvery: in durability log, a checkpoint persist (the KV store, the ballot and the
	// slots after it) every this many executed instances, so a driver can compact its records
	// (docs/protocol.md, "Compaction"). 0, the default, takes none.
	SnapshotEvery uint64
	// Mitigation: what a node does when its runtime announces a collection (mitigation.go);
	// none collects at once, the paper's behaviour.
	Mitigation Mitigation
	// MitmemDeadlineUs: MITMEM answers busy when the predicted pause is longer than this.
	MitmemDeadlineUs uint64
}

// ServerRepairBatch is the repair batch the native servers use (docs/protocol.md, "Repair").
const ServerRepairBatch = 256

// ServerElectionBatch is the election batch the native servers use (docs/protocol.md,
// "Bounded elections").
const ServerElectionBatch = 256

// ServerLogBound is the log bound the native servers use (docs/protocol.md, "Log bound"):
// far above what a live follower lags (repair_batch 256, 256 accepts in flight), small enough
// that a leader's log stays a few megabytes while a follower is down.
const ServerLogBound = 16384

// ServerSnapshotEvery is the checkpoint interval the native servers use (docs/protocol.md,
// "Compaction").
const ServerSnapshotEvery = 4096

// QuorumWindowTicks is the check-quorum window in heartbeats: 2 commit intervals, the
// longest election timeout.
const QuorumWindowTicks = 2

// ElectionBackoffMax is the most an election delay is doubled after lost elections: 2^3 = 8
// times (docs/protocol.md, "Election backoff").
const ElectionBackoffMax = 3

func DefaultConfig() Config {
	return Config{
		NumPeers:           3,
		CommitIntervalUs:   150_000, // the paper's default commit interval (§3.2.2)
		AcceptTimeoutTicks: 3,
		MaxPendingAccepts:  4096,
		Trace:              true,
		MitmemDeadlineUs:   20_000, // the MITMEM paper's 20 ms SLO
	}
}

func (c Config) Validate() error {
	switch {
	case c.NumPeers < 1 || c.NumPeers > MaxNumPeers:
		return errors.New("config: num_peers must be between 1 and 15")
	case c.ID >= c.NumPeers:
		return errors.New("config: id must be below num_peers")
	case c.Seed > maxSafeInt:
		return errors.New("config: seed must be below 2^53")
	case c.CommitIntervalUs < 1000 || c.CommitIntervalUs > 60_000_000:
		return errors.New("config: commit_interval_us must be between 1000 and 60000000")
	case c.AcceptTimeoutTicks < 1 || c.AcceptTimeoutTicks > 1000:
		return errors.New("config: accept_timeout_ticks must be between 1 and 1000")
	case c.MaxPendingAccepts < 1 || c.MaxPendingAccepts > 1_000_000:
		return errors.New("config: max_pending_accepts must be between 1 and 1000000")
	case c.RepairBatch > 4096:
		return errors.New("config: repair_batch must be between 0 and 4096")
	case c.ElectionBatch > 4096:
		return errors.New("config: election_batch must be between 0 and 4096")
	case c.LogBound > 1_000_000:
		return errors.New("config: log_bound must be between 0 and 1000000")
	case c.LogBound > 0 && (c.RepairBatch == 0 || c.ElectionBatch == 0):
		return errors.New("config: log_bound needs repair_batch and election_batch")
	case c.SnapshotEvery > 1_000_000:
		return errors.New("config: snapshot_every must be between 0 and 1000000")
	// A node restarted from a checkpoint holds no slots at or below it: only the trim-point
	// guard of bounded elections keeps a candidate behind it from filling them with no-ops, and
	// only state transfer brings a follower behind it back (docs/protocol.md, Compaction).
	case c.SnapshotEvery > 0 && (c.RepairBatch == 0 || c.ElectionBatch == 0):
		return errors.New("config: snapshot_every needs repair_batch and election_batch")
	case c.MitmemDeadlineUs > 60_000_000:
		return errors.New("config: mitmem_deadline_us must be between 0 and 60000000")
	}
	return nil
}
