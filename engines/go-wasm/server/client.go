package server

import (
	"bufio"
	"net"
	"sync"
	"time"

	"replicant/engines/go-wasm/core"
)

// clientConn is one client: a reader goroutine feeding the core, a writer goroutine sending
// replies in the order the core produced them. Replies wait in `pending`; while more than
// maxReplyBacklogBytes wait, the reader stops reading the client's requests.
type clientConn struct {
	id       uint64
	conn     net.Conn
	inFlight uint64 // requests in the core, not yet answered; guarded by Server.mu

	mu      sync.Mutex // guards everything below
	cond    *sync.Cond // signalled when pending grows, drains, or the connection closes
	pending []byte
	closed  bool
}

func newClientConn(id uint64, conn net.Conn) *clientConn {
	c := &clientConn{id: id, conn: conn}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// queue adds a reply line; never blocks.
func (c *clientConn) queue(line string) {
	c.mu.Lock()
	if !c.closed {
		c.pending = append(append(c.pending, line...), '\n')
		c.cond.Broadcast()
	}
	c.mu.Unlock()
}

func (c *clientConn) close() {
	c.mu.Lock()
	c.closed = true
	c.cond.Broadcast()
	c.mu.Unlock()
}

// waitBacklogBelowLimit blocks while the client leaves too many reply bytes unread; true if it
// had to wait.
func (c *clientConn) waitBacklogBelowLimit() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	waited := false
	for len(c.pending) >= maxReplyBacklogBytes && !c.closed {
		waited = true
		c.cond.Wait()
	}
	return waited
}

// write sends pending replies until the connection closes and nothing is left.
func (c *clientConn) write() {
	var out []byte
	for {
		c.mu.Lock()
		for len(c.pending) == 0 && !c.closed {
			c.cond.Wait()
		}
		if len(c.pending) == 0 {
			c.mu.Unlock()
			return
		}
		out, c.pending = c.pending, out[:0]
		c.cond.Broadcast() // the backlog drained
		c.mu.Unlock()
		if _, err := c.conn.Write(out); err != nil {
			c.mu.Lock()
			c.closed = true
			c.pending = nil
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
	}
}

func (s *Server) serveClient(conn net.Conn) {
	defer conn.Close()
	if s.counters.clients.Add(1) > maxClients {
		s.counters.clients.Add(^uint64(0))
		s.counters.clientsRefused.Add(1)
		conn.Write([]byte("retry\n"))
		return
	}
	defer s.counters.clients.Add(^uint64(0))
	s.mu.Lock()
	s.nextClientSeq++
	c := newClientConn(uint64(s.id)+uint64(len(s.cfg.Peers))*s.nextClientSeq, conn)
	s.clients[c.id] = c
	s.mu.Unlock()

	done := make(chan struct{})
	go func() {
		defer close(done)
		c.write()
	}()

	r := bufio.NewReaderSize(conn, 64<<10)
	var requestID uint64
	for {
		if c.waitBacklogBelowLimit() {
			s.counters.readsPaused.Add(1)
		}
		line, err := readLine(r, maxClientLineBytes)
		if err == errLineTooLong {
			s.logger.Printf("client %d sent a line over 1 MiB; closing", c.id)
			c.queue("bad command")
			break
		}
		if err != nil {
			break
		}
		requestID++
		s.clientLine(c, requestID, string(line))
	}
	// The client stopped sending: give replies still in flight a moment to arrive.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		s.mu.Lock()
		waiting := c.inFlight
		s.mu.Unlock()
		if waiting == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	s.inFlight -= c.inFlight
	c.inFlight = 0
	s.counters.inFlight.Store(s.inFlight)
	delete(s.clients, c.id)
	s.mu.Unlock()
	c.close()
	<-done
}

// clientLine hands one request to the core, or answers `retry` itself when the connection or
// the node already has as many requests in the core as the limits allow.
func (s *Server) clientLine(c *clientConn, requestID uint64, line string) {
	if reply, ok := s.peerResetCommand(line); ok {
		c.queue(reply) // (answered at once, not in the core's order: an operator's connection)
		return
	}
	s.mu.Lock()
	if c.inFlight < maxInFlightPerClient && s.inFlight < maxInFlightTotal {
		c.inFlight++
		s.inFlight++
		s.counters.inFlight.Store(s.inFlight)
		s.stepLocked(&core.Event{Type: core.EventClient, ClientID: c.id, RequestID: requestID, Line: line})
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.counters.shedRetries.Add(1)
	c.queue("retry")
}
