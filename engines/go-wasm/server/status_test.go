package server

import (
	"encoding/json"
	"strings"
	"testing"

	"replicant/engines/go-wasm/core"
)

// The status line carries the Go runtime's heap goal and live heap, so a rising RSS can be told
// apart from the runtime settling (the 60 s reset run in docs/protocol.md).
func TestStatusLineReportsTheRuntimeHeapGoalAndLiveHeap(t *testing.T) {
	var c driverCounters
	c.readHeapMetrics()
	line := statusLine(coreView{role: "leader", leader: "0"}, &c, "0.00")
	var fields map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "status ")), &fields); err != nil {
		t.Fatalf("status line %q is not JSON: %v", line, err)
	}
	goal, ok1 := fields["go_heap_goal_bytes"].(float64)
	live, ok2 := fields["go_heap_live_bytes"].(float64)
	if !ok1 || !ok2 {
		t.Fatalf("status line %q lacks go_heap_goal_bytes or go_heap_live_bytes", line)
	}
	// the runtime's goal is at least its minimum heap (4 MiB at GOGC=100) and above the live heap
	if goal < 4<<20 || goal < live {
		t.Fatalf("heap goal %v, live %v: not the runtime's figures", goal, live)
	}
}

// The status loop reads the core's StatusFields; readCoreView must find in it what it found
// in Inspect, in every role, so the status line's text is unchanged.
func TestCoreViewFromStatusFieldsMatchesTheOneFromInspect(t *testing.T) {
	var nodes []*core.Node
	for id := uint64(0); id < 3; id++ {
		cfg := core.DefaultConfig()
		cfg.ID, cfg.NumPeers, cfg.Seed = id, 3, id+1
		nodes = append(nodes, core.NewNode(cfg))
	}
	// step runs ev on node id and delivers every message that follows, at once and in order.
	step := func(id uint64, ev core.Event) {
		type pending struct {
			to uint64
			ev core.Event
		}
		queue := []pending{{id, ev}}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, e := range nodes[p.to].Step(&p.ev) {
				if e.Type == core.EffectSend {
					queue = append(queue, pending{e.Message.To, core.Event{Type: core.EventMessage, Message: e.Message}})
				}
			}
		}
	}
	check := func(n *core.Node, role string) {
		t.Helper()
		fromStatus, fromInspect := readCoreView(n.StatusFields()), readCoreView(n.Inspect())
		if fromStatus != fromInspect || fromStatus.role != role {
			t.Fatalf("want %s: from StatusFields %+v, from Inspect %+v", role, fromStatus, fromInspect)
		}
	}
	check(nodes[2], "follower")
	nodes[2].Step(&core.Event{Type: core.EventTimer, Timer: core.TimerElection}) // its prepare is not delivered
	check(nodes[2], "candidate")
	step(1, core.Event{Type: core.EventTimer, Timer: core.TimerElection})
	for i := uint64(1); i <= 20; i++ {
		step(1, core.Event{Type: core.EventClient, ClientID: 3, RequestID: i, Line: "put k v"})
	}
	step(1, core.Event{Type: core.EventTimer, Timer: core.TimerCommit})
	check(nodes[1], "leader")
	check(nodes[0], "follower")
	if v := readCoreView(nodes[0].StatusFields()); v.lastExecuted == 0 || v.leader != "1" {
		t.Fatalf("the follower saw no work: %+v", v)
	}
}
