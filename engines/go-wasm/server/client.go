package server

import (
	"bufio"
	"net"
	"sync"

	"replicant/engines/go-wasm/core"
)

// clientConn is one client: a reader goroutine feeding the core, a writer goroutine sending
// replies in the order the core produced them.
type clientConn struct {
	conn    net.Conn
	replies chan string
	once    sync.Once
}

func (c *clientConn) reply(line string) {
	select {
	case c.replies <- line:
	default: // a client that does not read its replies loses them
	}
}

func (c *clientConn) close() { c.once.Do(func() { close(c.replies) }) }

func (s *Server) serveClient(conn net.Conn) {
	defer conn.Close()
	c := &clientConn{conn: conn, replies: make(chan string, outboundQueueLen)}
	s.mu.Lock()
	s.nextClientSeq++
	clientID := uint64(s.id) + uint64(len(s.cfg.Peers))*s.nextClientSeq
	s.clients[clientID] = c
	s.mu.Unlock()

	done := make(chan struct{})
	go func() { // writer
		defer close(done)
		w := bufio.NewWriter(conn)
		for line := range c.replies {
			w.WriteString(line)
			w.WriteByte('\n')
			if len(c.replies) == 0 {
				if err := w.Flush(); err != nil {
					return
				}
			}
		}
		w.Flush()
	}()

	r := bufio.NewReaderSize(conn, 64<<10)
	var requestID uint64
	for {
		line, err := readLine(r, maxClientLineBytes)
		if err == errLineTooLong {
			c.reply("bad command")
			break
		}
		if err != nil {
			break
		}
		requestID++
		s.step(&core.Event{Type: core.EventClient, ClientID: clientID, RequestID: requestID, Line: string(line)})
	}
	s.mu.Lock()
	delete(s.clients, clientID)
	s.mu.Unlock()
	c.close()
	<-done
}
