package core

import (
	"strings"
	"testing"
)

// A tiny in-test network: delivers every sent message at once, in order.
type testCluster struct{ nodes []*Node }

func newTestCluster(n int) *testCluster {
	c := &testCluster{}
	for i := 0; i < n; i++ {
		cfg := DefaultConfig()
		cfg.ID, cfg.NumPeers, cfg.Seed = uint64(i), uint64(n), uint64(i+1)
		c.nodes = append(c.nodes, NewNode(cfg))
	}
	return c
}

// run steps node id with ev and delivers everything that follows; it returns the replies.
func (c *testCluster) run(id int, ev Event) []Effect {
	type pending struct {
		to int
		ev Event
	}
	queue := []pending{{id, ev}}
	var replies []Effect
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, e := range c.nodes[p.to].Step(&p.ev) {
			switch e.Type {
			case EffectSend:
				queue = append(queue, pending{int(e.Message.To), Event{Type: EventMessage, Message: e.Message}})
			case EffectReply:
				replies = append(replies, e)
			}
		}
	}
	return replies
}

func TestElectionAndReplicationEndToEnd(t *testing.T) {
	c := newTestCluster(3)
	c.run(2, Event{Type: EventTimer, Timer: TimerElection})
	if !c.nodes[2].isLeader() {
		t.Fatal("n2 should lead after an undisturbed election")
	}
	replies := c.run(2, Event{Type: EventClient, ClientID: 1, RequestID: 1, Line: "put k v"})
	if len(replies) != 1 || replies[0].Result.Type != ResultOk {
		t.Fatalf("replies: %+v", replies)
	}
	c.run(2, Event{Type: EventTimer, Timer: TimerCommit})
	for i, n := range c.nodes {
		if n.kv.Size() != 1 {
			t.Errorf("n%d has %d keys after the heartbeat", i, n.kv.Size())
		}
	}
	if r := c.run(0, Event{Type: EventClient, ClientID: 2, RequestID: 1, Line: "get k"}); r[0].Result.Type != ResultLeaderIs || r[0].Result.Leader != 2 {
		t.Fatalf("a follower must redirect: %+v", r)
	}
}

func TestStepJSONReportsBadEventsAndCountsThem(t *testing.T) {
	n := NewNode(Config{ID: 0, NumPeers: 3, CommitIntervalUs: 150000, AcceptTimeoutTicks: 3, MaxPendingAccepts: 10, Trace: true})
	out := string(n.StepJSON([]byte(`{"type":"nope"}`)))
	if out != `{"type":"error","error":"bad_event"}`+"\n" {
		t.Fatalf("got %q", out)
	}
	if !strings.Contains(string(n.Inspect()), `"bad_events":1`) {
		t.Fatal("bad event not counted")
	}
}

func TestElectionDelayStaysInRange(t *testing.T) {
	n := NewNode(DefaultConfig())
	for i := 0; i < 10000; i++ {
		d := n.electionDelayUs()
		if d < 225000 || d > 300000 {
			t.Fatalf("delay %d outside [1.5, 2] commit intervals", d)
		}
	}
}

func TestLostElectionsDoubleTheDelayUpToEightTimes(t *testing.T) {
	n := NewNode(DefaultConfig())
	for _, c := range []struct{ lost, factor uint64 }{{0, 1}, {1, 2}, {2, 4}, {3, 8}, {4, 8}, {9, 8}} {
		n.electionBackoff = 0
		for i := uint64(0); i < c.lost; i++ {
			n.loseElection()
		}
		if d := n.electionDelayUs(); d < 225000*c.factor || d > 300000*c.factor {
			t.Fatalf("lost %d: delay %d outside [1.5, 2] x %d commit intervals", c.lost, d, c.factor)
		}
	}
	n.Step(&Event{Type: EventMessage, Message: Message{Type: CommitRequest, From: 1, To: 0, ChannelID: 1, Ballot: 257}})
	if n.electionBackoff != 0 {
		t.Fatalf("a leader's commit left backoff %d", n.electionBackoff)
	}
}

func TestTraceOffEmitsNoTraceRecords(t *testing.T) {
	c := newTestCluster(1)
	c.nodes[0].cfg.Trace = false
	for _, e := range c.nodes[0].Step(&Event{Type: EventTimer, Timer: TimerElection}) {
		if e.Type == EffectTrace {
			t.Fatal("trace record emitted with trace off")
		}
	}
}

func init() { CheckInvariants = true }

func TestMitigationConfig(t *testing.T) {
	cfg, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,"mitigation":"both","mitmem_deadline_us":5000}`))
	if err != nil || cfg.Mitigation != MitigationBoth || cfg.MitmemDeadlineUs != 5000 {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	if cfg, _ := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1}`)); cfg.Mitigation != MitigationNone || cfg.MitmemDeadlineUs != 20000 {
		t.Fatalf("defaults: %+v", cfg)
	}
	for _, bad := range []string{`"gc"`, `1`, `true`, `"BLADE"`} {
		if _, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,"mitigation":` + bad + `}`)); err == nil {
			t.Fatalf("mitigation %s accepted", bad)
		}
	}
	if _, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,"mitmem_deadline_us":60000001}`)); err == nil {
		t.Fatal("deadline above 60 s accepted")
	}
}

// The log bound needs the snapshot (repair) and the prepare's from_index (bounded elections):
// without from_index a responder could not tell a candidate behind its trim point
// (docs/protocol.md, "Log bound").
func TestLogBoundConfig(t *testing.T) {
	cfg, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,"repair_batch":4,"election_batch":4,"log_bound":3}`))
	if err != nil || cfg.LogBound != 3 {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	for _, bad := range []string{
		`"log_bound":3`, `"repair_batch":4,"log_bound":3`, `"election_batch":4,"log_bound":3`,
		`"repair_batch":4,"election_batch":4,"log_bound":1000001`,
	} {
		if _, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,` + bad + `}`)); err == nil {
			t.Fatalf("%s accepted", bad)
		}
	}
}

// Checkpoints need the same two batches: a node restarted from a checkpoint has no slots at or
// below it, so only from_index keeps a candidate behind it from filling them with no-ops, and
// only state transfer brings a follower behind it back (docs/protocol.md, "Compaction").
func TestSnapshotEveryConfig(t *testing.T) {
	cfg, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,"repair_batch":4,"election_batch":4,"durability":"log","snapshot_every":4}`))
	if err != nil || cfg.SnapshotEvery != 4 {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	for _, bad := range []string{`"snapshot_every":4`, `"repair_batch":4,"snapshot_every":4`, `"election_batch":4,"snapshot_every":4`} {
		_, err := DecodeConfig([]byte(`{"id":0,"num_peers":3,"seed":1,"durability":"log",` + bad + `}`))
		if err == nil || err.Error() != "config: snapshot_every needs repair_batch and election_batch" {
			t.Fatalf("%s: got %v", bad, err)
		}
	}
}
