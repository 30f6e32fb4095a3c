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
	// UnreadUnknownPuts are the unknown writes left out because no read returned their value:
	// taking effect or not is then the same to every read, so they constrain nothing (and each
	// one kept doubles the places Porcupine may try to put it).
	UnreadUnknownPuts int `json:"unread_unknown_puts"`
	Keys              int `json:"keys"`
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
func Check(h History, timeout time.Duration) Checked {
	ops, v := toOperations(h)
	model := KVModel()
	res, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
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
	return Checked{Verdict: v, info: info}
}

// WriteHTML writes Porcupine's interactive visualisation of the check.
func (c Checked) WriteHTML(w io.Writer) error {
	return porcupine.Visualize(KVModel(), c.info, w)
}

func toOperations(h History) ([]porcupine.Operation, Verdict) {
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
	read := valuesRead(h)
	ops := make([]porcupine.Operation, 0, len(h.Ops))
	for _, op := range h.Ops {
		ret := end + 1
		if op.Result == ResultUnknown {
			if op.Kind == "get" {
				v.DroppedReads++
				continue
			}
			v.UnknownWrites++
			if op.Kind == "put" && op.Value != nil && !read[valueAt{op.Key, *op.Value}] {
				v.UnreadUnknownPuts++
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

type valueAt struct{ key, value string }

// valuesRead are the (key, value) pairs some answered read returned.
//
// Why an unknown put whose value nobody read can be left out: in any linearization that places
// it, no read falls between it and the key's next write (such a read would return its value), so
// removing it changes no read's answer; and a linearization without it is one where it never took
// effect, which an unknown outcome allows. A history is linearizable with it iff without it.
func valuesRead(h History) map[valueAt]bool {
	read := map[valueAt]bool{}
	for _, op := range h.Ops {
		if op.Kind == "get" && op.Result == ResultOK && op.Value != nil {
			read[valueAt{op.Key, *op.Value}] = true
		}
	}
	return read
}
