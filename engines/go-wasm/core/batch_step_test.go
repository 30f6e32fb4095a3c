package core

// The batch step (docs/protocol.md, "Batch step"): its framing, and a batch stepping exactly
// as its events do one by one through StepBinary (the C++ core's BatchStep tests, mirrored).

import (
	"bytes"
	"testing"
)

func oneNode() *Node {
	c := DefaultConfig()
	c.NumPeers = 1
	c.Seed = 5
	return NewNode(c)
}

func jsonEvent(json string) []byte { return append([]byte{eventJSON}, json...) }

// Start, a client's put (binary), a bad event, a commit timer.
func batchEvents() [][]byte {
	line := "put k v"
	put := append([]byte{eventClient, 7, 1, byte(len(line))}, line...)
	return [][]byte{jsonEvent(`{"type":"start"}`), put, jsonEvent(`{"type":"nope"}`), jsonEvent(`{"type":"timer","timer":"commit"}`)}
}

func frames(bodies [][]byte) []byte {
	var b []byte
	for _, body := range bodies {
		b = appendBatchFrame(b, body)
	}
	return b
}

func TestBatchFramingIsWholeFramesOrAnError(t *testing.T) {
	if !validBatchFraming(nil) || !validBatchFraming([]byte{0x00, 0x02, 0x00, '{', 0x01, 0x09}) {
		t.Fatal("whole frames refused")
	}
	for _, bad := range [][]byte{{0x01}, {0x03, 0x01, 0x02}, {0x80}, {0x80, 0x00}, {0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}} {
		if validBatchFraming(bad) {
			t.Errorf("bad framing % x taken", bad)
		}
	}
	in := []byte{0x02, 0x07, 0x08, 0x00, 0x01, 0x09}
	pos := 0
	for _, want := range [][]byte{{0x07, 0x08}, {}, {0x09}} {
		frame, ok := batchFrame(in, &pos)
		if !ok || !bytes.Equal(frame, want) {
			t.Fatalf("frame % x, want % x", frame, want)
		}
	}
	if pos != len(in) {
		t.Fatalf("pos %d, want %d", pos, len(in))
	}
}

func TestBatchStepsAsItsEventsOneByOne(t *testing.T) {
	one := oneNode()
	var effects [][]byte
	for _, e := range batchEvents() {
		effects = append(effects, append([]byte(nil), one.StepBinary(e)...))
	}
	batched := oneNode()
	out, ok := batched.StepBatch(frames(batchEvents()))
	if !ok || !bytes.Equal(out, frames(effects)) {
		t.Fatalf("batch gave % x, want % x", out, frames(effects))
	}
	if !bytes.Equal(batched.Inspect(), one.Inspect()) {
		t.Fatal("inspect differs")
	}
	if out, ok := batched.StepBatch(nil); !ok || len(out) != 0 {
		t.Fatalf("empty batch gave % x", out)
	}
}

func TestBatchWithBadFramingStepsNothing(t *testing.T) {
	n := oneNode()
	before := n.Inspect()
	in := append(frames([][]byte{jsonEvent(`{"type":"start"}`)}), 0x05, 0x00) // a frame promising more bytes than there are
	if _, ok := n.StepBatch(in); ok {
		t.Fatal("bad framing stepped")
	}
	if _, ok := n.StepBatch([]byte{0x80}); ok {
		t.Fatal("bad framing stepped")
	}
	if !bytes.Equal(n.Inspect(), before) {
		t.Fatal("state moved")
	}
}
