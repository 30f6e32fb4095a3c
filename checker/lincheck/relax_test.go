package lincheck

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"
	"time"
)

// checkFull is the check without relaxations: Porcupine on the whole history.
func checkFull(h History, timeout time.Duration) Verdict {
	ops, v := toOperations(h, valuesRead(h), leaveNothingOut)
	c, _ := checkOps(ops, v, timeout)
	return c.Verdict
}

// checkStrongestRelaxation is Porcupine on the history without every unknown write but the read
// puts (the first of relaxations).
func checkStrongestRelaxation(h History) Verdict {
	read := valuesRead(h)
	ops, v := toOperations(h, read, relaxations(h, read)[0])
	c, _ := checkOps(ops, v, 0)
	return c.Verdict
}

// randomHistory runs a few operations on one or two registers: each gets a call time, a moment
// of effect and a return time in that order, and its answer comes from applying the operations
// in order of effect. Some writes lose their reply (some of those never take effect), some reads
// lose theirs, and some answers are then changed, so both verdicts occur.
func randomHistory(r *rand.Rand) History {
	type timed struct {
		op     Op
		effect int64
		lost   bool // an unknown write that never took effect
	}
	n := 3 + r.Intn(8)
	keys := []string{"a", "b"}[:1+r.Intn(2)]
	var ts []timed
	for i := 0; i < n; i++ {
		call := r.Int63n(100)
		effect := call + r.Int63n(40)
		ret := effect + r.Int63n(40)
		op := Op{Client: i, Key: keys[r.Intn(len(keys))], CallUs: call, ReturnUs: &ret}
		switch r.Intn(3) {
		case 0:
			op.Kind = "get"
		case 1:
			op.Kind = "put"
			v := fmt.Sprintf("v%d", i)
			op.Value = &v
		default:
			op.Kind = "del"
		}
		t := timed{op: op, effect: effect}
		if r.Intn(100) < 40 {
			t.op.ReturnUs = nil
			t.op.Result = ResultUnknown
			t.lost = op.Kind != "get" && r.Intn(2) == 0
		}
		ts = append(ts, t)
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].effect < ts[j].effect })
	state := map[string]string{}
	var written []string
	for i := range ts {
		op := &ts[i].op
		_, present := state[op.Key]
		if op.Result == ResultUnknown {
			if op.Kind == "get" {
				op.Value = nil
			} else if !ts[i].lost {
				if op.Kind == "put" {
					state[op.Key] = *op.Value
				} else {
					delete(state, op.Key)
				}
			}
			if op.Kind == "put" {
				written = append(written, *op.Value)
			}
			continue
		}
		switch op.Kind {
		case "get":
			op.Result = ResultNotFound
			if present {
				v := state[op.Key]
				op.Value, op.Result = &v, ResultOK
			}
		case "put":
			op.Result = ResultOK
			state[op.Key] = *op.Value
			written = append(written, *op.Value)
		case "del":
			op.Result = ResultNotFound
			if present {
				op.Result = ResultOK
			}
			delete(state, op.Key)
		}
	}
	if r.Intn(100) < 60 {
		op := &ts[r.Intn(len(ts))].op
		switch {
		case op.Result == ResultUnknown:
		case op.Kind == "del" && op.Result == ResultOK:
			op.Result = ResultNotFound
		case op.Kind == "del":
			op.Result = ResultOK
		case op.Kind == "get" && len(written) > 0 && r.Intn(2) == 0:
			v := written[r.Intn(len(written))]
			op.Value, op.Result = &v, ResultOK
		case op.Kind == "get":
			op.Value, op.Result = nil, ResultNotFound
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].op.CallUs < ts[j].op.CallUs })
	var h History
	for i, t := range ts {
		t.op.ID = i
		h.Ops = append(h.Ops, t.op)
	}
	return h
}

// The relaxed checks never change a verdict: over many small random histories with unknown
// puts (read and unread) and unknown dels, Check gives what Porcupine gives on the full history.
// The counts make sure each case the argument distinguishes occurred.
func TestRelaxationsKeepEveryVerdict(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	var linearizable, violations, decidedRelaxed, relaxedWrongAlone, unreadPuts, valuesOnly, valuesMissed int
	for i := 0; i < 8000; i++ {
		h := randomHistory(r)
		full := checkFull(h, 0)
		got := Check(h, 0).Verdict
		if got.Verdict != full.Verdict {
			t.Fatalf("history %d: verdict %s with relaxations, %s without\n%s", i, got.Verdict, full.Verdict, formatOps(h))
		}
		if got.Verdict == Violation && (got.LeftOutUnknownWrites != 0 || (!got.ValuesOnly && got.Checked != full.Checked)) {
			t.Fatalf("history %d: a violation comes from the full history or the value check only: %+v", i, got)
		}
		unreadPuts += got.UnreadUnknownPuts
		switch got.Verdict {
		case Linearizable:
			linearizable++
			if got.LeftOutUnknownWrites > 0 {
				decidedRelaxed++
			}
			if checkStrongestRelaxation(h).Verdict == Violation {
				relaxedWrongAlone++
			}
		case Violation:
			violations++
			if got.ValuesOnly {
				valuesOnly++
			} else {
				valuesMissed++
			}
		}
	}
	t.Logf("%d linearizable (%d decided by a relaxed check; %d whose strongest relaxation alone is not linearizable), %d violations (%d shown by the value check, %d only by the full history), %d unread unknown puts",
		linearizable, decidedRelaxed, relaxedWrongAlone, violations, valuesOnly, valuesMissed, unreadPuts)
	if linearizable < 1000 || violations < 300 || decidedRelaxed < 500 || relaxedWrongAlone < 50 || unreadPuts < 1000 || valuesOnly < 100 || valuesMissed < 50 {
		t.Fatalf("the random histories miss a case the test is for")
	}
}

// burstHistory is the shape of the undecided nemesis histories (cpp seed 301, key k0): during an
// outage many writes get no reply, then a read returns the value written before the outage. The
// full search tries the subsets of the burst that took effect before the read.
func burstHistory(unknown int) History { return burstWithDels(unknown, 4) }

// burstWithDels: every delEvery-th unknown write of the burst is a del, the others are puts.
func burstWithDels(unknown, delEvery int) History {
	var h History
	add := func(op Op) {
		op.ID = len(h.Ops)
		h.Ops = append(h.Ops, op)
	}
	i64 := func(v int64) *int64 { return &v }
	str := func(s string) *string { return &s }
	add(Op{Client: 0, Kind: "put", Key: "k", Value: str("before"), CallUs: 0, ReturnUs: i64(10), Result: ResultOK})
	for i := 0; i < unknown; i++ {
		op := Op{Client: 1 + i, Kind: "put", Key: "k", Value: str(fmt.Sprintf("lost%d", i)), CallUs: int64(20 + i), Result: ResultUnknown}
		if i%delEvery == delEvery-1 {
			op.Kind, op.Value = "del", nil
		}
		add(op)
	}
	add(Op{Client: 0, Kind: "get", Key: "k", Value: str("before"), CallUs: 1000, ReturnUs: i64(1010), Result: ResultOK})
	add(Op{Client: 0, Kind: "put", Key: "k", Value: str("after"), CallUs: 1020, ReturnUs: i64(1030), Result: ResultOK})
	add(Op{Client: 0, Kind: "del", Key: "k", CallUs: 1040, ReturnUs: i64(1050), Result: ResultOK})
	return h
}

// A history that only the relaxed check decides within the limit: the full search is still
// undecided after a second, the relaxed one is linearizable at once.
func TestBurstOfUnknownWritesIsDecided(t *testing.T) {
	h := burstHistory(40)
	v := Check(h, 5*time.Second).Verdict
	if v.Verdict != Linearizable || v.LeftOutUnknownWrites != 40 || v.UnreadUnknownPuts != 30 {
		t.Fatalf("the burst is decided by leaving out its 40 unknown writes: %+v", v)
	}
	if full := checkFull(h, time.Second); full.Verdict != Unknown {
		t.Fatalf("the full search was expected to be undecided after 1 s (else this history tests nothing): %+v", full)
	}
}

// staleReadAfterBurst is the shape of nemesis java seed 371: a burst of unknown writes during an
// outage (puts and dels, as in burstHistory), then reads answered from a state older than
// acknowledged writes: after "before" was overwritten by "after" and deleted, a get returns
// "before" again.
func staleReadAfterBurst(unknown int) History {
	h := burstHistory(unknown)
	stale := int64(1070)
	h.Ops = append(h.Ops, Op{ID: len(h.Ops), Client: 0, Kind: "get", Key: "k", Value: h.Ops[0].Value, CallUs: 1060, ReturnUs: &stale, Result: ResultOK})
	return h
}

// The value check decides the stale read at once, as a violation of the full history; before it,
// Check gave the history back undecided (the relaxed checks see the violation but prove nothing,
// and the full search does not finish).
func TestStaleReadAfterBurstIsAViolation(t *testing.T) {
	h := staleReadAfterBurst(40)
	v := Check(h, 5*time.Second).Verdict
	if v.Verdict != Violation || !v.ValuesOnly || v.LeftOutUnknownWrites != 0 {
		t.Fatalf("a stale read after the burst is a violation, shown by the value check: %+v", v)
	}
	if len(v.ViolatingKeys) != 1 || v.ViolatingKeys[0] != "k" || len(v.SuspectOperations) == 0 || v.SuspectOperations[0] != len(h.Ops)-1 {
		t.Fatalf("the violating key is k and the stale read is the first suspect: %+v", v)
	}
	if full := checkFull(h, time.Second); full.Verdict != Unknown {
		t.Fatalf("the full search was expected to be undecided after 1 s (else this history tests nothing): %+v", full)
	}
}

// delBurstHistory: burstHistory whose last operation, after the acknowledged put that follows
// the outage, is a read answered not_found, so one of the burst's unknown dels must have taken
// effect after that put. Leaving every unknown write out is then wrong (the strongest relaxation
// is not linearizable); keeping the earliest del of the burst decides.
func delBurstHistory(unknown int) History {
	h := burstWithDels(unknown, 2)
	last := &h.Ops[len(h.Ops)-1]
	last.Kind = "get"
	last.Result = ResultNotFound
	return h
}

func TestBurstThatNeedsOneUnknownDelIsDecided(t *testing.T) {
	h := delBurstHistory(60)
	if v := checkStrongestRelaxation(h); v.Verdict != Violation {
		t.Fatalf("without any unknown del the not_found has no explanation: %+v", v)
	}
	v := Check(h, 5*time.Second).Verdict
	if v.Verdict != Linearizable || v.LeftOutUnknownWrites != 58 {
		t.Fatalf("decided keeping the earliest unknown del and the earliest unread unknown put: %+v", v)
	}
	if full := checkFull(h, time.Second); full.Verdict != Unknown {
		t.Fatalf("the full search was expected to be undecided after 1 s (else this history tests nothing): %+v", full)
	}
}

func formatOps(h History) string {
	s := ""
	for _, op := range h.Ops {
		s += fmt.Sprintf("%+v value=%v return=%v\n", op, deref(op.Value), deref64(op.ReturnUs))
	}
	return s
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func deref64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
