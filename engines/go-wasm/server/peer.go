package server

import (
	"bufio"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"replicant/engines/go-wasm/core"
)

// peerLink carries everything this node sends to one peer over a connection it dials, and
// redials with back-off when the connection breaks. While the link is down, messages for the
// peer are dropped, as a network would drop them (docs/protocol.md, "Native servers").
type peerLink struct {
	s     *Server
	id    int
	addr  string
	queue chan []byte
	stop  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	conn  net.Conn
	up    atomic.Bool // connected: sends are queued only while true
}

func newPeerLink(s *Server, id int, addr string) *peerLink {
	return &peerLink{s: s, id: id, addr: addr, queue: make(chan []byte, outboundQueueLen), stop: make(chan struct{})}
}

func (p *peerLink) send(msg []byte) {
	if !p.up.Load() {
		return
	}
	select {
	case p.queue <- msg:
	default: // the peer is unreachable and its queue full: drop, as a network would
	}
}

func (p *peerLink) close() {
	p.once.Do(func() {
		close(p.stop)
		p.mu.Lock()
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
		p.mu.Lock()
		p.conn = conn
		p.mu.Unlock()
		p.up.Store(true)
		more := p.pump(conn)
		p.up.Store(false)
		conn.Close()
		for len(p.queue) > 0 { // lost with the connection
			<-p.queue
		}
		if !more {
			return
		}
	}
}

// pump writes queued messages until the connection fails (true: redial) or the link stops.
func (p *peerLink) pump(conn net.Conn) bool {
	w := bufio.NewWriterSize(conn, 64<<10)
	for {
		select {
		case <-p.stop:
			return false
		case msg := <-p.queue:
			w.Write(msg)
			w.WriteByte('\n')
			for len(p.queue) > 0 && w.Buffered() < 32<<10 {
				w.Write(<-p.queue)
				w.WriteByte('\n')
			}
			if err := w.Flush(); err != nil {
				return true
			}
		}
	}
}

// servePeer reads messages another node sends us. A frame that does not decode is dropped
// and logged; the connection stays open.
func (s *Server) servePeer(conn net.Conn) {
	defer conn.Close()
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
			s.logger.Printf("dropped a garbage peer frame from %s: %.80q", conn.RemoteAddr(), line)
			continue
		}
		s.step(&core.Event{Type: core.EventMessage, Message: msg})
	}
}
