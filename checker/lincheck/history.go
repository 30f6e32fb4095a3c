// Package lincheck checks histories of the replicated key-value store for linearizability with
// Porcupine (github.com/anishathalye/porcupine). It owns the history file format, the
// sequential key-value model (partitioned by key) and the verdict; the search itself is
// Porcupine's.
package lincheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Result values an operation may carry in a history file.
const (
	ResultOK       = "ok"
	ResultNotFound = "not_found"
	// ResultUnknown: the client never got a reply (timeout, dropped connection, crashed node).
	// A write may or may not have taken effect; a read tells nothing and is dropped.
	ResultUnknown = "unknown"
)

// Limits keep a malformed or hostile file from exhausting memory.
const (
	MaxLineBytes  = 1 << 20
	MaxOperations = 200_000
	MaxKeyBytes   = 256
	MaxValueBytes = 65536
)

// Op is one client operation of a history file (docs/linearizability.md, "History format").
type Op struct {
	// ID is the operation's index among the file's operations (0-based, comment and blank
	// lines not counted); verdicts name operations by it.
	ID     int     `json:"-"`
	Client int     `json:"client"`
	Kind   string  `json:"op"`
	Key    string  `json:"key"`
	Value  *string `json:"value,omitempty"`
	CallUs int64   `json:"call_us"`
	// ReturnUs is absent for an unknown outcome.
	ReturnUs *int64 `json:"return_us,omitempty"`
	Result   string `json:"result"`
}

// History is a parsed, validated history.
type History struct {
	Ops []Op
}

// ParseError names the line of the history file that is wrong and why.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("history line %d: %s", e.Line, e.Msg) }

// ParseHistory reads a history in JSON Lines: one operation object per line; blank lines and
// lines starting with '#' are skipped. Every field is checked; the first bad line is an error.
func ParseHistory(r io.Reader) (History, error) {
	var h History
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		if len(h.Ops) >= MaxOperations {
			return h, &ParseError{line, fmt.Sprintf("more than %d operations", MaxOperations)}
		}
		op, err := parseOp(text)
		if err != nil {
			return h, &ParseError{line, err.Error()}
		}
		op.ID = len(h.Ops)
		h.Ops = append(h.Ops, op)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return h, &ParseError{line + 1, fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		}
		return h, fmt.Errorf("reading history: %w", err)
	}
	return h, nil
}

func parseOp(text []byte) (Op, error) {
	var op Op
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&op); err != nil {
		return op, fmt.Errorf("not an operation object: %v", err)
	}
	if dec.More() {
		return op, fmt.Errorf("more than one JSON value on the line")
	}
	if err := validate(&op, text); err != nil {
		return op, err
	}
	return op, nil
}

func validate(op *Op, raw []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	for _, f := range []string{"client", "op", "key", "call_us", "result"} {
		if _, ok := fields[f]; !ok {
			return fmt.Errorf("missing field %q", f)
		}
	}
	if op.Client < 0 || op.Client > 1_000_000 {
		return fmt.Errorf("client must be an integer in [0, 1000000]: %d", op.Client)
	}
	if !printableKey(op.Key) {
		return fmt.Errorf("key must be 1..%d bytes of printable ASCII without space", MaxKeyBytes)
	}
	if op.CallUs < 0 {
		return fmt.Errorf("call_us must be >= 0: %d", op.CallUs)
	}
	switch op.Result {
	case ResultOK, ResultNotFound:
		if op.ReturnUs == nil {
			return fmt.Errorf("result %q needs return_us", op.Result)
		}
		if *op.ReturnUs < op.CallUs {
			return fmt.Errorf("return_us %d is before call_us %d", *op.ReturnUs, op.CallUs)
		}
	case ResultUnknown:
		if op.ReturnUs != nil {
			return fmt.Errorf("an unknown outcome has no return_us")
		}
	default:
		return fmt.Errorf("result must be ok, not_found or unknown: %q", op.Result)
	}
	switch op.Kind {
	case "put":
		if op.Value == nil || !printableValue(*op.Value) {
			return fmt.Errorf("put needs a value of 0..%d bytes of printable ASCII", MaxValueBytes)
		}
		if op.Result == ResultNotFound {
			return fmt.Errorf("put cannot answer not_found")
		}
	case "get":
		if op.Result == ResultOK {
			if op.Value == nil || !printableValue(*op.Value) {
				return fmt.Errorf("get answered ok needs the value read")
			}
		} else if op.Value != nil {
			return fmt.Errorf("get answered %s carries no value", op.Result)
		}
	case "del":
		if op.Value != nil {
			return fmt.Errorf("del carries no value")
		}
	default:
		return fmt.Errorf("op must be get, put or del: %q", op.Kind)
	}
	return nil
}

func printableKey(s string) bool {
	if len(s) < 1 || len(s) > MaxKeyBytes {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func printableValue(s string) bool {
	if len(s) > MaxValueBytes {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// Keys returns the history's keys in ascending byte order.
func (h History) Keys() []string {
	seen := map[string]bool{}
	var keys []string
	for _, op := range h.Ops {
		if !seen[op.Key] {
			seen[op.Key] = true
			keys = append(keys, op.Key)
		}
	}
	sort.Strings(keys)
	return keys
}
