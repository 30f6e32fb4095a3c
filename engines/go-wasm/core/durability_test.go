package core

import (
	"strings"
	"testing"
)

func durableNode(t *testing.T) *Node {
	t.Helper()
	cfg, err := DecodeConfig([]byte(`{"id":0,"num_peers":1,"seed":1,"durability":"log"}`))
	if err != nil {
		t.Fatal(err)
	}
	return NewNode(cfg)
}

func stepJSON(n *Node, ev string) string { return string(n.StepJSON([]byte(ev))) }

func TestDurableReplyWaitsForItsPersist(t *testing.T) {
	n := durableNode(t)
	stepJSON(n, `{"type":"start"}`)
	stepJSON(n, `{"type":"timer","timer":"election"}`)
	out := stepJSON(n, `{"type":"client","client_id":1,"request_id":1,"line":"put k v"}`)
	if strings.Contains(out, `"reply"`) || !strings.Contains(out, `"persist_id":2`) {
		t.Fatalf("the reply left before its persist, or no persist was asked for:\n%s", out)
	}
	if out := stepJSON(n, `{"type":"persisted","persist_id":1}`); out != "" {
		t.Fatalf("persist 1 (the promise) released %q", out)
	}
	if out := stepJSON(n, `{"type":"persisted","persist_id":2}`); !strings.Contains(out, `"reply"`) {
		t.Fatalf("persist 2 did not release the reply: %q", out)
	}
}

func TestDurableRestartKeepsPromiseAndExecutedPrefix(t *testing.T) {
	n := durableNode(t)
	out := stepJSON(n, `{"type":"restart","records":[{"kind":"promise","ballot":512},`+
		`{"kind":"instance","instance":{"ballot":512,"index":1,"client_id":1,"request_id":1,"state":"committed","command":{"type":"put","key":"k","value":"v"}}}]}`)
	if !strings.Contains(out, `"kind":"recovered","ballot":527`) {
		t.Fatalf("a node that led must come back leading nobody at its round:\n%s", out)
	}
	if n.log.LastExecuted() != 1 || n.kv.Size() != 1 {
		t.Fatalf("executed prefix not replayed: last_executed %d, %d keys", n.log.LastExecuted(), n.kv.Size())
	}
	if out := stepJSON(n, `{"type":"restart","records":[]}`); !strings.Contains(out, "bad_event") {
		t.Fatalf("a second restart must be a bad event: %q", out)
	}
}

func TestDurabilityNoneEmitsNoPersist(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NumPeers = 1
	n := NewNode(cfg)
	stepJSON(n, `{"type":"start"}`)
	stepJSON(n, `{"type":"timer","timer":"election"}`)
	out := stepJSON(n, `{"type":"client","client_id":1,"request_id":1,"line":"put k v"}`)
	if strings.Contains(out, "persist") || !strings.Contains(out, `"reply"`) {
		t.Fatalf("durability none changed: %s", out)
	}
	if _, err := DecodeConfig([]byte(`{"id":0,"num_peers":1,"seed":1,"durability":"disk"}`)); err == nil {
		t.Fatal("an unknown durability was accepted")
	}
}
