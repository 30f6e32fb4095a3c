package core

// Events and effects <-> the binary step's encoding (docs/protocol.md, "Binary step"); the
// mirror of engines/loader/binary-codec.ts. Only the per-operation events and effects have a
// binary form; everything else is canonical JSON behind tag 0 (codec.go reads and writes it).

const (
	eventJSON    = 0x00
	eventClient  = 0x01
	eventMessage = 0x02

	effectJSON  = 0x00
	effectReply = 0x01
	effectSend  = 0x02

	messageAcceptRequest  = 1
	messageAcceptResponse = 2
	messageCommitRequest  = 3
	messageCommitResponse = 4

	maxUintBytes = 8
	uintLimit    = uint64(1) << 53
)

// binaryReader is a cursor over the input; every read fails on bytes the encoding does not allow.
type binaryReader struct {
	in  []byte
	pos int
	ok  bool
}

func (r *binaryReader) byte() byte {
	if r.pos >= len(r.in) {
		r.ok = false
		return 0
	}
	b := r.in[r.pos]
	r.pos++
	return b
}

// uint reads unsigned LEB128, shortest form, below 2^53.
func (r *binaryReader) uint() uint64 {
	var value uint64
	for i := 0; i < maxUintBytes && r.ok; i++ {
		b := r.byte()
		value |= uint64(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			if (b == 0 && i > 0) || value >= uintLimit {
				r.ok = false
			}
			return value
		}
	}
	r.ok = false
	return 0
}

func (r *binaryReader) boolean() bool {
	b := r.byte()
	if b > 1 {
		r.ok = false
	}
	return b == 1
}

func (r *binaryReader) bytes() []byte {
	n := r.uint()
	if !r.ok || n > uint64(len(r.in)-r.pos) {
		r.ok = false
		return nil
	}
	s := r.in[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s
}

func (r *binaryReader) command() Command {
	t := r.byte()
	if !r.ok || t > byte(CommandNoop) {
		r.ok = false
		return Command{}
	}
	c := Command{Type: CommandType(t)}
	if c.Type == CommandNoop {
		return c
	}
	c.Key = string(r.bytes())
	if !r.ok || !ValidKey(c.Key) {
		r.ok = false
		return c
	}
	if c.Type == CommandPut {
		c.Value = string(r.bytes())
		if !r.ok || !ValidValue(c.Value) {
			r.ok = false
		}
	}
	return c
}

func (r *binaryReader) message() Message {
	kind := r.byte()
	m := Message{From: r.uint(), To: r.uint(), ChannelID: r.uint()}
	switch kind {
	case messageAcceptRequest:
		m.Type = AcceptRequest
		inst := &m.Instance
		inst.Ballot, inst.Index, inst.ClientID, inst.RequestID = r.uint(), r.uint(), r.uint(), r.uint()
		state := r.byte()
		if state > byte(Executed) {
			r.ok = false
		}
		inst.State = InstanceState(state)
		if r.ok {
			inst.Command = r.command()
		}
	case messageAcceptResponse:
		m.Type = AcceptResponse
		m.Ok = r.boolean()
		m.Ballot = r.uint()
	case messageCommitRequest:
		m.Type = CommitRequest
		m.Ballot, m.LastExecuted, m.GlobalLastExecuted = r.uint(), r.uint(), r.uint()
	case messageCommitResponse:
		m.Type = CommitResponse
		m.Ok = r.boolean()
		m.Ballot, m.LastExecuted = r.uint(), r.uint()
	default:
		r.ok = false
	}
	return m
}

// DecodeBinaryEvent reads one event in the binary encoding (tag 0: its canonical JSON).
func DecodeBinaryEvent(in []byte) (Event, error) {
	r := binaryReader{in: in, ok: true}
	var ev Event
	switch r.byte() {
	case eventJSON:
		if !r.ok {
			return Event{}, errSchema
		}
		return DecodeEvent(in[1:])
	case eventClient:
		ev.Type = EventClient
		ev.ClientID, ev.RequestID = r.uint(), r.uint()
		ev.Line = string(r.bytes())
	case eventMessage:
		ev.Type = EventMessage
		ev.Message = r.message()
	default:
		return Event{}, errSchema
	}
	if !r.ok || r.pos != len(in) {
		return Event{}, errSchema
	}
	return ev, nil
}

func appendUint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v&0x7f)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendBytes(b []byte, s string) []byte {
	b = appendUint(b, uint64(len(s)))
	return append(b, s...)
}

// binaryType is the message's type byte, or 0 when it has no binary form.
func binaryType(m *Message) byte {
	switch m.Type {
	case AcceptRequest:
		return messageAcceptRequest
	case AcceptResponse:
		return messageAcceptResponse
	case CommitRequest:
		return messageCommitRequest
	case CommitResponse:
		return messageCommitResponse
	}
	return 0
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendBinaryMessage(b []byte, kind byte, m *Message) []byte {
	b = append(b, kind)
	b = appendUint(appendUint(appendUint(b, m.From), m.To), m.ChannelID)
	switch kind {
	case messageAcceptRequest:
		inst := &m.Instance
		b = appendUint(appendUint(appendUint(appendUint(b, inst.Ballot), inst.Index), inst.ClientID), inst.RequestID)
		b = append(b, byte(inst.State), byte(inst.Command.Type))
		if inst.Command.Type != CommandNoop {
			b = appendBytes(b, inst.Command.Key)
		}
		if inst.Command.Type == CommandPut {
			b = appendBytes(b, inst.Command.Value)
		}
	case messageAcceptResponse:
		b = appendUint(append(b, boolByte(m.Ok)), m.Ballot)
	case messageCommitRequest:
		b = appendUint(appendUint(appendUint(b, m.Ballot), m.LastExecuted), m.GlobalLastExecuted)
	default:
		b = appendUint(appendUint(append(b, boolByte(m.Ok)), m.Ballot), m.LastExecuted)
	}
	return b
}

func appendBinaryReply(b []byte, e *Effect) []byte {
	b = appendUint(appendUint(append(b, effectReply), e.ClientID), e.RequestID)
	b = append(b, byte(e.Result.Type))
	switch e.Result.Type {
	case ResultOk:
		b = appendBytes(b, e.Result.Value)
	case ResultLeaderIs:
		b = appendUint(b, e.Result.Leader)
	case ResultBusy:
		b = appendUint(b, e.Result.PauseUs)
	}
	return b
}

// appendLengthPrefixed writes what write appends behind its LEB128 length: the body is written
// in place, then rotated behind the length, so nothing goes through a scratch buffer.
func appendLengthPrefixed(b []byte, write func([]byte) []byte) []byte {
	start := len(b)
	b = write(b)
	body := len(b) - start
	b = appendUint(b, uint64(body))
	prefix := len(b) - start - body
	var length [maxUintBytes]byte
	copy(length[:], b[start+body:])
	copy(b[start+prefix:], b[start:start+body])
	copy(b[start:], length[:prefix])
	return b
}

// AppendBinaryEffects appends effects in the binary encoding to b.
func AppendBinaryEffects(b []byte, effects []Effect) []byte {
	for i := range effects {
		e := &effects[i]
		switch kind := binaryType(&e.Message); {
		case e.Type == EffectReply:
			b = appendBinaryReply(b, e)
		case e.Type == EffectSend && kind != 0:
			b = appendLengthPrefixed(append(b, effectSend), func(o []byte) []byte { return appendBinaryMessage(o, kind, &e.Message) })
		default:
			b = appendLengthPrefixed(append(b, effectJSON), func(o []byte) []byte { return AppendEffect(o, e) })
		}
	}
	return b
}

// --- the batch step (docs/protocol.md, "Batch step") ---

// batchFrame reads the frame at *pos: its body, *pos moved past it; false when the frame's
// length is not a valid integer or runs past the end of the input.
func batchFrame(in []byte, pos *int) ([]byte, bool) {
	r := binaryReader{in: in, pos: *pos, ok: true}
	body := r.bytes()
	if !r.ok {
		return nil, false
	}
	*pos = r.pos
	return body, true
}

// validBatchFraming tells whether the input is a sequence of whole frames (checked before a
// batch steps anything).
func validBatchFraming(in []byte) bool {
	for pos := 0; pos < len(in); {
		if _, ok := batchFrame(in, &pos); !ok {
			return false
		}
	}
	return true
}

// appendBatchFrame appends one frame: the body's length, then the body.
func appendBatchFrame(b, body []byte) []byte {
	return append(appendUint(b, uint64(len(body))), body...)
}
