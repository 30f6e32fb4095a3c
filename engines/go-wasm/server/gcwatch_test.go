package server

import (
	"io"
	"log"
	"runtime/debug"
	"testing"
	"time"

	"replicant/engines/go-wasm/core"
)

// A server with BLADE on holds the Go collector off; when the heap passes the goal its watcher
// tells the core, the core (one node: nothing to hand off to) says collect, the server runs
// runtime.GC() and reports gc_done, and a later announcement can follow. Clients are served
// throughout (two collections the core asked for, each reported back with gc_done).
func TestGCMitigationHookCollectsWhenTheCoreSays(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	addrs := freeAddrs(t, 2)
	cfg := FileConfig{CommitIntervalMs: 20, Peers: addrs[:1], Clients: addrs[1:]}
	s, err := New(cfg, 0, 1, log.New(io.Discard, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EnableGCMitigation(core.MitigationBlade); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC should be off under the watcher, was %d", got)
	}
	c := leaderClient(t, cfg)
	var keep [][]byte
	deadline := time.Now().Add(20 * time.Second)
	for s.gc.byCore.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("no two collections: announced %d, collected %d, goal %d", s.gc.announced.Load(), s.gc.collected.Load(), s.gc.goal.Load())
		}
		// garbage: 1 MiB at a time, a little of it kept
		b := make([]byte, 1<<20)
		if len(keep) < 4 {
			keep = append(keep, b)
		}
		if reply := c.do(t, "put k v"); reply != "" {
			t.Fatalf("put: %q", reply)
		}
	}
	// a loaded machine may also reach the forced threshold (twice the goal) before a
	// collection the core asked for ends; that valve is not what this test is about
	_ = keep
}
