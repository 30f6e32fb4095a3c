package core

import (
	"runtime"
	"strings"
	"testing"
)

func heapAllocBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A log that once held a long backlog gives its memory back once that backlog is trimmed: Go's
// maps keep their storage after deletes, which left a Go node's resident memory a step higher for
// good after a burst (issue 20, row 12: +2 MiB at 9,060 held entries, kept to the end of the run).
func TestTrimmedBacklogGivesItsMemoryBack(t *testing.T) {
	const slots = 50_000
	l := NewLog()
	before := heapAllocBytes()
	var ch []LogChange
	value := strings.Repeat("v", 16)
	for i := uint64(1); i <= slots; i++ {
		l.Append(put(257, i, value, InProgress), &ch)
		ch = ch[:0]
	}
	l.CommitUntil(slots, 257, &ch)
	ch = nil
	for i := 0; i < slots; i++ {
		l.MarkExecuted()
	}
	held := heapAllocBytes() - before
	if !l.TrimUntil(slots) || l.Len() != 0 {
		t.Fatalf("trim: len %d", l.Len())
	}
	kept := int64(heapAllocBytes()) - int64(before)
	t.Logf("held %d KiB with %d slots, %d KiB after trimming them", held>>10, slots, kept>>10)
	if kept > 512<<10 {
		t.Fatalf("the trimmed log still holds %d KiB (it held %d KiB with %d slots)", kept>>10, held>>10, slots)
	}
	// the log still works after giving its storage back
	l.Append(put(257, slots+1, "after", InProgress), &ch)
	if inst, ok := l.Get(slots + 1); !ok || inst.Command.Value != "after" {
		t.Fatalf("append after the trim: %+v %v", inst, ok)
	}
}
