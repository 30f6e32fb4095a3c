package core

import "fmt"

// CheckInvariants makes every Step verify the node's invariants (docs/protocol.md,
// "Invariants every engine asserts") and panic on a broken one. Test builds turn it on.
var CheckInvariants = false

func (n *Node) checkInvariants() {
	fail := func(format string, args ...any) { panic(fmt.Sprintf("invariant: "+format, args...)) }
	l := n.log
	if l.lastExecuted > l.lastIndex {
		fail("last_executed %d > last_index %d", l.lastExecuted, l.lastIndex)
	}
	if l.globalLastExecuted > l.lastExecuted {
		fail("gle %d > last_executed %d", l.globalLastExecuted, l.lastExecuted)
	}
	for index, inst := range l.instances {
		if index <= l.globalLastExecuted {
			fail("index %d stored at or below gle %d", index, l.globalLastExecuted)
		}
		if inst.State == Executed && index > l.lastExecuted {
			fail("index %d executed beyond last_executed %d", index, l.lastExecuted)
		}
	}
	// check-quorum state
	for p, t := range n.heardTick {
		if t > n.quorumTick {
			fail("peer %d heard at tick %d, after the current tick %d", p, t, n.quorumTick)
		}
	}
	if !n.isLeader() && (len(n.accepts) > 0 || n.commitRound != nil || len(n.replayQueue) > 0) {
		fail("a follower holds leader state")
	}
	if n.isLeader() && n.prepare != nil {
		fail("a leader holds a prepare phase")
	}
	n.checkGcInvariants(fail)
}
