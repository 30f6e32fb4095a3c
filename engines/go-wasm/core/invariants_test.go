package core

import (
	"fmt"
	"strings"
	"testing"
)

// stepPanic steps n and returns what it panicked with ("" when it did not).
func stepPanic(n *Node, ev Event) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	n.Step(&ev)
	return ""
}

// The check must be able to fail: a node whose state breaks an invariant panics on its next step.
func TestBrokenInvariantIsCaught(t *testing.T) {
	cases := []struct {
		name    string
		corrupt func(n *Node)
		want    string
	}{
		{"gle above last_executed", func(n *Node) { n.log.globalLastExecuted = n.log.lastExecuted + 1 }, "invariant: gle"},
		{"last_executed above last_index", func(n *Node) { n.log.lastExecuted = n.log.lastIndex + 1 }, "invariant: last_executed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCluster(3)
			c.run(2, Event{Type: EventTimer, Timer: TimerElection})
			c.run(2, Event{Type: EventClient, ClientID: 1, RequestID: 1, Line: "put k v"})
			n := c.nodes[0]
			if got := stepPanic(n, Event{Type: EventTimer, Timer: TimerElection}); got != "" {
				t.Fatalf("a sound node panicked: %s", got)
			}
			tc.corrupt(n)
			if got := stepPanic(n, Event{Type: EventTimer, Timer: TimerElection}); !strings.Contains(got, tc.want) {
				t.Fatalf("broken node: panic %q, want one containing %q", got, tc.want)
			}
		})
	}
}
