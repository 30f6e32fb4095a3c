package server

import (
	"fmt"
	"net"
	"strconv"
)

// The test hook that resets a peer link from inside the server (docs/protocol.md, "Native
// servers", "reset-peer"): the cluster tests used to reset links through forwarding proxies,
// whose event loop stalled under load and held every peer message meanwhile (docs/
// reliability.md, "Fifth series"). The command is off unless the server was started with
// --test-peer-reset.

// peerResetVerb is the operator command's verb on the client port.
const peerResetVerb = "reset-peer"

// EnablePeerReset turns the reset-peer command on (--test-peer-reset); call it before Start.
func (s *Server) EnablePeerReset() { s.peerResetOn = true }

// peerResetCommand answers a reset-peer line; false when the line is not one (it goes to the
// core as a client command).
func (s *Server) peerResetCommand(line string) (string, bool) {
	if line != peerResetVerb && (len(line) <= len(peerResetVerb) || line[:len(peerResetVerb)+1] != peerResetVerb+" ") {
		return "", false
	}
	if !s.peerResetOn {
		return "error reset-peer is off: start the server with --test-peer-reset", true
	}
	arg := ""
	if len(line) > len(peerResetVerb) {
		arg = line[len(peerResetVerb)+1:]
	}
	peer, ok := parsePeerID(arg, len(s.peers), s.id)
	if !ok {
		return fmt.Sprintf("error reset-peer takes one peer id, 0 to %d and not this node's own (%d): got %q", len(s.peers)-1, s.id, arg), true
	}
	s.peers[peer].reset()
	return fmt.Sprintf("reset peer %d", peer), true
}

// parsePeerID reads a peer id in decimal digits only (no sign, no spaces, at most 3 digits).
func parsePeerID(arg string, numPeers, self int) (int, bool) {
	if len(arg) == 0 || len(arg) > 3 {
		return 0, false
	}
	for _, c := range arg {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n >= numPeers || n == self {
		return 0, false
	}
	return n, true
}

// reset drops what is queued for the peer and has the writer close its connection abortively
// (SO_LINGER 0: an RST, and what the kernel still held for the peer is lost too) and redial, as
// after a TCP reset from outside. A write under way finishes first; a link that is down has
// nothing to reset.
func (p *peerLink) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.up {
		return
	}
	p.s.counters.droppedSends.Add(uint64(len(p.queue)))
	p.forget(p.queuedBytes)
	p.queue = nil
	p.queuedAt = nil
	p.resetPending = true
	p.wake.Broadcast()
}

// closeAbortively closes conn with an RST instead of a FIN.
func closeAbortively(conn net.Conn) {
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	conn.Close()
}
