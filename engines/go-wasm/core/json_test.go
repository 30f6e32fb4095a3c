package core

import (
	"strings"
	"testing"
)

func TestParseJSONAcceptsValidInput(t *testing.T) {
	good := []string{`{}`, ` { "a" : [ 1 , true , false , null , "x" ] } `, `{"s":"\"\\\/\b\f\n\r\t\u0041"}`,
		`9007199254740991`, `0`, `[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]`}
	for _, in := range good {
		if _, err := parseJSON([]byte(in)); err != nil {
			t.Errorf("parseJSON(%s) failed: %v", in, err)
		}
	}
}

func TestParseJSONRejectsWhatTheContractForbids(t *testing.T) {
	bad := []string{``, `{`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `[1,]`, `{"a":1}x`, `{"a":1,"a":2}`,
		`1.0`, `1e3`, `-1`, `01`, `9007199254740992`, `99999999999999999999`, `"\x"`, `"\u12"`, "\"a\x01\"",
		`[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]`, `tru`, `nul`, `'a'`}
	for _, in := range bad {
		if v, err := parseJSON([]byte(in)); err == nil {
			t.Errorf("parseJSON(%q) accepted %+v", in, v)
		}
	}
}

func TestStringEscapesDecode(t *testing.T) {
	v, err := parseJSON([]byte(`"a\"b\\c\/d\u0041"`))
	if err != nil || v.s != `a"b\c/dA` {
		t.Fatalf("got %+v, %v", v, err)
	}
	v, _ = parseJSON([]byte(`"caf\u00e9"`))
	if ValidValue(v.s) {
		t.Fatal("an escaped non-ASCII character must not pass the content rules")
	}
}

func TestCanonicalWriterEscapesOnlyQuoteAndBackslash(t *testing.T) {
	got := string(appendJSONString(nil, `a "b" \c`))
	if got != `"a \"b\" \\c"` {
		t.Fatalf("got %s", got)
	}
}

func TestEventRoundTripsThroughTheCodec(t *testing.T) {
	m := Message{Type: PrepareResponse, From: 1, To: 0, ChannelID: 3, Ok: true, Ballot: 257,
		Instances: []Instance{{Ballot: 257, Index: 1, ClientID: 7, RequestID: 2, State: Committed,
			Command: Command{Type: CommandPut, Key: "k", Value: `v "q"`}}}}
	line := string(AppendMessage(nil, &m))
	ev, err := DecodeEvent([]byte(`{"type":"message","msg":` + line + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if again := string(AppendMessage(nil, &ev.Message)); again != line {
		t.Fatalf("round trip changed the bytes:\n%s\n%s", line, again)
	}
}

func TestDecodeEventRejectsSchemaErrors(t *testing.T) {
	bad := []string{`{"type":"start","x":1}`, `{"type":"timer","timer":"nap"}`, `{"type":"client","client_id":1,"request_id":1}`,
		`{"type":"client","client_id":"1","request_id":1,"line":"get k"}`, `{"type":"message","msg":{"type":"accept_response"}}`,
		`{"type":"message","msg":{"type":"commit_request","from":1,"to":0,"channel_id":1,"ballot":1,"last_executed":0}}`,
		`[]`, `"start"`, `{"type":7}`}
	for _, in := range bad {
		if _, err := DecodeEvent([]byte(in)); err == nil {
			t.Errorf("DecodeEvent(%s) accepted", in)
		}
	}
}

func TestDecodeConfig(t *testing.T) {
	cfg, err := DecodeConfig([]byte(`{"id":1,"num_peers":3,"seed":9,"trace":false,"commit_interval_us":5000}`))
	if err != nil || cfg.ID != 1 || cfg.Trace || cfg.CommitIntervalUs != 5000 || cfg.AcceptTimeoutTicks != 3 {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	for _, in := range []string{`{"id":3,"num_peers":3,"seed":1}`, `{"id":0,"num_peers":16,"seed":1}`,
		`{"id":0,"num_peers":3}`, `{"id":0,"num_peers":3,"seed":1,"colour":1}`, `{"id":0,"num_peers":3,"seed":1,"commit_interval_us":10}`, `nope`} {
		if _, err := DecodeConfig([]byte(in)); err == nil || !strings.HasPrefix(err.Error(), "config:") {
			t.Errorf("DecodeConfig(%s) = %v", in, err)
		}
	}
}

// A no-op travels only between nodes: exactly {"type":"noop"}, never with a key, and no client
// line parses to it.
func TestNoopCommandOnTheWire(t *testing.T) {
	m := Message{Type: AcceptRequest, From: 1, To: 0, ChannelID: 3,
		Instance: Instance{Ballot: 257, Index: 4, State: InProgress, Command: Command{Type: CommandNoop}}}
	line := string(AppendMessage(nil, &m))
	if !strings.Contains(line, `"command":{"type":"noop"}}`) {
		t.Fatalf("noop encoded as %s", line)
	}
	ev, err := DecodeEvent([]byte(`{"type":"message","msg":` + line + `}`))
	if err != nil || ev.Message.Instance.Command.Type != CommandNoop {
		t.Fatalf("noop did not decode: %v %+v", err, ev.Message.Instance)
	}
	withKey := strings.Replace(line, `{"type":"noop"}`, `{"type":"noop","key":"k"}`, 1)
	if _, err := DecodeEvent([]byte(`{"type":"message","msg":` + withKey + `}`)); err == nil {
		t.Errorf("a noop with a key was accepted")
	}
	if _, ok := ParseCommand("noop "); ok {
		t.Errorf("a client line parsed to a noop")
	}
	if r := NewKVStore().Apply(Command{Type: CommandNoop}); r.Type != ResultOk {
		t.Errorf("noop result %v", r.Type)
	}
}

// Bounded elections add from_index / next_index to the prepare messages; the reader takes both
// shapes and refuses a chunk that cannot make progress.
func TestBoundedPrepareMessagesOnTheWire(t *testing.T) {
	good := []string{
		`{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":257,"from_index":6}`,
		`{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[],"from_index":6,"next_index":0}`,
		`{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[],"from_index":6,"next_index":8}`,
	}
	for _, line := range good {
		ev, err := DecodeEvent([]byte(`{"type":"message","msg":` + line + `}`))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if again := string(AppendMessage(nil, &ev.Message)); again != line {
			t.Errorf("round trip changed the bytes:\n%s\n%s", line, again)
		}
	}
	bad := []string{
		`{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":257,"from_index":0}`,
		`{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[],"from_index":6,"next_index":6}`,
		`{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[],"from_index":0,"next_index":0}`,
		`{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[],"from_index":6}`,
	}
	for _, line := range bad {
		if _, err := DecodeEvent([]byte(`{"type":"message","msg":` + line + `}`)); err == nil {
			t.Errorf("accepted %s", line)
		}
	}
}
