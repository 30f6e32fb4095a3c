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
	// How often a node logs its status line.
	statusInterval = time.Second
)
