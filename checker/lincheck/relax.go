package lincheck

import (
	"fmt"
	"sort"
)

// Relaxed checks: the same history with some unknown writes left out. Leaving out a write with
// an unknown outcome only ever takes linearizations away (it is the choice "it never took
// effect", which the full history allows too), so a relaxed history that is linearizable proves
// the full one linearizable; one that is not proves nothing, and the full history is checked.
// The argument, and why an equivalence does not hold with del, is in checker/README.md.

// leaveOut says which operations a check leaves out of the history.
type leaveOut func(op Op) bool

// keptPerKey are the unknown dels, and separately the unread unknown puts, that the relaxations
// keep on each key, in this order: none, then the earliest-called 1, 2, 4. Within either class
// the writes are interchangeable (every unknown del leaves the key absent, every unread unknown
// put leaves it present with the stand-in value, and none has an answer), and one called earlier
// can stand in wherever a later one could, so for a given count the earliest are the best pick.
var keptPerKey = []int{0, 1, 2, 4}

// relaxations are tried in order before the full history, strongest first: the fewer unknown
// writes are left in, the smaller Porcupine's search. A burst of unknown writes during an outage,
// followed by a read of an older value, makes the full search try the subsets of the burst
// (docs/reliability.md, "Why the undecided histories were undecided"). The read unknown puts are
// always kept: a get needs them, or its value came from nowhere.
func relaxations(h History, read map[valueAt]bool) []leaveOut {
	var out []leaveOut
	for _, m := range keptPerKey {
		kept := earliestUnknownWrites(h, read, m)
		out = append(out, func(op Op) bool { return isUnknownWrite(op) && !isReadPut(op, read) && !kept[op.ID] })
	}
	// only the unread unknown puts left out: every unknown del kept
	return append(out, func(op Op) bool { return isUnreadUnknownPut(op, read) })
}

// earliestUnknownWrites are the ids of the m earliest-called unknown dels and the m
// earliest-called unread unknown puts of each key.
func earliestUnknownWrites(h History, read map[valueAt]bool, m int) map[int]bool {
	ops := append([]Op(nil), h.Ops...)
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].CallUs < ops[j].CallUs })
	taken := map[[2]string]int{}
	kept := map[int]bool{}
	for _, op := range ops {
		if !isUnknownWrite(op) || isReadPut(op, read) {
			continue
		}
		class := [2]string{op.Key, op.Kind}
		if taken[class] < m {
			taken[class]++
			kept[op.ID] = true
		}
	}
	return kept
}

func isUnknownWrite(op Op) bool { return op.Result == ResultUnknown && op.Kind != "get" }

func isReadPut(op Op, read map[valueAt]bool) bool {
	return op.Kind == "put" && op.Value != nil && read[valueAt{op.Key, *op.Value}]
}

func isUnreadUnknownPut(op Op, read map[valueAt]bool) bool {
	return isUnknownWrite(op) && op.Kind == "put" && !isReadPut(op, read)
}

// leaveNothingOut is the full history.
func leaveNothingOut(Op) bool { return false }

// leftOutSignature names the set of operations leave leaves out, so a relaxation that leaves out
// the same set as one already tried is not checked twice.
func leftOutSignature(h History, leave leaveOut) string {
	var ids []int
	for _, op := range h.Ops {
		if op.Result == ResultUnknown && op.Kind != "get" && leave(op) {
			ids = append(ids, op.ID)
		}
	}
	return fmt.Sprint(ids)
}
