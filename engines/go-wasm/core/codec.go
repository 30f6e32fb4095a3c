package core

import (
	"errors"
	"strconv"
)

// Events, messages and effects <-> canonical JSON (docs/protocol.md, "Canonical encoding").

var errSchema = errors.New("bad_event")

// objectFields checks that v is an object with exactly the given fields (in any order) and
// returns their values in the order asked for.
func objectFields(v *jsonValue, names ...string) ([]*jsonValue, bool) {
	if v == nil || v.kind != jsonObject || len(v.fields) != len(names) {
		return nil, false
	}
	out := make([]*jsonValue, len(names))
	for i, name := range names {
		for _, f := range v.fields {
			if f.name == name {
				out[i] = f.value
				break
			}
		}
		if out[i] == nil {
			return nil, false
		}
	}
	return out, true
}

// typeOf returns the string in an object's "type" field.
func typeOf(v *jsonValue) (string, bool) {
	if v == nil || v.kind != jsonObject {
		return "", false
	}
	for _, f := range v.fields {
		if f.name == "type" {
			return asString(f.value)
		}
	}
	return "", false
}

func asString(v *jsonValue) (string, bool) {
	if v.kind != jsonString {
		return "", false
	}
	return v.s, true
}

func asUint(v *jsonValue) (uint64, bool) {
	if v.kind != jsonNumber {
		return 0, false
	}
	return v.n, true
}

func asBool(v *jsonValue) (bool, bool) {
	if v.kind != jsonBool {
		return false, false
	}
	return v.b, true
}

// uints reads several integer fields at once.
func uints(vs ...*jsonValue) ([]uint64, bool) {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		n, ok := asUint(v)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

func decodeCommand(v *jsonValue) (Command, bool) {
	t, ok := typeOf(v)
	if !ok {
		return Command{}, false
	}
	switch t {
	case "noop":
		if _, ok := objectFields(v, "type"); !ok {
			return Command{}, false
		}
		return Command{Type: CommandNoop}, true
	case "get", "del":
		f, ok := objectFields(v, "type", "key")
		if !ok {
			return Command{}, false
		}
		key, ok := asString(f[1])
		if !ok || !ValidKey(key) {
			return Command{}, false
		}
		ct := CommandGet
		if t == "del" {
			ct = CommandDel
		}
		return Command{Type: ct, Key: key}, true
	case "put":
		f, ok := objectFields(v, "type", "key", "value")
		if !ok {
			return Command{}, false
		}
		key, ok1 := asString(f[1])
		value, ok2 := asString(f[2])
		if !ok1 || !ok2 || !ValidKey(key) || !ValidValue(value) {
			return Command{}, false
		}
		return Command{Type: CommandPut, Key: key, Value: value}, true
	}
	return Command{}, false
}

func decodeState(v *jsonValue) (InstanceState, bool) {
	s, ok := asString(v)
	if !ok {
		return 0, false
	}
	for i, name := range instanceStateNames {
		if s == name {
			return InstanceState(i), true
		}
	}
	return 0, false
}

func decodeInstance(v *jsonValue) (Instance, bool) {
	f, ok := objectFields(v, "ballot", "index", "client_id", "request_id", "state", "command")
	if !ok {
		return Instance{}, false
	}
	n, ok := uints(f[0], f[1], f[2], f[3])
	if !ok {
		return Instance{}, false
	}
	state, ok := decodeState(f[4])
	if !ok {
		return Instance{}, false
	}
	cmd, ok := decodeCommand(f[5])
	if !ok {
		return Instance{}, false
	}
	return Instance{Ballot: n[0], Index: n[1], ClientID: n[2], RequestID: n[3], State: state, Command: cmd}, true
}

func decodeMessageValue(v *jsonValue) (Message, bool) {
	t, ok := typeOf(v)
	if !ok {
		return Message{}, false
	}
	var m Message
	switch t {
	case "prepare_request":
		// bounded elections add from_index (≥ 1); without it, the paper's request
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ballot", "from_index")
		if !ok {
			f, ok = objectFields(v, "type", "from", "to", "channel_id", "ballot")
		}
		if !ok {
			return m, false
		}
		n, ok := uints(f[1:]...)
		if !ok || (len(n) == 5 && n[4] == 0) {
			return m, false
		}
		m = Message{Type: PrepareRequest, From: n[0], To: n[1], ChannelID: n[2], Ballot: n[3]}
		if len(n) == 5 {
			m.FromIndex = n[4]
		}
	case "prepare_response":
		// bounded elections add from_index (≥ 1, echoed) and next_index (0: the promise is whole)
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot", "instances", "from_index", "next_index")
		if !ok {
			f, ok = objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot", "instances")
		}
		if !ok {
			return m, false
		}
		n, ok1 := uints(f[1], f[2], f[3], f[5])
		okv, ok2 := asBool(f[4])
		if !ok1 || !ok2 || f[6].kind != jsonArray {
			return m, false
		}
		m = Message{Type: PrepareResponse, From: n[0], To: n[1], ChannelID: n[2], Ok: okv, Ballot: n[3]}
		if len(f) == 9 {
			c, ok := uints(f[7], f[8])
			if !ok || c[0] == 0 || (c[1] != 0 && c[1] <= c[0]) {
				return m, false
			}
			m.FromIndex, m.NextIndex = c[0], c[1]
		}
		m.Instances = make([]Instance, 0, len(f[6].items))
		for _, item := range f[6].items {
			inst, ok := decodeInstance(item)
			if !ok {
				return m, false
			}
			m.Instances = append(m.Instances, inst)
		}
	case "accept_request":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "instance")
		if !ok {
			return m, false
		}
		n, ok1 := uints(f[1], f[2], f[3])
		inst, ok2 := decodeInstance(f[4])
		if !ok1 || !ok2 {
			return m, false
		}
		m = Message{Type: AcceptRequest, From: n[0], To: n[1], ChannelID: n[2], Instance: inst}
	case "accept_response":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot")
		if !ok {
			return m, false
		}
		n, ok1 := uints(f[1], f[2], f[3], f[5])
		okv, ok2 := asBool(f[4])
		if !ok1 || !ok2 {
			return m, false
		}
		m = Message{Type: AcceptResponse, From: n[0], To: n[1], ChannelID: n[2], Ok: okv, Ballot: n[3]}
	case "commit_request":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ballot", "last_executed", "global_last_executed")
		if !ok {
			return m, false
		}
		n, ok := uints(f[1], f[2], f[3], f[4], f[5], f[6])
		if !ok {
			return m, false
		}
		m = Message{Type: CommitRequest, From: n[0], To: n[1], ChannelID: n[2], Ballot: n[3],
			LastExecuted: n[4], GlobalLastExecuted: n[5]}
	case "commit_response":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot", "last_executed")
		if !ok {
			return m, false
		}
		n, ok1 := uints(f[1], f[2], f[3], f[5], f[6])
		okv, ok2 := asBool(f[4])
		if !ok1 || !ok2 {
			return m, false
		}
		m = Message{Type: CommitResponse, From: n[0], To: n[1], ChannelID: n[2], Ok: okv, Ballot: n[3],
			LastExecuted: n[4]}
	case "snapshot":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ballot", "last_executed", "kv")
		if !ok {
			return m, false
		}
		n, ok1 := uints(f[1], f[2], f[3], f[4], f[5])
		kv, ok2 := decodeKVEntries(f[6])
		if !ok1 || !ok2 {
			return m, false
		}
		m = Message{Type: Snapshot, From: n[0], To: n[1], ChannelID: n[2], Ballot: n[3], LastExecuted: n[4], KV: kv}
	case "gc_request":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ballot", "pause_us")
		if !ok {
			return m, false
		}
		n, ok := uints(f[1:]...)
		if !ok {
			return m, false
		}
		m = Message{Type: GcRequest, From: n[0], To: n[1], ChannelID: n[2], Ballot: n[3], PauseUs: n[4]}
	case "gc_grant", "gc_release":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ballot")
		if !ok {
			return m, false
		}
		n, ok := uints(f[1:]...)
		if !ok {
			return m, false
		}
		m = Message{Type: GcGrant, From: n[0], To: n[1], ChannelID: n[2], Ballot: n[3]}
		if t == "gc_release" {
			m.Type = GcRelease
		}
	case "handoff":
		f, ok := objectFields(v, "type", "from", "to", "channel_id", "ballot", "target", "collecting", "collecting_ticks", "last_executed")
		if !ok {
			return m, false
		}
		n, ok := uints(f[1:]...)
		if !ok {
			return m, false
		}
		m = Message{Type: Handoff, From: n[0], To: n[1], ChannelID: n[2], Ballot: n[3], Target: n[4], Collecting: n[5], CollectingTicks: n[6], LastExecuted: n[7]}
	default:
		return m, false
	}
	return m, true
}

// decodeKVEntries reads [[key,value],…]; the content rules are the protocol's to check.
func decodeKVEntries(v *jsonValue) ([][2]string, bool) {
	if v.kind != jsonArray {
		return nil, false
	}
	out := make([][2]string, 0, len(v.items))
	for _, item := range v.items {
		if item.kind != jsonArray || len(item.items) != 2 {
			return nil, false
		}
		k, ok1 := asString(item.items[0])
		val, ok2 := asString(item.items[1])
		if !ok1 || !ok2 {
			return nil, false
		}
		out = append(out, [2]string{k, val})
	}
	return out, true
}

func appendKVEntries(b []byte, kv [][2]string) []byte {
	b = append(b, '[')
	for i, e := range kv {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendJSONString(b, e[0])
		b = append(b, ',')
		b = appendJSONString(b, e[1])
		b = append(b, ']')
	}
	return append(b, ']')
}

// DecodeMessage reads one peer message (a line of the native peer protocol).
func DecodeMessage(in []byte) (Message, error) {
	v, err := parseJSON(in)
	if err != nil {
		return Message{}, err
	}
	m, ok := decodeMessageValue(v)
	if !ok {
		return Message{}, errSchema
	}
	return m, nil
}

// DecodeEvent reads one event.
func DecodeEvent(in []byte) (Event, error) {
	v, err := parseJSON(in)
	if err != nil {
		return Event{}, err
	}
	t, ok := typeOf(v)
	if !ok {
		return Event{}, errSchema
	}
	switch t {
	case "start":
		if _, ok := objectFields(v, "type"); ok {
			return Event{Type: EventStart}, nil
		}
	case "timer":
		if f, ok := objectFields(v, "type", "timer"); ok {
			if s, ok := asString(f[1]); ok {
				switch s {
				case "election":
					return Event{Type: EventTimer, Timer: TimerElection}, nil
				case "commit":
					return Event{Type: EventTimer, Timer: TimerCommit}, nil
				}
			}
		}
	case "client":
		if f, ok := objectFields(v, "type", "client_id", "request_id", "line"); ok {
			n, ok1 := uints(f[1], f[2])
			line, ok2 := asString(f[3])
			if ok1 && ok2 {
				return Event{Type: EventClient, ClientID: n[0], RequestID: n[1], Line: line}, nil
			}
		}
	case "message":
		if f, ok := objectFields(v, "type", "msg"); ok {
			if m, ok := decodeMessageValue(f[1]); ok {
				return Event{Type: EventMessage, Message: m}, nil
			}
		}
	case "gc_pending":
		if f, ok := objectFields(v, "type", "pause_us"); ok {
			if p, ok := asUint(f[1]); ok {
				return Event{Type: EventGcPending, PauseUs: p}, nil
			}
		}
	case "gc_done":
		if _, ok := objectFields(v, "type"); ok {
			return Event{Type: EventGcDone}, nil
		}
	case "persisted":
		if f, ok := objectFields(v, "type", "persist_id"); ok {
			if id, ok := asUint(f[1]); ok {
				return Event{Type: EventPersisted, PersistID: id}, nil
			}
		}
	case "restart":
		if f, ok := objectFields(v, "type", "records"); ok && f[1].kind == jsonArray {
			records := make([]Record, 0, len(f[1].items))
			for _, item := range f[1].items {
				r, ok := decodeRecord(item)
				if !ok {
					return Event{}, errSchema
				}
				records = append(records, r)
			}
			return Event{Type: EventRestart, Records: records}, nil
		}
	}
	return Event{}, errSchema
}

// DecodeRecord reads one durable record (a frame of a native server's write-ahead log).
func DecodeRecord(in []byte) (Record, error) {
	v, err := parseJSON(in)
	if err != nil {
		return Record{}, err
	}
	r, ok := decodeRecord(v)
	if !ok {
		return Record{}, errSchema
	}
	return r, nil
}

// AppendRecord writes r in canonical form.
func AppendRecord(b []byte, r *Record) []byte { return appendRecord(b, r) }

// decodeRecord reads one durable record (docs/protocol.md, "Durability").
func decodeRecord(v *jsonValue) (Record, bool) {
	if v == nil || v.kind != jsonObject {
		return Record{}, false
	}
	var kind string
	for _, f := range v.fields {
		if f.name == "kind" {
			kind, _ = asString(f.value)
		}
	}
	switch kind {
	case "promise":
		if f, ok := objectFields(v, "kind", "ballot"); ok {
			if b, ok := asUint(f[1]); ok {
				return Record{Kind: RecordPromise, Ballot: b}, true
			}
		}
	case "instance":
		if f, ok := objectFields(v, "kind", "instance"); ok {
			if inst, ok := decodeInstance(f[1]); ok {
				return Record{Kind: RecordInstance, Instance: inst}, true
			}
		}
	case "snapshot":
		if f, ok := objectFields(v, "kind", "last_executed", "kv"); ok {
			le, ok1 := asUint(f[1])
			kv, ok2 := decodeKVEntries(f[2])
			if ok1 && ok2 {
				return Record{Kind: RecordSnapshot, LastExecuted: le, KV: kv}, true
			}
		}
	case "checkpoint":
		if f, ok := objectFields(v, "kind", "ballot", "last_executed", "kv"); ok {
			b, ok1 := asUint(f[1])
			le, ok2 := asUint(f[2])
			kv, ok3 := decodeKVEntries(f[3])
			if ok1 && ok2 && ok3 {
				return Record{Kind: RecordCheckpoint, Ballot: b, LastExecuted: le, KV: kv}, true
			}
		}
	}
	return Record{}, false
}

func appendRecord(b []byte, r *Record) []byte {
	b = append(b, '{')
	b = appendStringField(b, "kind", r.Kind.String(), true)
	switch r.Kind {
	case RecordPromise:
		b = appendUintField(b, "ballot", r.Ballot, false)
	case RecordInstance:
		b = appendField(b, "instance", false)
		b = appendInstance(b, r.Instance)
	case RecordSnapshot:
		b = appendUintField(b, "last_executed", r.LastExecuted, false)
		b = appendField(b, "kv", false)
		b = appendKVEntries(b, r.KV)
	case RecordCheckpoint:
		b = appendUintField(b, "ballot", r.Ballot, false)
		b = appendUintField(b, "last_executed", r.LastExecuted, false)
		b = appendField(b, "kv", false)
		b = appendKVEntries(b, r.KV)
	}
	return append(b, '}')
}

// --- writing ---

func appendCommand(b []byte, c Command) []byte {
	b = append(b, '{')
	b = appendStringField(b, "type", c.Type.String(), true)
	if c.Type == CommandNoop {
		return append(b, '}')
	}
	b = appendStringField(b, "key", c.Key, false)
	if c.Type == CommandPut {
		b = appendStringField(b, "value", c.Value, false)
	}
	return append(b, '}')
}

func appendInstance(b []byte, inst Instance) []byte {
	b = append(b, '{')
	b = appendUintField(b, "ballot", inst.Ballot, true)
	b = appendUintField(b, "index", inst.Index, false)
	b = appendUintField(b, "client_id", inst.ClientID, false)
	b = appendUintField(b, "request_id", inst.RequestID, false)
	b = appendStringField(b, "state", inst.State.String(), false)
	b = appendField(b, "command", false)
	b = appendCommand(b, inst.Command)
	return append(b, '}')
}

// AppendMessage writes m in canonical form.
func AppendMessage(b []byte, m *Message) []byte {
	b = append(b, '{')
	b = appendStringField(b, "type", m.Type.String(), true)
	b = appendUintField(b, "from", m.From, false)
	b = appendUintField(b, "to", m.To, false)
	b = appendUintField(b, "channel_id", m.ChannelID, false)
	switch m.Type {
	case PrepareRequest:
		b = appendUintField(b, "ballot", m.Ballot, false)
		if m.FromIndex > 0 {
			b = appendUintField(b, "from_index", m.FromIndex, false)
		}
	case PrepareResponse:
		b = appendBoolField(b, "ok", m.Ok, false)
		b = appendUintField(b, "ballot", m.Ballot, false)
		b = appendField(b, "instances", false)
		b = append(b, '[')
		for i, inst := range m.Instances {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInstance(b, inst)
		}
		b = append(b, ']')
		if m.FromIndex > 0 {
			b = appendUintField(b, "from_index", m.FromIndex, false)
			b = appendUintField(b, "next_index", m.NextIndex, false)
		}
	case AcceptRequest:
		b = appendField(b, "instance", false)
		b = appendInstance(b, m.Instance)
	case AcceptResponse:
		b = appendBoolField(b, "ok", m.Ok, false)
		b = appendUintField(b, "ballot", m.Ballot, false)
	case CommitRequest:
		b = appendUintField(b, "ballot", m.Ballot, false)
		b = appendUintField(b, "last_executed", m.LastExecuted, false)
		b = appendUintField(b, "global_last_executed", m.GlobalLastExecuted, false)
	case CommitResponse:
		b = appendBoolField(b, "ok", m.Ok, false)
		b = appendUintField(b, "ballot", m.Ballot, false)
		b = appendUintField(b, "last_executed", m.LastExecuted, false)
	case Snapshot:
		b = appendUintField(b, "ballot", m.Ballot, false)
		b = appendUintField(b, "last_executed", m.LastExecuted, false)
		b = appendField(b, "kv", false)
		b = appendKVEntries(b, m.KV)
	case GcRequest:
		b = appendUintField(b, "ballot", m.Ballot, false)
		b = appendUintField(b, "pause_us", m.PauseUs, false)
	case GcGrant, GcRelease:
		b = appendUintField(b, "ballot", m.Ballot, false)
	case Handoff:
		b = appendUintField(b, "ballot", m.Ballot, false)
		b = appendUintField(b, "target", m.Target, false)
		b = appendUintField(b, "collecting", m.Collecting, false)
		b = appendUintField(b, "collecting_ticks", m.CollectingTicks, false)
		b = appendUintField(b, "last_executed", m.LastExecuted, false)
	}
	return append(b, '}')
}

func appendTrace(b []byte, t *Trace) []byte {
	b = appendStringField(b, "kind", t.Kind.String(), false)
	switch t.Kind {
	case TraceFollower:
		b = appendUintField(b, "ballot", t.Ballot, false)
		b = appendUintField(b, "leader", t.Leader, false)
	case TraceLeader:
		b = appendUintField(b, "ballot", t.Ballot, false)
		b = appendUintField(b, "last_index", t.LastIndex, false)
	case TraceElection, TraceElectionAbandoned:
		b = appendUintField(b, "ballot", t.Ballot, false)
	case TraceReplay, TraceFill:
		b = appendUintField(b, "count", t.Count, false)
		b = appendUintField(b, "from_index", t.FromIndex, false)
		b = appendUintField(b, "to_index", t.ToIndex, false)
	case TraceInstance:
		b = appendUintField(b, "index", t.Index, false)
		b = appendUintField(b, "ballot", t.Ballot, false)
		b = appendStringField(b, "state", t.State.String(), false)
	case TraceExecute:
		b = appendUintField(b, "index", t.Index, false)
		b = appendStringField(b, "result", t.Result.String(), false)
	case TraceStale, TraceAcceptTimeout:
		b = appendUintField(b, "index", t.Index, false)
		b = appendUintField(b, "ballot", t.Ballot, false)
	case TraceTrim:
		b = appendUintField(b, "global_last_executed", t.Value, false)
	case TraceCommitGle:
		b = appendUintField(b, "value", t.Value, false)
	case TraceRepair:
		b = appendUintField(b, "peer", t.Leader, false)
		b = appendUintField(b, "from_index", t.FromIndex, false)
		b = appendUintField(b, "to_index", t.ToIndex, false)
	case TraceStepDown:
		b = appendUintField(b, "ballot", t.Ballot, false)
		b = appendUintField(b, "heard", t.Count, false)
		b = appendUintField(b, "window_us", t.Value, false)
	case TraceViolation:
		b = appendUintField(b, "index", t.Index, false)
		b = appendStringField(b, "reason", t.Reason, false)
	case TraceRecovered:
		b = appendUintField(b, "ballot", t.Ballot, false)
		b = appendUintField(b, "last_index", t.LastIndex, false)
		b = appendUintField(b, "records", t.Count, false)
	case TraceSnapshotSent:
		b = appendUintField(b, "peer", t.Leader, false)
		b = appendUintField(b, "last_executed", t.Index, false)
	case TraceSnapshotInstalled:
		b = appendUintField(b, "last_executed", t.Index, false)
	case TraceGcAsk:
		b = appendUintField(b, "leader", t.Leader, false)
	case TraceGcGrant, TraceGcRelease, TraceGcGrantExpired:
		b = appendUintField(b, "peer", t.Leader, false)
	case TraceGcQueued:
		b = appendUintField(b, "peer", t.Leader, false)
		b = appendUintField(b, "waiting", t.Count, false)
	case TraceHandoff:
		b = appendUintField(b, "target", t.Leader, false)
	}
	return b
}

// AppendEffect writes e in canonical form (without the line feed).
func AppendEffect(b []byte, e *Effect) []byte {
	b = append(b, '{')
	switch e.Type {
	case EffectSend:
		b = appendStringField(b, "type", "send", true)
		b = appendField(b, "msg", false)
		b = AppendMessage(b, &e.Message)
	case EffectReply:
		b = appendStringField(b, "type", "reply", true)
		b = appendUintField(b, "client_id", e.ClientID, false)
		b = appendUintField(b, "request_id", e.RequestID, false)
		b = appendStringField(b, "result", e.Result.Type.String(), false)
		switch e.Result.Type {
		case ResultOk:
			b = appendStringField(b, "value", e.Result.Value, false)
		case ResultLeaderIs:
			b = appendUintField(b, "leader", e.Result.Leader, false)
		case ResultBusy:
			b = appendUintField(b, "pause_us", e.Result.PauseUs, false)
		}
	case EffectSetTimer:
		b = appendStringField(b, "type", "set_timer", true)
		b = appendStringField(b, "timer", e.Timer.String(), false)
		b = appendUintField(b, "delay_us", e.DelayUs, false)
	case EffectCancelTimer:
		b = appendStringField(b, "type", "cancel_timer", true)
		b = appendStringField(b, "timer", e.Timer.String(), false)
	case EffectTrace:
		b = appendStringField(b, "type", "trace", true)
		b = appendTrace(b, &e.Trace)
	case EffectCollect:
		b = appendStringField(b, "type", "collect", true)
		b = appendUintField(b, "pause_us", e.PauseUs, false)
	case EffectError:
		b = appendStringField(b, "type", "error", true)
		b = appendStringField(b, "error", "bad_event", false)
	case EffectPersist:
		b = appendStringField(b, "type", "persist", true)
		b = appendUintField(b, "persist_id", e.PersistID, false)
		b = appendField(b, "records", false)
		b = append(b, '[')
		for i := range e.Records {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRecord(b, &e.Records[i])
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// EncodeEffects writes effects as JSON Lines.
func EncodeEffects(effects []Effect) []byte {
	var b []byte
	for i := range effects {
		b = AppendEffect(b, &effects[i])
		b = append(b, '\n')
	}
	return b
}

// DecodeConfig reads a node configuration; unknown fields and out-of-range values are errors.
func DecodeConfig(in []byte) (Config, error) {
	v, err := parseJSON(in)
	if err != nil {
		return Config{}, errors.New("config: not valid JSON")
	}
	if v.kind != jsonObject {
		return Config{}, errors.New("config: not a JSON object")
	}
	cfg := DefaultConfig()
	var seen struct{ id, numPeers, seed bool }
	for _, f := range v.fields {
		if f.name == "durability" {
			s, ok := asString(f.value)
			switch {
			case ok && s == "none":
				cfg.Durability = DurabilityNone
			case ok && s == "log":
				cfg.Durability = DurabilityLog
			default:
				return Config{}, errors.New(`config: durability must be "none" or "log"`)
			}
			continue
		}
		if f.name == "mitigation" {
			s, ok := asString(f.value)
			m, known := parseMitigation(s)
			if !ok || !known {
				return Config{}, errors.New(`config: mitigation must be "none", "blade", "mitmem" or "both"`)
			}
			cfg.Mitigation = m
			continue
		}
		if f.name == "trace" || f.name == "check_quorum" {
			b, ok := asBool(f.value)
			if !ok {
				return Config{}, errors.New("config: " + f.name + " must be true or false")
			}
			if f.name == "trace" {
				cfg.Trace = b
			} else {
				cfg.CheckQuorum = b
			}
			continue
		}
		n, ok := asUint(f.value)
		if !ok {
			return Config{}, errors.New("config: " + f.name + " must be a non-negative integer below 2^53")
		}
		switch f.name {
		case "id":
			cfg.ID, seen.id = n, true
		case "num_peers":
			cfg.NumPeers, seen.numPeers = n, true
		case "seed":
			cfg.Seed, seen.seed = n, true
		case "commit_interval_us":
			cfg.CommitIntervalUs = n
		case "accept_timeout_ticks":
			cfg.AcceptTimeoutTicks = n
		case "max_pending_accepts":
			cfg.MaxPendingAccepts = n
		case "repair_batch":
			cfg.RepairBatch = n
		case "election_batch":
			cfg.ElectionBatch = n
		case "log_bound":
			cfg.LogBound = n
		case "mitmem_deadline_us":
			cfg.MitmemDeadlineUs = n
		case "snapshot_every":
			cfg.SnapshotEvery = n
		default:
			return Config{}, errors.New("config: unknown field " + strconv.Quote(f.name))
		}
	}
	if !seen.id || !seen.numPeers || !seen.seed {
		return Config{}, errors.New("config: id, num_peers and seed are required")
	}
	return cfg, cfg.Validate()
}
