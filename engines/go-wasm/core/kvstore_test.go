package core

import "testing"

func TestDigestIsOrderIndependentAndTracksDeletes(t *testing.T) {
	a, b := NewKVStore(), NewKVStore()
	a.Apply(Command{Type: CommandPut, Key: "x", Value: "1"})
	a.Apply(Command{Type: CommandPut, Key: "y", Value: "2"})
	b.Apply(Command{Type: CommandPut, Key: "y", Value: "old"})
	b.Apply(Command{Type: CommandPut, Key: "x", Value: "1"})
	b.Apply(Command{Type: CommandPut, Key: "y", Value: "2"})
	if a.Digest() != b.Digest() || a.Size() != 2 {
		t.Fatal("same contents must give the same digest")
	}
	a.Apply(Command{Type: CommandDel, Key: "x"})
	a.Apply(Command{Type: CommandDel, Key: "y"})
	if a.Digest() != 0 || a.Size() != 0 {
		t.Fatalf("an empty store has digest 0, got %x", a.Digest())
	}
}

func TestEntryHashSeparatesKeyAndValue(t *testing.T) {
	if entryHash("ab", "c") == entryHash("a", "bc") {
		t.Fatal("the separator must distinguish key from value")
	}
	if entryHash("", "") != 0xaf63bd4c8601b7df { // FNV-1a-64 of the single byte 0x00
		t.Fatalf("got %x", entryHash("", ""))
	}
}

func TestApplyResults(t *testing.T) {
	kv := NewKVStore()
	if r := kv.Apply(Command{Type: CommandGet, Key: "k"}); r.Type != ResultNotFound {
		t.Fatal(r)
	}
	kv.Apply(Command{Type: CommandPut, Key: "k", Value: "v"})
	if r := kv.Apply(Command{Type: CommandGet, Key: "k"}); r.Type != ResultOk || r.Value != "v" {
		t.Fatal(r)
	}
	if r := kv.Apply(Command{Type: CommandDel, Key: "k"}); r.Type != ResultOk {
		t.Fatal(r)
	}
	if r := kv.Apply(Command{Type: CommandDel, Key: "k"}); r.Type != ResultNotFound {
		t.Fatal(r)
	}
}
