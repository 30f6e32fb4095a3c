package server

import "time"

// Everything a native server buffers has a limit (docs/protocol.md, "Native servers",
// "Limits"): the same values in all four servers. Beyond a limit the server answers `retry`,
// stops reading, or drops the oldest peer message, and counts it in its status line.
const (
	maxClientLineBytes = 1 << 20  // longer client lines: bad command, connection closed
	maxPeerLineBytes   = 64 << 20 // longer peer frames close the link
	// Client connections open at once; one more is told `retry` and closed.
	maxClients = 256
	// Client requests handed to the core and not yet answered, per connection and per node;
	// one more is answered `retry` by the server without reaching the core.
	maxInFlightPerClient = 64
	maxInFlightTotal     = 1024
	// Reply bytes a client has not read yet; above this the server stops reading its requests.
	maxReplyBacklogBytes = 1 << 20
	// Accept phases the core keeps open (its max_pending_accepts); more: the core answers `retry`.
	maxPendingAccepts = 256
	// Bytes queued for one peer and not yet written; over it the oldest messages are dropped.
	maxPeerQueueBytes = 1 << 20
	// A message queued for a peer longer than this is dropped (the peer stopped reading: what
	// it would get after resuming is stale, and working through it starves the node that must
	// catch up; repair and snapshots bring it back instead; issue 20).
	maxPeerMessageAge = time.Second
	// A link whose writes make no progress this long while it has bytes to send is closed and
	// redialled (a peer that stopped reading, or a receive window that closed while it was stopped
	// and whose reopening went unnoticed: a fresh connection has neither; issue 20).
	maxPeerWriteStall = time.Second
	// The kernel's send buffer of a link and receive buffer of a peer connection: the bytes
	// the kernel keeps for a stopped peer, where neither age nor size limits reach them
	// (autotuned, loopback buffers held megabytes: seconds of stale traffic). As large as the
	// peer queue, so one batch goes into the kernel in one write: at 32 KiB a link moved about
	// 128 KiB per wake-up of the reader, below a leader's rate on a loaded machine while it
	// loads 1 KB records, so the queue overflowed, followers lost accepts, and elections and
	// snapshots followed (issue 16; data/native/2026-11-28-rust-followers).
	peerSocketBufferBytes = maxPeerQueueBytes
	// How often a node logs its status line.
	statusInterval = time.Second
)
