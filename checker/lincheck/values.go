package lincheck

// The value check: the history with only its puts and the gets that returned a value. It can
// only show a violation, and one it shows holds for the full history (checker/README.md, "The
// value check"): every get that returned v follows, in any linearization, a put of v with no write
// between them, and leaving out dels, not_found answers and the unknown puts nobody read never
// puts a write between the two. What it leaves out are the operations that make Porcupine's
// search hard on a history with a burst of unknown writes: the unknown dels and unread unknown
// puts (pending to the end, accepted in every state) and the answers that need one of them. A
// stale read after such a burst (nemesis java seed 371: 324 unknown writes, undecided after 600 s
// and 23 GB) is then shown at once.

// keptForValues says which operations the value check keeps: puts answered ok, unknown puts whose
// value some read returned, and gets answered ok.
func keptForValues(op Op, read map[valueAt]bool) bool {
	switch op.Kind {
	case "put":
		return op.Result == ResultOK || isReadPut(op, read)
	case "get":
		return op.Result == ResultOK
	}
	return false
}

// valuesOnly is the history the value check gives Porcupine.
func valuesOnly(h History, read map[valueAt]bool) History {
	out := History{Ops: make([]Op, 0, len(h.Ops))}
	for _, op := range h.Ops {
		if keptForValues(op, read) {
			out.Ops = append(out.Ops, op)
		}
	}
	return out
}
