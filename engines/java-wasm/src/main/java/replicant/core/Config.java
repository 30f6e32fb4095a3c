package replicant.core;

/** Everything a Node is created with. */
public final class Config {
    public long id;
    public long numPeers = 3;
    public long seed;
    /** The leader's heartbeat; followers wait 1.5–2× this for it. The paper's default (§3.2.2). */
    public long commitIntervalUs = 150_000;
    /** Heartbeats an accept phase may wait for a majority. */
    public long acceptTimeoutTicks = 3;
    /** Open accept phases before clients are told to retry. */
    public long maxPendingAccepts = 4096;
    /** Emit trace records. */
    public boolean trace = true;
    /**
     * Check-quorum: a leader that heard from no majority for {@link #QUORUM_WINDOW_TICKS}
     * heartbeats steps down, and a node that hears a live leader refuses prepares
     * (docs/protocol.md). Off keeps the paper's behaviour.
     */
    public boolean checkQuorum = false;
    /**
     * At most this many log entries a leader re-sends to a follower whose heartbeat answer shows it
     * could not execute what the leader had (a lost accept, a stale entry); 0 turns repair off, the
     * paper's behaviour.
     */
    public long repairBatch = 0;
    /**
     * Bounded elections (docs/protocol.md, "Bounded elections"): a candidate asks only for
     * instances after its gle, a promise travels in chunks of at most this many instances, a
     * prepare phase that hears answers is not abandoned, and a new leader replays this many
     * instances at once. 0 turns it off, the paper's behaviour.
     */
    public long electionBatch = 0;
    /**
     * The most executed entries a leader keeps between trims (docs/protocol.md, "Log bound"). The
     * leader raises gle to at least last_executed − log_bound without waiting for every peer, so
     * one node down does not stop trimming; a node behind that point is sent a snapshot and
     * cannot win an election. 0 turns it off, the paper's behaviour; it needs repair_batch and
     * election_batch (the snapshot and the prepare's from_index).
     */
    public long logBound = 0;
    /** none (the paper's, the lab's preset) or log (persist before revealing). */
    public Durability.Mode durability = Durability.Mode.NONE;
    /**
     * In durability log, a checkpoint persist (the KV store, the ballot and the slots after it)
     * every this many executed instances, so a driver can compact its records (docs/protocol.md,
     * "Compaction"). 0, the default, takes none.
     */
    public long snapshotEvery = 0;
    /**
     * What a node does when its runtime announces a collection ({@link Mitigation}); none
     * collects at once, the paper's behaviour.
     */
    public Mitigation.Mode mitigation = Mitigation.Mode.NONE;
    /** MITMEM answers busy when the predicted pause is longer than this (the paper's 20 ms SLO). */
    public long mitmemDeadlineUs = 20_000;

    /** The repair batch the native servers use (docs/protocol.md, "Repair"). */
    public static final long SERVER_REPAIR_BATCH = 256;

    /** The election batch the native servers use (docs/protocol.md, "Bounded elections"). */
    public static final long SERVER_ELECTION_BATCH = 256;

    /**
     * The log bound the native servers use (docs/protocol.md, "Log bound"): far above what a live
     * follower lags (repair_batch 256, 256 accepts in flight), small enough that a leader's log
     * stays a few megabytes while a follower is down.
     */
    public static final long SERVER_LOG_BOUND = 16384;

    /** The checkpoint interval the native servers use (docs/protocol.md, "Compaction"). */
    public static final long SERVER_SNAPSHOT_EVERY = 4096;

    /** The check-quorum window in heartbeats: 2 commit intervals, the longest election timeout. */
    public static final long QUORUM_WINDOW_TICKS = 2;

    /** The most an election delay is doubled after lost elections: 2^3 = 8 times (docs/protocol.md, "Election backoff"). */
    public static final long ELECTION_BACKOFF_MAX = 3;

    /** A configuration that cannot be used; the message names the problem. */
    public static final class ConfigException extends Exception {
        public ConfigException(String message) {
            super(message);
        }
    }

    public static Config defaults() {
        return new Config();
    }

    public Config copy() {
        Config c = new Config();
        c.id = id;
        c.numPeers = numPeers;
        c.seed = seed;
        c.commitIntervalUs = commitIntervalUs;
        c.acceptTimeoutTicks = acceptTimeoutTicks;
        c.maxPendingAccepts = maxPendingAccepts;
        c.trace = trace;
        c.checkQuorum = checkQuorum;
        c.repairBatch = repairBatch;
        c.electionBatch = electionBatch;
        c.logBound = logBound;
        c.durability = durability;
        c.snapshotEvery = snapshotEvery;
        c.mitigation = mitigation;
        c.mitmemDeadlineUs = mitmemDeadlineUs;
        return c;
    }

    /** Checks the ranges of docs/protocol.md; throws naming the first bad field. */
    public void validate() throws ConfigException {
        if (numPeers < 1 || numPeers > Ballot.MAX_NUM_PEERS) {
            throw new ConfigException("config: num_peers must be between 1 and 15");
        } else if (id < 0 || id >= numPeers) {
            throw new ConfigException("config: id must be below num_peers");
        } else if (seed < 0 || seed > Json.MAX_SAFE_INT) {
            throw new ConfigException("config: seed must be below 2^53");
        } else if (commitIntervalUs < 1000 || commitIntervalUs > 60_000_000) {
            throw new ConfigException("config: commit_interval_us must be between 1000 and 60000000");
        } else if (acceptTimeoutTicks < 1 || acceptTimeoutTicks > 1000) {
            throw new ConfigException("config: accept_timeout_ticks must be between 1 and 1000");
        } else if (maxPendingAccepts < 1 || maxPendingAccepts > 1_000_000) {
            throw new ConfigException("config: max_pending_accepts must be between 1 and 1000000");
        } else if (repairBatch < 0 || repairBatch > 4096) {
            throw new ConfigException("config: repair_batch must be between 0 and 4096");
        } else if (electionBatch < 0 || electionBatch > 4096) {
            throw new ConfigException("config: election_batch must be between 0 and 4096");
        } else if (logBound < 0 || logBound > 1_000_000) {
            throw new ConfigException("config: log_bound must be between 0 and 1000000");
        } else if (logBound > 0 && (repairBatch == 0 || electionBatch == 0)) {
            throw new ConfigException("config: log_bound needs repair_batch and election_batch");
        } else if (snapshotEvery < 0 || snapshotEvery > 1_000_000) {
            throw new ConfigException("config: snapshot_every must be between 0 and 1000000");
        } else if (snapshotEvery > 0 && (repairBatch == 0 || electionBatch == 0)) {
            // A node restarted from a checkpoint holds no slots at or below it: only the
            // trim-point guard of bounded elections keeps a candidate behind it from filling them
            // with no-ops, and only state transfer brings a follower behind it back
            // (docs/protocol.md, Compaction).
            throw new ConfigException("config: snapshot_every needs repair_batch and election_batch");
        } else if (mitmemDeadlineUs < 0 || mitmemDeadlineUs > 60_000_000) {
            throw new ConfigException("config: mitmem_deadline_us must be between 0 and 60000000");
        }
    }
}
