// Package server is the Go engine's native driver: TCP for clients and peers, real timers,
// and the same sans-IO core as every other target. Shaped like Replicant's TCP variant: a
// goroutine per connection; one lock serializes every call into the core (the role of
// Replicant's Log mutex); execution happens inside the core's step.
package server

import (
	"fmt"
	"log"
	"net"
	"sync"
	"time"

	"replicant/engines/go-wasm/core"
)

type Server struct {
	id     int
	cfg    FileConfig
	logger *log.Logger

	mu            sync.Mutex
	node          *core.Node
	timerGen      [2]uint64
	timers        [2]*time.Timer
	timerDeadline [2]time.Time
	clients       map[uint64]*clientConn
	nextClientSeq uint64
	inFlight      uint64 // client requests in the core, over all connections
	closed        bool
	counters      driverCounters
	stopStatus    chan struct{}
	// how often the status line is logged (SetStatusInterval; default statusInterval)
	statusEvery time.Duration
	// the reset-peer test hook is on (EnablePeerReset, --test-peer-reset; peer_reset.go)
	peerResetOn bool

	// durability log (EnableDurability): the write-ahead log and the records it held at start
	wal            *WAL
	restartRecords []core.Record
	persistQueue   []persistBatch // persist effects not yet taken by the persister (persister.go)
	persistReady   *sync.Cond     // on mu: the queue grew, or the server closed
	// beforePersist, when set (tests), runs on the persister before each group's write and
	// sync, with the lock released, given the number of batches in the group.
	beforePersist func(batches int)

	gc *gcWatcher // GC mitigation (EnableGCMitigation); nil: the Go collector runs as usual

	peers     []*peerLink // outbound, by peer id (nil for ourselves)
	listeners []net.Listener
	accepted  map[net.Conn]struct{} // inbound connections, closed by Stop
	wg        sync.WaitGroup
}

// New creates a server; Start opens its sockets.
func New(cfg FileConfig, id int, seed uint64, logger *log.Logger) (*Server, error) {
	ncfg := core.DefaultConfig()
	ncfg.ID, ncfg.NumPeers, ncfg.Seed = uint64(id), uint64(len(cfg.Peers)), seed
	ncfg.CommitIntervalUs = cfg.CommitIntervalMs * 1000
	ncfg.CheckQuorum = cfg.CheckQuorum
	ncfg.RepairBatch = core.ServerRepairBatch
	ncfg.ElectionBatch = core.ServerElectionBatch
	ncfg.LogBound = core.ServerLogBound
	ncfg.Trace = false // traces are for people; the server only needs the protocol
	ncfg.MaxPendingAccepts = maxPendingAccepts
	if err := ncfg.Validate(); err != nil {
		return nil, err
	}
	s := &Server{id: id, cfg: cfg, logger: logger, node: core.NewNode(ncfg), clients: map[uint64]*clientConn{},
		accepted: map[net.Conn]struct{}{}, stopStatus: make(chan struct{}), statusEvery: statusInterval}
	s.persistReady = sync.NewCond(&s.mu)
	s.peers = make([]*peerLink, len(cfg.Peers))
	for p := range cfg.Peers {
		if p != id {
			s.peers[p] = newPeerLink(s, p, cfg.Peers[p])
		}
	}
	return s, nil
}

// SetStatusInterval sets how often the status line is logged (10 ms to 60 s); call it
// before Start.
func (s *Server) SetStatusInterval(d time.Duration) error {
	if d < 10*time.Millisecond || d > time.Minute {
		return fmt.Errorf("the status interval must be between 10 ms and 60 s, not %v", d)
	}
	s.statusEvery = d
	return nil
}

// SetLogBound sets the core's log bound (docs/protocol.md, "Log bound"; 0: the log grows while
// a peer is silent); call it before EnableDurability and Start.
func (s *Server) SetLogBound(n uint64) error {
	cfg := s.node.Config()
	cfg.LogBound = n
	if err := cfg.Validate(); err != nil {
		return err
	}
	s.node = core.NewNode(cfg)
	return nil
}

// EnableDurability switches the node to durability log on w, with the records w held, taking
// a checkpoint every snapshotEvery executed instances (0: never; the log then grows); call it
// before Start. A record that does not decode is an error: the node must not start on records
// it cannot read.
func (s *Server) EnableDurability(w *WAL, held WALReadResult, snapshotEvery uint64) error {
	cfg := s.node.Config()
	cfg.Durability = core.DurabilityLog
	cfg.SnapshotEvery = snapshotEvery
	if err := cfg.Validate(); err != nil {
		return err
	}
	records := make([]core.Record, 0, len(held.Records))
	for i, raw := range held.Records {
		r, err := core.DecodeRecord(raw)
		if err != nil {
			return fmt.Errorf("%s: record %d (a good checksum) is not a record: %.80q", w.path, i, raw)
		}
		records = append(records, r)
	}
	s.node, s.wal, s.restartRecords = core.NewNode(cfg), w, records
	return nil
}

// Start listens for peers and clients and starts the node.
func (s *Server) Start() error {
	peerLn, err := net.Listen("tcp", s.cfg.Peers[s.id])
	if err != nil {
		return fmt.Errorf("cannot listen for peers on %s: %v", s.cfg.Peers[s.id], err)
	}
	clientLn, err := net.Listen("tcp", s.cfg.Clients[s.id])
	if err != nil {
		peerLn.Close()
		return fmt.Errorf("cannot listen for clients on %s: %v", s.cfg.Clients[s.id], err)
	}
	s.listeners = []net.Listener{peerLn, clientLn}
	for _, p := range s.peers {
		if p != nil {
			s.wg.Add(1)
			go p.run()
		}
	}
	if s.wal != nil {
		s.mu.Lock()
		refused := s.stepLocked(&core.Event{Type: core.EventRestart, Records: s.restartRecords})
		s.mu.Unlock()
		if refused {
			peerLn.Close()
			clientLn.Close()
			return fmt.Errorf("%s: the core refused the records it holds (a record no node could have written)", s.wal.path)
		}
		s.logger.Printf("restarted from %s: %d records", s.wal.path, len(s.restartRecords))
		s.restartRecords = nil
		s.wg.Add(1)
		go s.runPersister()
	}
	if s.gc != nil {
		s.gc.start()
	}
	s.wg.Add(3)
	go s.acceptLoop(peerLn, s.servePeer)
	go s.acceptLoop(clientLn, s.serveClient)
	go s.runStatus()
	if s.wal == nil {
		s.step(&core.Event{Type: core.EventStart})
	}
	return nil
}

// Stop closes every socket and timer.
func (s *Server) Stop() {
	s.mu.Lock()
	s.closed = true
	s.persistReady.Broadcast()
	close(s.stopStatus)
	for _, t := range s.timers {
		if t != nil {
			t.Stop()
		}
	}
	for _, c := range s.clients {
		c.close()
	}
	for conn := range s.accepted {
		conn.Close()
	}
	s.mu.Unlock()
	for _, ln := range s.listeners {
		ln.Close()
	}
	for _, p := range s.peers {
		if p != nil {
			p.close()
		}
	}
	s.wg.Wait()
	if s.wal != nil {
		if err := s.wal.Close(); err != nil {
			s.logger.Printf("closing the write-ahead log: %v", err)
		}
	}
}

func (s *Server) acceptLoop(ln net.Listener, serve func(net.Conn)) {
	defer s.wg.Done()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		if tcp, ok := conn.(*net.TCPConn); ok {
			tcp.SetNoDelay(true) // the paper disables Nagle's algorithm everywhere (§4.6)
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			conn.Close()
			return
		}
		s.accepted[conn] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			serve(conn)
			s.mu.Lock()
			delete(s.accepted, conn)
			s.mu.Unlock()
		}()
	}
}

// step feeds one event to the core and carries out its effects.
func (s *Server) step(ev *core.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stepLocked(ev)
}

// stepLocked is step with s.mu held. No effect blocks: messages, replies and persists only go
// into queues. It reports whether the core refused the event.
func (s *Server) stepLocked(ev *core.Event) (refused bool) {
	if s.closed {
		return false
	}
	for _, e := range s.node.Step(ev) {
		switch e.Type {
		case core.EffectPersist:
			// The persister writes (and syncs, by policy) it before the core hears it is
			// done, so nothing the core holds for it leaves first.
			s.queuePersistLocked(e.PersistID, e.Records)
		case core.EffectSend:
			if p := s.peers[e.Message.To]; p != nil {
				p.send(core.AppendMessage(nil, &e.Message))
			}
		case core.EffectReply:
			c := s.clients[e.ClientID]
			if c == nil {
				continue // the client has gone (its requests left the count)
			}
			if c.inFlight > 0 {
				c.inFlight--
				s.inFlight--
				s.counters.inFlight.Store(s.inFlight)
			}
			c.queue(core.ReplyLine(e.Result))
		case core.EffectSetTimer:
			s.setTimer(e.Timer, time.Duration(e.DelayUs)*time.Microsecond)
		case core.EffectCancelTimer:
			s.timerGen[e.Timer]++
			if t := s.timers[e.Timer]; t != nil {
				t.Stop()
			}
		case core.EffectCollect:
			if s.gc != nil {
				s.gc.onCollect()
			}
		case core.EffectError:
			s.logger.Printf("dropped an event the core could not read")
			refused = true
		}
	}
	return refused
}

// setTimer arms (or re-arms) a named timer. A generation number makes a timer that fires
// after being replaced or cancelled a no-op.
func (s *Server) setTimer(name core.TimerName, d time.Duration) {
	s.timerGen[name]++
	gen := s.timerGen[name]
	if t := s.timers[name]; t != nil {
		t.Stop()
	}
	s.timerDeadline[name] = time.Now().Add(d)
	s.timers[name] = time.AfterFunc(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.timerGen[name] == gen {
			s.counters.noteTimerLateness(s.timerDeadline[name])
			s.stepLocked(&core.Event{Type: core.EventTimer, Timer: name})
		}
	})
}
