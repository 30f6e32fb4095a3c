package server

import (
	"bufio"
	"net"
	"sync"
	"time"

	"replicant/engines/go-wasm/core"
)

// peerLink carries everything this node sends to one peer over a connection it dials, and
// redials with back-off when the connection breaks. While the link is down, messages for the
// peer are dropped, as a network would drop them; over maxPeerQueueBytes the oldest queued
// messages are dropped, and so is a message queued longer than maxPeerMessageAge; a connection
// whose writes make no progress for maxPeerWriteStall is closed and redialled
// (docs/protocol.md, "Native servers", "Limits").
type peerLink struct {
	s    *Server
	id   int
	addr string
	stop chan struct{}
	once sync.Once

	mu          sync.Mutex // guards everything below
	wake        *sync.Cond // signalled when the queue gains a message or the link stops
	queue       [][]byte
	queuedAt    []time.Time // when each queued message was queued
	queuedBytes int
	now         func() time.Time // time.Now; a test's clock
	up          bool             // connected: sends are queued only while true
	stopped     bool
	conn        net.Conn
	// resetPending: reset-peer asked the writer to close this connection and redial
	resetPending bool
}

func newPeerLink(s *Server, id int, addr string) *peerLink {
	p := &peerLink{s: s, id: id, addr: addr, stop: make(chan struct{}), now: time.Now}
	p.wake = sync.NewCond(&p.mu)
	return p
}

func (p *peerLink) send(msg []byte) {
	c := &p.s.counters
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.up {
		c.droppedSends.Add(1)
		return
	}
	now := p.now()
	for len(p.queue) > 0 && (p.queuedBytes+len(msg)+1 > maxPeerQueueBytes || now.Sub(p.queuedAt[0]) > maxPeerMessageAge) {
		p.dropOldest()
	}
	if len(p.queue) == 0 {
		p.wake.Signal() // the writer waits only on an empty queue
	}
	p.queue = append(p.queue, msg)
	p.queuedAt = append(p.queuedAt, now)
	p.queuedBytes += len(msg) + 1
	c.peerQueueBytes.Add(int64(len(msg) + 1))
}

// dropOldest drops the oldest queued message and counts it (mu held).
func (p *peerLink) dropOldest() {
	p.forget(len(p.queue[0]) + 1)
	p.queue[0] = nil
	p.queue = p.queue[1:]
	p.queuedAt = p.queuedAt[1:]
	p.s.counters.droppedSends.Add(1)
}

// forget takes bytes that left the queue off the counts (mu held).
func (p *peerLink) forget(bytes int) {
	p.queuedBytes -= bytes
	p.s.counters.peerQueueBytes.Add(-int64(bytes))
}

// setUp marks the link connected or not; going down drops what is queued.
func (p *peerLink) setUp(up bool) {
	p.mu.Lock()
	p.up = up
	p.resetPending = false
	if !up {
		p.s.counters.droppedSends.Add(uint64(len(p.queue)))
		p.forget(p.queuedBytes)
		p.queue = nil
		p.queuedAt = nil
	}
	p.mu.Unlock()
}

func (p *peerLink) close() {
	p.once.Do(func() {
		close(p.stop)
		p.mu.Lock()
		p.stopped = true
		p.wake.Broadcast()
		if p.conn != nil {
			p.conn.Close()
		}
		p.mu.Unlock()
	})
}

// redialCap keeps the redial interval under the election timeout (at least 1.5 commit
// intervals): a restarted peer must hear our heartbeat before its first election timer fires,
// or it starts an election, wins it with an empty log, and cannot execute what the others have
// already trimmed (docs/protocol.md, "Native servers").
func redialCap(commitIntervalMs uint64) time.Duration {
	return max(time.Duration(commitIntervalMs)*time.Millisecond/2, time.Millisecond)
}

func (p *peerLink) run() {
	defer p.s.wg.Done()
	maxBackoff := redialCap(p.s.cfg.CommitIntervalMs)
	minBackoff := min(25*time.Millisecond, maxBackoff)
	backoff := minBackoff
	for {
		conn, err := net.DialTimeout("tcp", p.addr, time.Second)
		if err != nil {
			select {
			case <-p.stop:
				return
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, maxBackoff)
			continue
		}
		backoff = minBackoff
		conn.(*net.TCPConn).SetNoDelay(true)
		conn.(*net.TCPConn).SetWriteBuffer(peerSocketBufferBytes)
		p.mu.Lock()
		p.conn = conn
		p.mu.Unlock()
		p.setUp(true)
		more, reset := p.pump(conn)
		p.setUp(false) // what is queued is lost with the connection
		if reset {
			closeAbortively(conn)
			p.s.logger.Printf("link to peer %d at %s broke: reset-peer; reconnecting", p.id, p.addr)
		} else {
			conn.Close()
		}
		if !more {
			return
		}
	}
}

// pump writes queued messages until the connection fails or stalls (more: redial), reset-peer
// asks for a redial (more and reset), or the link stops.
func (p *peerLink) pump(conn net.Conn) (more, reset bool) {
	var batch [][]byte
	var buf []byte
	for {
		p.mu.Lock()
		for len(p.queue) == 0 && !p.stopped && !p.resetPending {
			p.wake.Wait()
		}
		if p.stopped {
			p.mu.Unlock()
			return false, false
		}
		if p.resetPending {
			p.mu.Unlock()
			return true, true
		}
		// Take a batch out of the queue and write it with the lock released: a slow peer must
		// never hold up the core, which queues under this lock.
		// (what waited too long while the peer did not read is dropped, not sent)
		for now := p.now(); len(p.queue) > 0 && now.Sub(p.queuedAt[0]) > maxPeerMessageAge; {
			p.dropOldest()
		}
		batch = batch[:0]
		n := 0
		for len(p.queue) > 0 && n < 32<<10 {
			batch = append(batch, p.queue[0])
			n += len(p.queue[0]) + 1
			p.queue[0] = nil
			p.queue = p.queue[1:]
			p.queuedAt = p.queuedAt[1:]
		}
		p.forget(n)
		p.mu.Unlock()
		buf = buf[:0]
		for _, msg := range batch {
			buf = append(buf, msg...)
			buf = append(buf, '\n')
		}
		if err := p.writeWithProgress(conn, buf); err != nil {
			return true, false
		}
	}
}

// writeWithProgress writes buf, failing when no byte of it is taken for maxPeerWriteStall: a
// peer that stopped reading (or a closed receive window whose reopening went unnoticed) gets a
// fresh connection instead of a writer blocked behind it (issue 20).
func (p *peerLink) writeWithProgress(conn net.Conn, buf []byte) error {
	defer conn.SetWriteDeadline(time.Time{})
	for len(buf) > 0 {
		conn.SetWriteDeadline(time.Now().Add(maxPeerWriteStall))
		n, err := conn.Write(buf)
		buf = buf[n:]
		if err == nil {
			continue
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() && n > 0 {
			continue // progress within the limit: a slow peer, not a stuck one
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			p.s.logger.Printf("link to peer %d at %s: no write progress for %v with %d bytes to send; redialling", p.id, p.addr, maxPeerWriteStall, len(buf))
		}
		return err
	}
	return nil
}

// servePeer reads messages another node sends us. A frame that does not decode is dropped
// and logged; the connection stays open.
func (s *Server) servePeer(conn net.Conn) {
	defer conn.Close()
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetReadBuffer(peerSocketBufferBytes)
	}
	r := bufio.NewReaderSize(conn, 256<<10)
	for {
		line, err := readLine(r, maxPeerLineBytes)
		if err == errLineTooLong {
			s.logger.Printf("closing a peer connection from %s: frame over %d bytes", conn.RemoteAddr(), maxPeerLineBytes)
			return
		}
		if err != nil {
			return
		}
		msg, err := core.DecodeMessage(line)
		if err != nil {
			s.counters.garbageFrames.Add(1)
			s.logger.Printf("dropped a garbage peer frame from %s: %.80q", conn.RemoteAddr(), line)
			continue
		}
		s.step(&core.Event{Type: core.EventMessage, Message: msg})
	}
}
