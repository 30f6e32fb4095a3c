package core

import "sort"

// LogChangeKind names what happened to a slot during a log operation, so that the protocol
// can turn it into a trace record.
type LogChangeKind uint8

const (
	ChangeStored    LogChangeKind = iota // a slot was filled, replaced or committed
	ChangeStale                          // commit_until met an instance of an older ballot
	ChangeViolation                      // a safety check failed
)

// Violation reasons, as they appear in trace records.
const (
	ReasonCommandMismatch = "command_mismatch"
	ReasonHigherBallot    = "higher_ballot"
)

type LogChange struct {
	Kind     LogChangeKind
	Instance Instance // the slot after the change (for ChangeStale: the stale instance)
	Reason   string   // for ChangeViolation
}

// insertOutcome is the result of the merge rule.
type insertOutcome uint8

const (
	insertKept insertOutcome = iota
	insertStored
	insertViolation
)

// insertInto applies the merge rule of docs/protocol.md to one slot of m. A differing
// command is a violation only where Paxos forbids it: two committed commands, equal ballots,
// or a higher ballot carrying another command than the committed one. A stale in-progress
// instance of a lower ballot may differ (it was never chosen).
func insertInto(m map[uint64]Instance, inst Instance) insertOutcome {
	stored, ok := m[inst.Index]
	if !ok {
		m[inst.Index] = inst
		return insertStored
	}
	same := stored.Command == inst.Command
	incomingChosen := inst.State == Committed || inst.State == Executed
	if stored.State == Committed || stored.State == Executed {
		if !same && (incomingChosen || inst.Ballot >= stored.Ballot) {
			return insertViolation
		}
		return insertKept
	}
	switch {
	case inst.Ballot > stored.Ballot:
		m[inst.Index] = inst
		return insertStored
	case inst.Ballot == stored.Ballot && !same:
		return insertViolation
	case inst.Ballot < stored.Ballot && incomingChosen && !same:
		return insertViolation
	}
	return insertKept
}

// Log is the MultiPaxos log: slots by index and the three counters of the protocol.
type Log struct {
	instances map[uint64]Instance
	// peakLen is the most slots the map held at a trim since it was made. Go's maps keep their
	// storage after deletes, so after a backlog is trimmed the map is made again at its new size
	// (issue 20: a Go node's resident memory stayed a step higher after a burst).
	peakLen            int
	lastIndex          uint64
	lastExecuted       uint64
	globalLastExecuted uint64
}

func NewLog() *Log { return &Log{instances: make(map[uint64]Instance)} }

func (l *Log) LastIndex() uint64          { return l.lastIndex }
func (l *Log) LastExecuted() uint64       { return l.lastExecuted }
func (l *Log) GlobalLastExecuted() uint64 { return l.globalLastExecuted }
func (l *Log) Len() int                   { return len(l.instances) }

// SetLastIndexAtLeast raises last_index (a new leader keeps the maximum it has seen).
func (l *Log) SetLastIndexAtLeast(i uint64) {
	if i > l.lastIndex {
		l.lastIndex = i
	}
}

// AdvanceLastIndex reserves the next index for a new command.
func (l *Log) AdvanceLastIndex() uint64 {
	l.lastIndex++
	return l.lastIndex
}

// Append stores inst by the merge rule; indices already trimmed are ignored.
func (l *Log) Append(inst Instance, out *[]LogChange) {
	if inst.Index <= l.globalLastExecuted {
		return
	}
	switch insertInto(l.instances, inst) {
	case insertStored:
		l.SetLastIndexAtLeast(inst.Index)
		*out = append(*out, LogChange{Kind: ChangeStored, Instance: inst})
	case insertViolation:
		*out = append(*out, LogChange{Kind: ChangeViolation, Instance: inst, Reason: ReasonCommandMismatch})
	}
}

// Commit marks an in-progress slot committed.
func (l *Log) Commit(index uint64, out *[]LogChange) {
	inst, ok := l.instances[index]
	if !ok || inst.State != InProgress {
		return
	}
	inst.State = Committed
	l.instances[index] = inst
	*out = append(*out, LogChange{Kind: ChangeStored, Instance: inst})
}

// CommitUntil commits, up to the leader's last_executed, the slots written under the
// leader's ballot; it stops at the first gap.
func (l *Log) CommitUntil(leaderLastExecuted, ballot uint64, out *[]LogChange) {
	for i := l.lastExecuted + 1; i <= leaderLastExecuted; i++ {
		inst, ok := l.instances[i]
		if !ok {
			return
		}
		if inst.Ballot > ballot {
			*out = append(*out, LogChange{Kind: ChangeViolation, Instance: inst, Reason: ReasonHigherBallot})
			return
		}
		if inst.Ballot < ballot {
			*out = append(*out, LogChange{Kind: ChangeStale, Instance: inst})
			continue
		}
		if inst.State == InProgress {
			inst.State = Committed
			l.instances[i] = inst
			*out = append(*out, LogChange{Kind: ChangeStored, Instance: inst})
		}
	}
}

// NextExecutable returns the slot after last_executed if it is committed.
func (l *Log) NextExecutable() (Instance, bool) {
	inst, ok := l.instances[l.lastExecuted+1]
	if !ok || inst.State != Committed {
		return Instance{}, false
	}
	return inst, true
}

// MarkExecuted records that the slot after last_executed was applied.
func (l *Log) MarkExecuted() Instance {
	inst := l.instances[l.lastExecuted+1]
	inst.State = Executed
	l.lastExecuted++
	l.instances[l.lastExecuted] = inst
	return inst
}

// TrimUntil drops executed slots up to min(g, last_executed); it reports whether gle moved.
func (l *Log) TrimUntil(g uint64) bool {
	t := min(g, l.lastExecuted)
	if t <= l.globalLastExecuted {
		return false
	}
	l.peakLen = max(l.peakLen, len(l.instances))
	for i := l.globalLastExecuted + 1; i <= t; i++ {
		delete(l.instances, i)
	}
	l.globalLastExecuted = t
	l.shrinkAfterTrim()
	return true
}

// shrinkMinPeakLen: a map that never held more slots than this is not worth making again.
const shrinkMinPeakLen = 1024

// shrinkAfterTrim makes the map again once it holds a quarter of its peak or less, so the
// copying costs O(1) a trimmed slot.
func (l *Log) shrinkAfterTrim() {
	if l.peakLen < shrinkMinPeakLen || len(l.instances)*4 > l.peakLen {
		return
	}
	l.instances = l.Copy()
	l.peakLen = len(l.instances)
}

// Get returns the slot at index.
func (l *Log) Get(index uint64) (Instance, bool) {
	inst, ok := l.instances[index]
	return inst, ok
}

// Instances returns every stored slot in ascending index order.
func (l *Log) Instances() []Instance { return sortedInstances(l.instances) }

// Copy returns a copy of the slots (a candidate's merged log starts from its own).
func (l *Log) Copy() map[uint64]Instance {
	m := make(map[uint64]Instance, len(l.instances))
	for k, v := range l.instances {
		m[k] = v
	}
	return m
}

func sortedInstances(m map[uint64]Instance) []Instance {
	out := make([]Instance, 0, len(m))
	for _, inst := range m {
		out = append(out, inst)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Index < out[b].Index })
	return out
}
