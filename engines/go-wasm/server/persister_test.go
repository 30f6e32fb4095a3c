package server

import (
	"fmt"
	"io"
	"log"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncGate is a beforePersist hook that, while shut, holds each group's write and sync until
// it is opened, and records every group's size.
type syncGate struct {
	mu      sync.Mutex
	shut    bool
	open    chan struct{}
	entered chan struct{} // one token each time a group waits at the shut gate
	groups  []int
}

func newSyncGate() *syncGate {
	return &syncGate{open: make(chan struct{}), entered: make(chan struct{}, 1024)}
}

func (g *syncGate) hook(batches int) {
	g.mu.Lock()
	g.groups = append(g.groups, batches)
	shut := g.shut
	g.mu.Unlock()
	if shut {
		g.entered <- struct{}{}
		<-g.open
	}
}

func (g *syncGate) setShut(shut bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shut = shut
	if !shut {
		close(g.open)
	}
}

func (g *syncGate) largestGroupSince(i int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	most := 0
	for _, n := range g.groups[i:] {
		most = max(most, n)
	}
	return most
}

func (g *syncGate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.groups)
}

// hasLeader: some node's core is the leader.
func hasLeader(servers []*Server) bool {
	for _, s := range servers {
		s.mu.Lock()
		role := readCoreView(s.node.Inspect()).role
		s.mu.Unlock()
		if role == "leader" {
			return true
		}
	}
	return false
}

// waitFor polls a condition on state (not a fixed delay) until it holds or 10 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// While the leader's sync is held: the core keeps taking requests (the lock is not held across
// write and fsync), no reply leaves before its records are synced, and the requests that came
// in meanwhile share one write and one sync afterwards (a group commit).
func TestPersisterGroupsBatchesAndNothingLeavesBeforeItsSync(t *testing.T) {
	const clients = 6
	addrs := freeAddrs(t, 6)
	// a long commit interval: a leader whose sends wait on a held sync must not be voted out
	cfg := FileConfig{CommitIntervalMs: 1000, Peers: addrs[:3], Clients: addrs[3:]}
	var servers []*Server
	gates := make([]*syncGate, 3)
	for id := 0; id < 3; id++ {
		s, err := New(cfg, id, uint64(id+1), log.New(io.Discard, "", 0))
		if err != nil {
			t.Fatal(err)
		}
		w, held, err := OpenWAL(t.TempDir(), FsyncAlways)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.EnableDurability(w, held, 0); err != nil {
			t.Fatal(err)
		}
		gates[id] = newSyncGate()
		s.beforePersist = gates[id].hook
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	t.Cleanup(func() {
		for _, g := range gates {
			g.mu.Lock()
			shut := g.shut
			g.mu.Unlock()
			if shut {
				g.setShut(false)
			}
		}
		for _, s := range servers {
			s.Stop()
		}
	})
	// elections take seconds at this commit interval: wait for one (leaderClient gives up at 5 s)
	deadline := time.Now().Add(30 * time.Second)
	for !hasLeader(servers) {
		if time.Now().After(deadline) {
			t.Fatal("no leader elected in 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c := leaderClient(t, cfg)
	leader := -1
	for id, addr := range cfg.Clients {
		if c.conn.RemoteAddr().String() == addr {
			leader = id
		}
	}
	if got := c.do(t, "put warm up"); got != "" {
		t.Fatalf("put: %q", got)
	}
	s, gate := servers[leader], gates[leader]
	// the status counter, read without the node's lock (a sync under the lock must fail this
	// test, not hang it)
	inFlight := func() uint64 { return s.counters.inFlight.Load() }
	lastIndex := func(id int) uint64 {
		servers[id].mu.Lock()
		defer servers[id].mu.Unlock()
		return readCoreView(servers[id].node.Inspect()).lastIndex
	}
	var followersBefore []uint64
	for id := range servers {
		followersBefore = append(followersBefore, lastIndex(id))
	}
	gate.setShut(true)
	fmt.Fprintf(c.conn, "put k0 v0\n")
	select {
	case <-gate.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the leader never started a sync")
	}
	before := gate.count()
	cs := []*client{c}
	for i := 1; i < clients; i++ {
		ci := dial(t, cfg.Clients[leader])
		fmt.Fprintf(ci.conn, "put k%d v%d\n", i, i)
		cs = append(cs, ci)
	}
	// Every request reached the core with the sync still held: the core was not locked by it.
	waitFor(t, "every request in the leader's core during its sync", func() bool { return inFlight() == clients })
	if n := inFlight(); n != clients {
		t.Fatalf("a reply left while its sync was held: %d requests in flight, want %d", n, clients)
	}
	// ... and no accept_request left the leader before its own record was synced: no follower
	// stored a new slot.
	for id := range servers {
		if n := lastIndex(id); id != leader && n != followersBefore[id] {
			t.Fatalf("n%d stored slots up to %d (was %d) while the leader's sync was held", id, n, followersBefore[id])
		}
	}
	gate.setShut(false)
	for i, ci := range cs {
		if got, err := ci.r.ReadString('\n'); err != nil || got != "\n" {
			t.Fatalf("put k%d: %q %v", i, got, err)
		}
	}
	if most := gate.largestGroupSince(before); most < 2 {
		t.Fatalf("the %d requests that waited on one sync took one sync each (largest group %d)", clients-1, most)
	}
	for i := 0; i < clients; i++ {
		if got := c.do(t, fmt.Sprintf("get k%d", i)); got != fmt.Sprintf("v%d", i) {
			t.Fatalf("get k%d: %q", i, got)
		}
	}
	// The status line's WAL counters say the same as the gate saw: one per group write, and the
	// batches they carried, more than the groups (the group commit at work).
	waitFor(t, "the leader's WAL counters to count every group the gate saw", func() bool {
		return s.counters.walGroups.Load() == uint64(gate.count())
	})
	gate.mu.Lock()
	batches := 0
	for _, n := range gate.groups {
		batches += n
	}
	gate.mu.Unlock()
	groups := s.counters.walGroups.Load()
	if got := s.counters.walBatches.Load(); got != uint64(batches) || got <= groups {
		t.Fatalf("wal_batches %d, want %d (the gate's count) and more than wal_groups %d", got, batches, groups)
	}
	line := statusLine(coreView{role: "leader", leader: "0"}, &s.counters, groupMean(groups, uint64(batches)))
	want := fmt.Sprintf(`"wal_groups":%d,"wal_batches":%d,"wal_group_mean":%s}`, groups, batches, groupMean(groups, uint64(batches)))
	if !strings.HasSuffix(line, want) {
		t.Fatalf("status line %q does not end with %q", line, want)
	}
}

func TestGroupMeanIsBatchesPerGroupWithTwoDecimals(t *testing.T) {
	for _, c := range []struct {
		groups, batches uint64
		want            string
	}{{0, 0, "0.00"}, {1, 1, "1.00"}, {4, 10, "2.50"}, {3, 10, "3.33"}} {
		if got := groupMean(c.groups, c.batches); got != c.want {
			t.Errorf("groupMean(%d, %d) = %q, want %q", c.groups, c.batches, got, c.want)
		}
	}
}
