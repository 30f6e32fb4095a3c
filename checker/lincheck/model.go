package lincheck

import (
	"fmt"
	"hash/fnv"
	"sort"

	"github.com/anishathalye/porcupine"
)

// keyState is one key's value in the sequential specification (partitioned by key, so a
// state is a single register that may be absent).
type keyState struct {
	present bool
	value   string
}

type kvInput struct {
	kind  string
	key   string
	value string
}

type kvOutput struct {
	result string // ok, not_found or unknown
	value  string
}

// opMeta travels with each Porcupine operation so verdicts and the visualisation can name the
// operation of the history file.
type opMeta struct {
	id int
}

// KVModel is the replicated store's sequential specification for Porcupine: get / put / del on
// one key per partition. An unknown write may have taken effect or not; the checker gives it a
// return time after the whole history (it may linearize anywhere after its call).
func KVModel() porcupine.Model {
	return porcupine.Model{
		Partition: partitionByKey,
		Init:      func() interface{} { return keyState{} },
		Step: func(state, input, output interface{}) (bool, interface{}) {
			return step(state.(keyState), input.(kvInput), output.(kvOutput))
		},
		Equal: func(a, b interface{}) bool { return a.(keyState) == b.(keyState) },
		Hash: func(s interface{}) uint64 {
			st := s.(keyState)
			if !st.present {
				return 0
			}
			h := fnv.New64a()
			h.Write([]byte(st.value))
			return h.Sum64() | 1
		},
		DescribeOperation: describeOp,
		DescribeState: func(s interface{}) string {
			st := s.(keyState)
			if !st.present {
				return "(absent)"
			}
			return fmt.Sprintf("%q", st.value)
		},
		DescribeOperationMetadata: func(m interface{}) string {
			if mm, ok := m.(opMeta); ok {
				return fmt.Sprintf("history operation #%d", mm.id)
			}
			return ""
		},
	}
}

func step(st keyState, in kvInput, out kvOutput) (bool, keyState) {
	switch in.kind {
	case "get":
		switch out.result {
		case ResultOK:
			return st.present && st.value == out.value, st
		case ResultNotFound:
			return !st.present, st
		}
		return false, st
	case "put":
		// put answers ok; unknown means it may have happened (the model only sees it if it did)
		return out.result == ResultOK || out.result == ResultUnknown, keyState{present: true, value: in.value}
	case "del":
		switch out.result {
		case ResultOK:
			return st.present, keyState{}
		case ResultNotFound:
			return !st.present, keyState{}
		case ResultUnknown:
			return true, keyState{}
		}
	}
	return false, st
}

func describeOp(input, output interface{}) string {
	in := input.(kvInput)
	out := output.(kvOutput)
	var call string
	switch in.kind {
	case "put":
		call = fmt.Sprintf("put(%s, %q)", in.key, in.value)
	default:
		call = fmt.Sprintf("%s(%s)", in.kind, in.key)
	}
	switch {
	case out.result == ResultUnknown:
		return call + " -> ?"
	case in.kind == "get" && out.result == ResultOK:
		return fmt.Sprintf("%s -> %q", call, out.value)
	default:
		return call + " -> " + out.result
	}
}

// partitionByKey returns one partition per key, in ascending key order (so partition i of a
// verdict is the i-th key of History.Keys, restricted to checked operations).
func partitionByKey(history []porcupine.Operation) [][]porcupine.Operation {
	byKey := map[string][]porcupine.Operation{}
	for _, op := range history {
		k := op.Input.(kvInput).key
		byKey[k] = append(byKey[k], op)
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]porcupine.Operation, len(keys))
	for i, k := range keys {
		out[i] = byKey[k]
	}
	return out
}
