package core

import (
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"testing"
)

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

func TestFirstEntriesIsTheSortedPrefixOfTheKeys(t *testing.T) {
	kv := NewKVStore()
	var keys []string
	for i := 0; i < 2000; i++ {
		k := fmt.Sprintf("user%d", (i*7919)%2003) // distinct keys in no sorted order
		keys = append(keys, k)
		kv.Apply(Command{Type: CommandPut, Key: k, Value: "v" + k})
	}
	sort.Strings(keys)
	for _, limit := range []int{0, 1, 2, 63, 64, 65, 1999, 2000, 5000} {
		got := kv.FirstEntries(limit)
		want := keys[:min(limit, len(keys))]
		if len(got) != len(want) {
			t.Fatalf("limit %d: %d entries, want %d", limit, len(got), len(want))
		}
		for i, e := range got {
			if e[0] != want[i] || e[1] != "v"+want[i] {
				t.Fatalf("limit %d: entry %d is %q, want key %q", limit, i, e, want[i])
			}
		}
	}
}

// Every status line of the native servers inspects the node, under the lock every request
// needs. A FirstEntries that sorted every key took ~0.1 s per call at 100,000 records
// (1.6 MB of key slice allocated each time) and stalled the node once a second (issue 16:
// Go missed a 50 ms p99 at 100 ops/s). What it allocates shows whether its work grows with
// the store instead of with the limit; bytes allocated are deterministic, a time is not.
func TestFirstEntriesWithASmallLimitDoesNotCopyTheStore(t *testing.T) {
	kv := NewKVStore()
	for i := 0; i < 100_000; i++ {
		kv.Apply(Command{Type: CommandPut, Key: "user" + strconv.Itoa(i*7919%100_003), Value: "v"})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := kv.FirstEntries(InspectKVEntries)
	runtime.ReadMemStats(&after)
	if len(got) != InspectKVEntries {
		t.Fatalf("%d entries", len(got))
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 64<<10 {
		t.Fatalf("FirstEntries(%d) of 100,000 keys allocated %d bytes: it copies (and sorts) every key", InspectKVEntries, allocated)
	}
}

// go test -run X -bench FirstEntries ./core: what one Inspect spends finding the first 64 keys
// of a YCSB-sized store (100,000 records).
func BenchmarkFirstEntries100k(b *testing.B) {
	kv := NewKVStore()
	for i := 0; i < 100_000; i++ {
		kv.Apply(Command{Type: CommandPut, Key: "user" + strconv.Itoa(i*7919%100_003), Value: "v"})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		kv.FirstEntries(InspectKVEntries)
	}
}
