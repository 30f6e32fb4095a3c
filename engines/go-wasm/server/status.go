package server

import (
	"bytes"
	"fmt"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"
)

// driverCounters are the server's own running totals and levels, reported in its status line
// (docs/protocol.md, "Native servers"): the same keys in all four servers.
type driverCounters struct {
	clients        atomic.Uint64 // client connections open
	clientsRefused atomic.Uint64 // connections turned away over maxClients
	inFlight       atomic.Uint64 // client requests in the core, not yet answered
	shedRetries    atomic.Uint64 // requests answered `retry` by the server's limits
	readsPaused    atomic.Uint64 // times a client's reading paused on its reply backlog
	peerQueueBytes atomic.Int64  // bytes queued for all peers, not yet written
	droppedSends   atomic.Uint64 // peer messages dropped (link down or queue full)
	garbageFrames  atomic.Uint64 // peer lines that did not decode or were misaddressed
	timerLateMaxUs atomic.Uint64 // worst timer lateness since the last status line
	walGroups      atomic.Uint64 // group writes the persister made (one sync each under --fsync always)
	walBatches     atomic.Uint64 // persist batches those groups carried
	// The Go runtime's own view of its heap, read at each status line (runtime/metrics): the goal
	// the collector grows the heap to before its next cycle (GOGC's target) and the heap live
	// after the last cycle. Resident memory follows the goal, not the live heap: these say
	// whether a rising RSS is the runtime settling or the server holding more (docs/protocol.md,
	// "Repair", the 60 s reset run).
	goHeapGoalBytes atomic.Uint64
	goHeapLiveBytes atomic.Uint64
}

var heapMetrics = []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}

// readHeapMetrics stores the runtime's heap goal and live heap into the counters.
func (c *driverCounters) readHeapMetrics() {
	samples := make([]metrics.Sample, len(heapMetrics))
	copy(samples, heapMetrics)
	metrics.Read(samples)
	if samples[0].Value.Kind() == metrics.KindUint64 {
		c.goHeapGoalBytes.Store(samples[0].Value.Uint64())
	}
	if samples[1].Value.Kind() == metrics.KindUint64 {
		c.goHeapLiveBytes.Store(samples[1].Value.Uint64())
	}
}

// groupMean is the mean persist batches per group write between two readings of the WAL
// counters, "0.00" when there was none: above 1, requests shared a sync (the group commit).
func groupMean(groups, batches uint64) string {
	if groups == 0 {
		return "0.00"
	}
	return strconv.FormatFloat(float64(batches)/float64(groups), 'f', 2, 64)
}

// coreView is the core's side of a status line, read from its StatusFields JSON (Inspect's
// spelling, so Inspect's output reads the same).
type coreView struct {
	role, leader                                             string
	ballot, elections, lastIndex, lastExecuted, gle, replays uint64
}

// fieldText returns the raw text of the first `"key":value` in js (value up to , or }); in
// canonical StatusFields and Inspect output the first "ballot" and "leader" keys are the node's own.
func fieldText(js []byte, key string) string {
	needle := []byte(`"` + key + `":`)
	at := bytes.Index(js, needle)
	if at < 0 {
		return ""
	}
	rest := js[at+len(needle):]
	end := bytes.IndexAny(rest, ",}")
	if end < 0 {
		end = len(rest)
	}
	return string(rest[:end])
}

func readCoreView(inspect []byte) coreView {
	v := coreView{role: "?", leader: "null"}
	if r := fieldText(inspect, "role"); len(r) >= 2 && r[0] == '"' && r[len(r)-1] == '"' {
		v.role = r[1 : len(r)-1]
	}
	if l := fieldText(inspect, "leader"); l != "" {
		v.leader = l
	}
	v.ballot, _ = strconv.ParseUint(fieldText(inspect, "ballot"), 10, 64)
	v.elections, _ = strconv.ParseUint(fieldText(inspect, "elections"), 10, 64)
	v.lastIndex, _ = strconv.ParseUint(fieldText(inspect, "last_index"), 10, 64)
	v.lastExecuted, _ = strconv.ParseUint(fieldText(inspect, "last_executed"), 10, 64)
	v.gle, _ = strconv.ParseUint(fieldText(inspect, "global_last_executed"), 10, 64)
	v.replays, _ = strconv.ParseUint(fieldText(inspect, "replay_remaining"), 10, 64)
	return v
}

// statusLine formats the line; walMean is the mean group size since the previous line.
func statusLine(v coreView, c *driverCounters, walMean string) string {
	return fmt.Sprintf(`status {"role":"%s","leader":%s,"ballot":%d,"elections":%d,"last_index":%d,`+
		`"last_executed":%d,"global_last_executed":%d,"replay_remaining":%d,"clients":%d,`+
		`"clients_refused":%d,"in_flight":%d,"shed_retries":%d,"reads_paused":%d,"peer_queue_bytes":%d,`+
		`"dropped_sends":%d,"garbage_frames":%d,"timer_late_max_ms":%d,"go_heap_goal_bytes":%d,"go_heap_live_bytes":%d,"wal_groups":%d,"wal_batches":%d,"wal_group_mean":%s}`,
		v.role, v.leader, v.ballot, v.elections, v.lastIndex, v.lastExecuted, v.gle, v.replays, c.clients.Load(), c.clientsRefused.Load(), c.inFlight.Load(),
		c.shedRetries.Load(), c.readsPaused.Load(), c.peerQueueBytes.Load(), c.droppedSends.Load(),
		c.garbageFrames.Load(), c.timerLateMaxUs.Load()/1000, c.goHeapGoalBytes.Load(), c.goHeapLiveBytes.Load(), c.walGroups.Load(), c.walBatches.Load(), walMean)
}

// noteTimerLateness records how long after its deadline a timer reached the core.
func (c *driverCounters) noteTimerLateness(deadline time.Time) {
	late := uint64(max(time.Since(deadline), 0) / time.Microsecond)
	for {
		seen := c.timerLateMaxUs.Load()
		if late <= seen || c.timerLateMaxUs.CompareAndSwap(seen, late) {
			return
		}
	}
}

// runStatus logs the status line every s.statusEvery, and says when a limit turned work away
// in the last interval.
func (s *Server) runStatus() {
	defer s.wg.Done()
	var shed, dropped, refused, groups, batches uint64
	tick := time.NewTicker(s.statusEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.stopStatus:
			return
		case <-tick.C:
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		v := readCoreView(s.node.StatusFields())
		s.mu.Unlock()
		c := &s.counters
		if n := c.shedRetries.Load(); n > shed {
			s.logger.Printf("limit: answered %d client requests retry (in flight: %d of %d per node, %d per connection)",
				n-shed, c.inFlight.Load(), maxInFlightTotal, maxInFlightPerClient)
			shed = n
		}
		if n := c.droppedSends.Load(); n > dropped {
			s.logger.Printf("limit: dropped %d peer messages (link down or over %d MiB queued)", n-dropped, maxPeerQueueBytes>>20)
			dropped = n
		}
		if n := c.clientsRefused.Load(); n > refused {
			s.logger.Printf("limit: refused %d client connections (%d open)", n-refused, maxClients)
			refused = n
		}
		g, b := c.walGroups.Load(), c.walBatches.Load()
		c.readHeapMetrics()
		s.logger.Print(statusLine(v, c, groupMean(g-groups, b-batches)))
		groups, batches = g, b
		c.timerLateMaxUs.Store(0)
	}
}
