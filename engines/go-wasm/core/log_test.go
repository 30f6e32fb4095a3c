package core

import "testing"

func put(ballot, index uint64, value string, state InstanceState) Instance {
	return Instance{Ballot: ballot, Index: index, State: state, Command: Command{Type: CommandPut, Key: "k", Value: value}}
}

func TestInsertRule(t *testing.T) {
	cases := []struct {
		name            string
		stored, inst    Instance
		want            insertOutcome
		wantStoredValue string
	}{
		{"higher ballot replaces in-progress", put(257, 1, "a", InProgress), put(513, 1, "b", InProgress), insertStored, "b"},
		{"lower ballot is not taken", put(513, 1, "a", InProgress), put(257, 1, "b", InProgress), insertKept, "a"},
		{"equal ballot, same command", put(257, 1, "a", InProgress), put(257, 1, "a", InProgress), insertKept, "a"},
		{"equal ballot, other command", put(257, 1, "a", InProgress), put(257, 1, "b", InProgress), insertViolation, "a"},
		{"committed stays against higher in-progress", put(257, 1, "a", Committed), put(513, 1, "a", InProgress), insertKept, "a"},
		{"executed stays against higher in-progress", put(257, 1, "a", Executed), put(513, 1, "a", InProgress), insertKept, "a"},
		{"stale lower in-progress may differ from committed", put(513, 1, "a", Committed), put(257, 1, "b", InProgress), insertKept, "a"},
		{"higher ballot with another command than the chosen one", put(257, 1, "a", Committed), put(513, 1, "b", InProgress), insertViolation, "a"},
		{"two chosen commands differ", put(257, 1, "a", Executed), put(257, 1, "b", Committed), insertViolation, "a"},
		{"chosen lower ballot against other higher in-progress", put(513, 1, "a", InProgress), put(257, 1, "b", Committed), insertViolation, "a"},
	}
	for _, c := range cases {
		m := map[uint64]Instance{1: c.stored}
		if got := insertInto(m, c.inst); got != c.want || m[1].Command.Value != c.wantStoredValue {
			t.Errorf("%s: outcome %d, stored %q", c.name, got, m[1].Command.Value)
		}
	}
}

func TestAppendIgnoresTrimmedIndices(t *testing.T) {
	l := NewLog()
	var ch []LogChange
	l.Append(put(257, 1, "a", InProgress), &ch)
	l.CommitUntil(1, 257, &ch)
	l.MarkExecuted()
	l.TrimUntil(1)
	ch = ch[:0]
	l.Append(put(257, 1, "a", InProgress), &ch)
	if len(ch) != 0 || l.Len() != 0 {
		t.Fatalf("a trimmed index was stored again: %+v", ch)
	}
}

func TestCommitUntilStopsAtGapAndSkipsStale(t *testing.T) {
	l := NewLog()
	var ch []LogChange
	l.Append(put(257, 1, "old", InProgress), &ch)
	l.Append(put(514, 2, "new", InProgress), &ch)
	l.Append(put(514, 4, "after gap", InProgress), &ch)
	ch = ch[:0]
	l.CommitUntil(4, 514, &ch)
	if len(ch) != 2 || ch[0].Kind != ChangeStale || ch[1].Kind != ChangeStored || ch[1].Instance.Index != 2 {
		t.Fatalf("changes: %+v", ch)
	}
	if inst, _ := l.Get(4); inst.State != InProgress {
		t.Fatal("commit_until went past the gap at index 3")
	}
	if _, ok := l.NextExecutable(); ok {
		t.Fatal("the stale index 1 must block execution")
	}
}

func TestTrimUntilClampsToLastExecuted(t *testing.T) {
	l := NewLog()
	if l.TrimUntil(5) || l.GlobalLastExecuted() != 0 {
		t.Fatal("an empty log must not claim to have executed anything")
	}
	var ch []LogChange
	for i := uint64(1); i <= 3; i++ {
		l.Append(put(257, i, "v", InProgress), &ch)
	}
	l.CommitUntil(2, 257, &ch)
	l.MarkExecuted()
	l.MarkExecuted()
	if !l.TrimUntil(10) || l.GlobalLastExecuted() != 2 || l.Len() != 1 {
		t.Fatalf("gle=%d len=%d", l.GlobalLastExecuted(), l.Len())
	}
}
