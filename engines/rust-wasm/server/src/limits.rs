//! Everything a native server buffers has a limit (docs/protocol.md, "Native servers",
//! "Limits"): the same values in all four servers. Beyond a limit the server answers `retry`,
//! stops reading, or drops the oldest peer message, and counts it in its status line.

use std::time::Duration;

/// Longest client line (bad command, connection closed).
pub const MAX_CLIENT_LINE: usize = 1 << 20;
/// Longest peer line (link closed).
pub const MAX_PEER_LINE: usize = 64 << 20;
/// Client connections open at once; one more is told `retry` and closed.
pub const MAX_CLIENTS: u64 = 256;
/// Client requests handed to the core and not yet answered, per connection and per node; one
/// more is answered `retry` by the server without reaching the core.
pub const MAX_IN_FLIGHT_PER_CLIENT: u64 = 64;
pub const MAX_IN_FLIGHT_TOTAL: u64 = 1024;
/// Reply bytes a client has not read yet; above this the server stops reading its requests.
pub const MAX_REPLY_BACKLOG_BYTES: usize = 1 << 20;
/// Accept phases the core keeps open (its max_pending_accepts); more: the core answers `retry`.
pub const MAX_PENDING_ACCEPTS: u64 = 256;
/// Bytes queued for one peer and not yet written; over it the oldest messages are dropped.
pub const MAX_PEER_QUEUE_BYTES: usize = 1 << 20;
/// A message queued for a peer longer than this is dropped (the peer stopped reading: what it
/// would get after resuming is stale, and working through it starves the node that must catch
/// up; repair and snapshots bring it back instead; issue 20).
pub const MAX_PEER_MESSAGE_AGE: Duration = Duration::from_secs(1);
/// A link whose writes make no progress this long while it has bytes to send is closed and
/// redialled (a peer that stopped reading, or a receive window that closed while it was stopped
/// and whose reopening went unnoticed: a fresh connection has neither; issue 20).
pub const MAX_PEER_WRITE_STALL: Duration = Duration::from_secs(1);
/// The kernel's send buffer of a link and receive buffer of a peer connection: the bytes the
/// kernel keeps for a stopped peer, where neither age nor size limits reach them (autotuned,
/// loopback buffers held megabytes: seconds of stale traffic). As large as the peer queue, so
/// one batch (`PeerLink::take_batch`, up to 1 MiB) goes into the kernel in one write: at 32 KiB
/// a link moved 64 KiB per wake-up of the reader, which on a loaded machine was below a
/// leader's rate while it loads 1 KB records, so the queue overflowed, followers lost accepts,
/// elections and snapshots followed, and a follower peaked at twice the store (issue 16).
pub const PEER_SOCKET_BUFFER_BYTES: u32 = MAX_PEER_QUEUE_BYTES as u32;
/// How often a node logs its status line.
pub const STATUS_INTERVAL: Duration = Duration::from_secs(1);
