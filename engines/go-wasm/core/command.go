package core

import "strings"

type CommandType uint8

const (
	CommandGet CommandType = iota
	CommandPut
	CommandDel
	// CommandNoop fills a log slot no promise covered when a leader takes over (docs/protocol.md,
	// Replay); it changes nothing and no client line parses to it.
	CommandNoop
)

var commandTypeNames = [...]string{"get", "put", "del", "noop"}

func (t CommandType) String() string { return commandTypeNames[t] }

// Limits on what a client may store; longer input is a bad command.
const (
	MaxKeyBytes   = 256
	MaxValueBytes = 65536
)

type Command struct {
	Type  CommandType
	Key   string
	Value string // only for put
}

// ResultType is what a client is told.
type ResultType uint8

const (
	ResultOk ResultType = iota
	ResultNotFound
	ResultRetry
	ResultLeaderIs
	ResultBadCommand
	ResultBusy // GC mitigation (MITMEM): retry at another replica now
)

var resultTypeNames = [...]string{"ok", "not_found", "retry", "leader_is", "bad_command", "busy"}

func (r ResultType) String() string { return resultTypeNames[r] }

type Result struct {
	Type    ResultType
	Value   string // for ok
	Leader  uint64 // for leader_is
	PauseUs uint64 // for busy: the predicted pause
}

// ReplyLine renders a result as the client text protocol's reply line (without "\n").
func ReplyLine(r Result) string {
	switch r.Type {
	case ResultOk:
		return r.Value
	case ResultNotFound:
		return "key not found"
	case ResultRetry:
		return "retry"
	case ResultLeaderIs:
		return "leader is " + formatUint(r.Leader)
	case ResultBusy:
		return "busy " + formatUint(r.PauseUs)
	default:
		return "bad command"
	}
}

func isKeyByte(c byte) bool   { return c >= 0x21 && c <= 0x7e }
func isValueByte(c byte) bool { return c >= 0x20 && c <= 0x7e }

// ValidKey reports whether k may be stored: 1..MaxKeyBytes printable bytes, no space.
func ValidKey(k string) bool {
	if len(k) == 0 || len(k) > MaxKeyBytes {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !isKeyByte(k[i]) {
			return false
		}
	}
	return true
}

// ValidValue reports whether v may be stored: 0..MaxValueBytes printable bytes.
func ValidValue(v string) bool {
	if len(v) > MaxValueBytes {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isValueByte(v[i]) {
			return false
		}
	}
	return true
}

// ParseCommand reads one client line ("get k", "put k v", "del k"). The value of a put is the
// rest of the line after the key and one space; it may hold spaces or be empty.
func ParseCommand(line string) (Command, bool) {
	verb, rest, ok := strings.Cut(line, " ")
	if !ok {
		return Command{}, false
	}
	switch verb {
	case "get", "del":
		if !ValidKey(rest) {
			return Command{}, false
		}
		t := CommandGet
		if verb == "del" {
			t = CommandDel
		}
		return Command{Type: t, Key: rest}, true
	case "put":
		key, value, ok := strings.Cut(rest, " ")
		if !ok || !ValidKey(key) || !ValidValue(value) {
			return Command{}, false
		}
		return Command{Type: CommandPut, Key: key, Value: value}, true
	}
	return Command{}, false
}
