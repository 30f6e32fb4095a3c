package replicant.server;

/**
 * Everything a native server buffers has a limit (docs/protocol.md, "Native servers",
 * "Limits"): the same values in all four servers. Beyond a limit the server answers {@code retry},
 * stops reading, or drops the oldest peer message, and counts it in its status line.
 */
final class Limits {
    private Limits() {}

    /** Longest client line (bad command, connection closed). */
    static final int MAX_CLIENT_LINE = 1 << 20;
    /** Longest peer line (link closed). */
    static final int MAX_PEER_LINE = 64 << 20;
    /** Client connections open at once; one more is told {@code retry} and closed. */
    static final long MAX_CLIENTS = 256;
    /** Client requests in the core and not yet answered, per connection and per node; one more is answered {@code retry} by the server. */
    static final long MAX_IN_FLIGHT_PER_CLIENT = 64;
    static final long MAX_IN_FLIGHT_TOTAL = 1024;
    /** Reply bytes a client has not read yet; above this the server stops reading its requests. */
    static final long MAX_REPLY_BACKLOG_BYTES = 1 << 20;
    /** Accept phases the core keeps open (its max_pending_accepts); more: the core answers {@code retry}. */
    static final long MAX_PENDING_ACCEPTS = 256;
    /** Bytes queued for one peer and not yet written; over it the oldest messages are dropped. */
    static final long MAX_PEER_QUEUE_BYTES = 1 << 20;
    /**
     * A message queued for a peer longer than this is dropped (the peer stopped reading: what it would
     * get after resuming is stale, and working through it starves the node that must catch up; repair
     * and snapshots bring it back instead; issue 20).
     */
    static final long MAX_PEER_MESSAGE_AGE_NS = 1_000_000_000L;
    /**
     * A link whose writes make no progress this long while it has bytes to send is closed and redialled
     * (a peer that stopped reading, or a receive window that closed while it was stopped and whose
     * reopening went unnoticed: a fresh connection has neither; issue 20).
     */
    static final long MAX_PEER_WRITE_STALL_NS = 1_000_000_000L;
    /**
     * The kernel's send buffer of a link and receive buffer of a peer connection: the bytes the kernel
     * keeps for a stopped peer, where neither age nor size limits reach them (autotuned, loopback
     * buffers held megabytes: seconds of stale traffic). As large as the peer queue, so one batch
     * goes into the kernel in one write: at 32 KiB a link moved about 128 KiB per wake-up of the
     * reader, below a leader's rate on a loaded machine while it loads 1 KB records, so the queue
     * overflowed, followers lost accepts, and elections and snapshots followed (issue 16;
     * data/native/2026-11-28-rust-followers; the same value in the other three servers).
     */
    static final int PEER_SOCKET_BUFFER_BYTES = (int) MAX_PEER_QUEUE_BYTES;
    /** How often a node logs its status line. */
    static final long STATUS_INTERVAL_MS = 1000;
}
