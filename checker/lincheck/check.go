package lincheck

import (
	"io"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// Verdict values.
const (
	Linearizable = "linearizable"
	Violation    = "violation"
	// Unknown: Porcupine ran out of time before deciding.
	Unknown = "unknown"
)

// Verdict is what a check concludes, in the form the CLI and the wasm build print.
type Verdict struct {
	Verdict string `json:"verdict"`
	// Operations is the number of operations in the history; Checked those given to Porcupine
	// (reads without a reply are dropped: they constrain nothing).
	Operations    int `json:"operations"`
	Checked       int `json:"checked"`
	DroppedReads  int `json:"dropped_reads"`
	UnknownWrites int `json:"unknown_writes"`
	// UnreadUnknownPuts are the unknown puts whose value no read returned: the check gives them
	// all one value no read can return (see unreadValue).
	UnreadUnknownPuts int `json:"unread_unknown_puts"`
	// LeftOutUnknownWrites are the unknown writes the deciding check left out (relax.go): only a
	// linearizable verdict leaves any out, and Checked then counts without them.
	LeftOutUnknownWrites int `json:"left_out_unknown_writes"`
	// ValuesOnly: the violation was shown on the history's puts and value-returning gets alone
	// (values.go), which proves it for the whole history; Checked then counts those.
	ValuesOnly bool `json:"values_only"`
	Keys                 int `json:"keys"`
	// ViolatingKeys are the keys whose sub-history has no linearization.
	ViolatingKeys []string `json:"violating_keys"`
	// SuspectOperations, per violating key, are the operations (history ids) that the longest
	// partial linearization Porcupine found could not place: the ones to look at first.
	SuspectOperations []int `json:"suspect_operations"`
}

// Checked is a finished check: the verdict plus what the visualisation needs.
type Checked struct {
	Verdict Verdict
	info    porcupine.LinearizationInfo
}

// Check runs Porcupine over the history with the key-value model. A timeout of 0 means none.
//
// It first runs the value check (values.go): a violation there is one of the full history. Then
// it checks relaxed histories (relax.go): a linearizable one decides, since leaving out unknown
// writes only takes linearizations away. These checks share at most half of the timeout; the full
// history gets what is left.
func Check(h History, timeout time.Duration) Checked {
	start := time.Now()
	read := valuesRead(h)
	relaxed := relaxations(h, read)
	share := timeout / time.Duration(2*(len(relaxed)+1))
	if c, ok := checkValuesOnly(h, read, share); ok {
		return c
	}
	tried := map[string]bool{leftOutSignature(h, leaveNothingOut): true}
	for _, relax := range relaxed {
		sig := leftOutSignature(h, relax)
		if tried[sig] {
			continue
		}
		tried[sig] = true
		ops, v := toOperations(h, read, relax)
		if c, res := checkOps(ops, v, share); res == porcupine.Ok {
			return c
		}
	}
	ops, v := toOperations(h, read, leaveNothingOut)
	remaining := timeout
	if timeout > 0 {
		// never 0, which would mean no limit
		remaining = max(timeout-time.Since(start), time.Millisecond)
	}
	c, _ := checkOps(ops, v, remaining)
	return c
}

// checkValuesOnly reports the value check's verdict when it shows a violation; a linearizable
// or undecided one proves nothing about the full history.
func checkValuesOnly(h History, read map[valueAt]bool, timeout time.Duration) (Checked, bool) {
	ops, _ := toOperations(valuesOnly(h, read), read, leaveNothingOut)
	_, all := toOperations(h, read, leaveNothingOut)
	c, res := checkOps(ops, all, timeout)
	if res != porcupine.Illegal {
		return c, false
	}
	c.Verdict.Checked = len(ops)
	c.Verdict.ValuesOnly = true
	return c, true
}

func checkOps(ops []porcupine.Operation, v Verdict, timeout time.Duration) (Checked, porcupine.CheckResult) {
	res, info := porcupine.CheckOperationsVerbose(KVModel(), ops, timeout)
	switch res {
	case porcupine.Ok:
		v.Verdict = Linearizable
	case porcupine.Illegal:
		v.Verdict = Violation
	default:
		v.Verdict = Unknown
	}
	v.ViolatingKeys = []string{}
	v.SuspectOperations = []int{}
	if res == porcupine.Illegal {
		parts := partitionByKey(ops)
		partials := info.PartialLinearizationsOperations()
		for p, part := range parts {
			longest := []porcupine.Operation{}
			if p < len(partials) {
				for _, l := range partials[p] {
					if len(l) > len(longest) {
						longest = l
					}
				}
			}
			if len(longest) == len(part) {
				continue
			}
			v.ViolatingKeys = append(v.ViolatingKeys, part[0].Input.(kvInput).key)
			placed := map[int]bool{}
			for _, op := range longest {
				placed[op.Metadata.(opMeta).id] = true
			}
			for _, op := range part {
				if id := op.Metadata.(opMeta).id; !placed[id] {
					v.SuspectOperations = append(v.SuspectOperations, id)
				}
			}
		}
		sort.Ints(v.SuspectOperations)
	}
	return Checked{Verdict: v, info: info}, res
}

// WriteHTML writes Porcupine's interactive visualisation of the check.
func (c Checked) WriteHTML(w io.Writer) error {
	return porcupine.Visualize(KVModel(), c.info, w)
}

// toOperations gives Porcupine the history's operations but those leave says to leave out and the
// reads without a reply; the counts of the verdict are over the whole history.
func toOperations(h History, read map[valueAt]bool, leave leaveOut) ([]porcupine.Operation, Verdict) {
	v := Verdict{Operations: len(h.Ops), Keys: len(h.Keys())}
	var end int64
	for _, op := range h.Ops {
		if op.CallUs > end {
			end = op.CallUs
		}
		if op.ReturnUs != nil && *op.ReturnUs > end {
			end = *op.ReturnUs
		}
	}
	// Porcupine's visualisation wants zero-based dense client rows.
	clients := map[int]int{}
	var ids []int
	for _, op := range h.Ops {
		if _, ok := clients[op.Client]; !ok {
			clients[op.Client] = 0
			ids = append(ids, op.Client)
		}
	}
	sort.Ints(ids)
	for i, c := range ids {
		clients[c] = i
	}
	ops := make([]porcupine.Operation, 0, len(h.Ops))
	for _, op := range h.Ops {
		ret := end + 1
		unread := false
		if op.Result == ResultUnknown {
			if op.Kind == "get" {
				v.DroppedReads++
				continue
			}
			v.UnknownWrites++
			if isUnreadUnknownPut(op, read) {
				v.UnreadUnknownPuts++
				unread = true
			}
			if leave(op) {
				v.LeftOutUnknownWrites++
				continue
			}
		} else {
			ret = *op.ReturnUs
		}
		in := kvInput{kind: op.Kind, key: op.Key}
		out := kvOutput{result: op.Result}
		if op.Kind == "put" && op.Value != nil {
			in.value = *op.Value
		}
		if unread {
			in.value = unreadValue
		}
		if op.Kind == "get" && op.Value != nil {
			out.value = *op.Value
		}
		ops = append(ops, porcupine.Operation{
			ClientId: clients[op.Client],
			Input:    in,
			Output:   out,
			Call:     op.CallUs,
			Return:   ret,
			Metadata: opMeta{id: op.ID},
		})
	}
	v.Checked = len(ops)
	return ops, v
}

// unreadValue stands for the value of every unknown put that no read returned. The swap changes
// no answer the model gives: a get compares values, and neither value is one any get returned; a
// del looks only at presence, which both give. But it lets Porcupine see that the states such puts
// leave are one state, so the orders in which it tries them collapse in its cache: two histories
// of a durable cluster (2,850 and 3,896 operations, 69 and 79 unknown writes after a kill -9 of
// every node) were undecided after 280 s with the values kept. (The full check cannot leave such
// puts out: a later del that answered ok may need one of them to have made the key present; the
// relaxed checks of relax.go leave them out, and only their linearizable verdicts count.)
const unreadValue = "\x00unread"

type valueAt struct{ key, value string }

// valuesRead are the (key, value) pairs some answered read returned.
func valuesRead(h History) map[valueAt]bool {
	read := map[valueAt]bool{}
	for _, op := range h.Ops {
		if op.Kind == "get" && op.Result == ResultOK && op.Value != nil {
			read[valueAt{op.Key, *op.Value}] = true
		}
	}
	return read
}
