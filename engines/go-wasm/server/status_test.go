package server

import (
	"encoding/json"
	"strings"
	"testing"
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
