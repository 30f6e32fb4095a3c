package core

import (
	"strings"
	"testing"
)

// Fuzz targets for the two parsers that meet untrusted bytes: client lines and peer frames.
// `go test` runs them on their seed corpus; `./fuzz.sh SECONDS` explores. Findings go into
// testdata/fuzz/ and become regression cases automatically.

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"get k", "put k v", "put k a b ", "del k", "", "GET k", "put k", "get k\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, ok := ParseCommand(line)
		if !ok {
			return
		}
		if !ValidKey(cmd.Key) || !ValidValue(cmd.Value) {
			t.Fatalf("accepted invalid command %+v from %q", cmd, line)
		}
		// A parsed command renders back to the very same line.
		back := cmd.Type.String() + " " + cmd.Key
		if cmd.Type == CommandPut {
			back += " " + cmd.Value
		}
		if back != line {
			t.Fatalf("%q parsed to %+v which renders as %q", line, cmd, back)
		}
	})
}

func FuzzPeerFrame(f *testing.F) {
	seeds := []string{
		`{"type":"prepare_request","from":1,"to":0,"channel_id":1,"ballot":257}`,
		`{"type":"accept_request","from":1,"to":0,"channel_id":2,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"v"}}}`,
		`{"type":"commit_request","from":1,"to":0,"channel_id":3,"ballot":257,"last_executed":4,"global_last_executed":2}`,
		`{"type":"prepare_response","from":1,"to":0,"channel_id":1,"ok":true,"ballot":257,"instances":[]}`,
		`{"type":"accept_response","from":1,"to":0,"channel_id":1,"ok":false,"ballot":513}`,
		`{"type":"commit_response","from":1,"to":0,"channel_id":1,"ok":true,"ballot":257,"last_executed":3}`,
		`garbage`, `{"type":"accept_request"}`, `[[[[`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		msg, err := DecodeMessage(frame)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes canonically, and decodes again to the same bytes.
		once := AppendMessage(nil, &msg)
		again, err := DecodeMessage(once)
		if err != nil {
			// The codec leaves content rules to the protocol: a snapshot key with a control
			// character decodes, and the canonical writer (printable ASCII only) cannot say it.
			// Such a message must be one its receiver refuses as a bad event
			// (testdata/fuzz/FuzzPeerFrame/snapshot_control_char_key, found by the Rust target;
			// it failed this target before).
			if msg.To >= 3 {
				return
			}
			n := NewNode(Config{ID: msg.To, NumPeers: 3, Seed: 1, CommitIntervalUs: 150000, AcceptTimeoutTicks: 3, MaxPendingAccepts: 8})
			before := n.counters.BadEvents
			n.Step(&Event{Type: EventMessage, Message: msg})
			if n.counters.BadEvents <= before {
				t.Fatalf("canonical form %s does not decode (%v), and the receiver accepted the message", once, err)
			}
			return
		}
		if twice := AppendMessage(nil, &again); string(twice) != string(once) {
			t.Fatalf("not a fixed point:\n%s\n%s", once, twice)
		}
		// A node fed the frame never panics, whatever the frame says.
		n := NewNode(Config{ID: 0, NumPeers: 3, Seed: 1, CommitIntervalUs: 150000, AcceptTimeoutTicks: 3, MaxPendingAccepts: 8, Trace: true})
		n.Step(&Event{Type: EventStart})
		out := n.StepJSON([]byte(`{"type":"message","msg":` + string(frame) + `}`))
		if strings.Contains(string(out), `"kind":"violation"`) && msg.Type != PrepareResponse {
			t.Fatalf("a single frame to a fresh node traced a violation: %s", out)
		}
	})
}
