package core

import (
	"fmt"
	"testing"
)

// The status line's core fields agree with Inspect in every role, and stay small as the log grows.

// jsonScalar renders a number, a string or null as text, so that null leaders compare too.
func jsonScalar(v *jsonValue) string {
	switch {
	case v == nil:
		return "absent"
	case v.kind == jsonNull:
		return "null"
	case v.kind == jsonString:
		return `"` + v.s + `"`
	case v.kind == jsonNumber:
		return formatUint(v.n)
	}
	return fmt.Sprintf("kind %d", v.kind)
}

func jsonFieldOf(v *jsonValue, name string) *jsonValue {
	if v == nil || v.kind != jsonObject {
		return nil
	}
	for _, f := range v.fields {
		if f.name == name {
			return f.value
		}
	}
	return nil
}

func mustParseJSON(t *testing.T, in []byte) *jsonValue {
	t.Helper()
	v, err := parseJSON(in)
	if err != nil {
		t.Fatalf("%v: %.200s", err, in)
	}
	return v
}

func assertStatusAgreesWithInspect(t *testing.T, n *Node, role string) {
	t.Helper()
	whole := mustParseJSON(t, n.Inspect())
	status := mustParseJSON(t, n.StatusFields())
	if got := jsonScalar(jsonFieldOf(status, "role")); got != `"`+role+`"` {
		t.Fatalf("role %s, want %q", got, role)
	}
	for _, key := range []string{"role", "ballot", "leader", "last_index", "last_executed", "global_last_executed", "replay_remaining"} {
		if w, s := jsonScalar(jsonFieldOf(whole, key)), jsonScalar(jsonFieldOf(status, key)); w != s {
			t.Errorf("%s: inspect %s, status fields %s", key, w, s)
		}
	}
	if w, s := jsonScalar(jsonFieldOf(jsonFieldOf(whole, "counters"), "elections")), jsonScalar(jsonFieldOf(status, "elections")); w != s {
		t.Errorf("elections: inspect %s, status fields %s", w, s)
	}
}

func TestStatusFieldsAgreeWithInspectAsFollowerCandidateAndLeader(t *testing.T) {
	c := newTestCluster(3)
	for _, n := range c.nodes {
		assertStatusAgreesWithInspect(t, n, "follower") // no leader yet
	}
	// n1's prepare is not delivered: it stays a candidate.
	c.nodes[1].Step(&Event{Type: EventTimer, Timer: TimerElection})
	assertStatusAgreesWithInspect(t, c.nodes[1], "candidate")

	c = newTestCluster(3)
	c.run(1, Event{Type: EventTimer, Timer: TimerElection})
	for i := uint64(1); i <= 40; i++ {
		c.run(1, Event{Type: EventClient, ClientID: 7, RequestID: i, Line: fmt.Sprintf("put k%d v%d", i, i)})
	}
	c.run(1, Event{Type: EventTimer, Timer: TimerCommit})
	for i, n := range c.nodes {
		role := "follower"
		if i == 1 {
			role = "leader"
		}
		assertStatusAgreesWithInspect(t, n, role)
	}
	if c.nodes[0].log.LastExecuted() == 0 || c.nodes[1].counters.Elections == 0 {
		t.Fatalf("the cluster did no work to compare: %s", c.nodes[0].StatusFields())
	}
}

func TestStatusFieldsStayTheSameSizeWhileInspectGrowsWithTheLog(t *testing.T) {
	c := newTestCluster(3)
	c.run(0, Event{Type: EventTimer, Timer: TimerElection})
	leader := c.nodes[0]
	before := len(leader.StatusFields())
	// Accepts no follower answers: the leader holds all 2,000 entries.
	for i := uint64(1); i <= 2000; i++ {
		leader.Step(&Event{Type: EventClient, ClientID: 7, RequestID: i, Line: fmt.Sprintf("put key%d value%d", i%64, i)})
	}
	status, inspect := leader.StatusFields(), leader.Inspect()
	if len(status) > before+8 {
		t.Errorf("status fields grew from %d to %d bytes: %s", before, len(status), status)
	}
	if len(inspect) <= 100*len(status) {
		t.Errorf("inspect %d bytes, status fields %d: the log did not grow", len(inspect), len(status))
	}
	assertStatusAgreesWithInspect(t, leader, "leader")
}

// go test -run X -bench StatusLine ./core: what the native status line takes from the core, under
// its lock, per line, with a YCSB-sized store (100,000 records, put into the store directly, the
// log empty): StatusFields now, Inspect before.
func BenchmarkStatusLine100k(b *testing.B) {
	c := newTestCluster(3)
	c.run(0, Event{Type: EventTimer, Timer: TimerElection})
	n := c.nodes[0]
	for i := 0; i < 100_000; i++ {
		n.kv.Apply(Command{Type: CommandPut, Key: fmt.Sprintf("user%d", i*7919%100_003), Value: "v"})
	}
	b.Run("StatusFields", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			n.StatusFields()
		}
	})
	b.Run("Inspect", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			n.Inspect()
		}
	})
}
