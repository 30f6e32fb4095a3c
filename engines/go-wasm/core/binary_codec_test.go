package core

import (
	"bytes"
	"reflect"
	"testing"
)

func TestBinaryAcceptReadsAsItsJSON(t *testing.T) {
	want, err := DecodeEvent([]byte(`{"type":"message","msg":{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":300,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"v\"\\"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	bin := appendBinaryMessage([]byte{eventMessage}, messageAcceptRequest, &want.Message)
	got, err := DecodeBinaryEvent(bin)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

func TestBinaryBadBytesAreErrors(t *testing.T) {
	for _, bad := range [][]byte{
		{},
		{9},
		{eventClient, 1},
		{eventClient, 0x80, 0, 1, 0}, // not shortest form
		{eventClient, 1, 1, 5, 'g'},  // truncated string
		{eventClient, 1, 1, 0, 0},    // a byte left over
		{eventClient, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0}, // ≥ 2^53
		{eventMessage, 9, 1, 0, 1},                           // unknown message type
		{eventMessage, messageAcceptResponse, 1, 0, 1, 2, 1}, // boolean 2
		{eventJSON, '{'},
	} {
		if _, err := DecodeBinaryEvent(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestBinaryEffectsKeepOrderAndLengths(t *testing.T) {
	ev, _ := DecodeEvent([]byte(`{"type":"message","msg":{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":300,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"` + string(bytes.Repeat([]byte{'x'}, 200)) + `"}}}}`))
	effects := []Effect{
		{Type: EffectSend, Message: ev.Message},
		{Type: EffectReply, ClientID: 7, RequestID: 1, Result: Result{Type: ResultRetry}},
		{Type: EffectError},
	}
	bin := EncodeBinaryEffects(effects)
	r := binaryReader{in: bin, pos: 1, ok: true}
	if bin[0] != effectSend || r.bytes()[0] != messageAcceptRequest {
		t.Fatalf("send record: %v", bin[:4])
	}
	if !bytes.Equal(bin[r.pos:r.pos+5], []byte{effectReply, 7, 1, 2, effectJSON}) {
		t.Fatalf("reply record: %v", bin[r.pos:r.pos+5])
	}
	r.pos += 5
	json := EncodeEffects(effects[2:])
	if got := r.bytes(); !bytes.Equal(got, json[:len(json)-1]) {
		t.Fatalf("json record %q, want %q", got, json)
	}
}
