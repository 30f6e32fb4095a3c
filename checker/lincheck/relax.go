package lincheck

// Relaxed checks: the same history with some unknown writes left out. Leaving out a write with
// an unknown outcome only ever takes linearizations away (it is the choice "it never took
// effect", which the full history allows too), so a relaxed history that is linearizable proves
// the full one linearizable; one that is not proves nothing, and the full history is checked.
// The argument, and why an equivalence does not hold with del, is in checker/README.md.

// leaveOut says which operations a check leaves out of the history.
type leaveOut func(op Op) bool

// relaxations are tried in order before the full history, strongest first: the fewer unknown
// writes are left in, the smaller Porcupine's search. A burst of unknown writes during an outage,
// followed by a read of an older value, makes the full search try every subset of the burst
// (docs/reliability.md, "Why the undecided histories were undecided").
func relaxations(read map[valueAt]bool) []leaveOut {
	return []leaveOut{
		// every unknown write but the puts a read saw (those a get needs, or it could not answer)
		func(op Op) bool { return isUnknownWrite(op) && !isReadPut(op, read) },
		// only the unknown puts nobody read (an unknown del may be what explains a not_found)
		func(op Op) bool { return isUnreadUnknownPut(op, read) },
	}
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
