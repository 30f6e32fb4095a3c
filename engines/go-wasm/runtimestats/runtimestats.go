// Package runtimestats reports the Go runtime's own allocation and GC figures, so the
// simulator can read real allocation per step. Not part of the byte-identical contract.
package runtimestats

import (
	"runtime"
	"strconv"
)

// JSON returns the figures as one JSON object.
func JSON() []byte {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b := []byte(`{"runtime":"go","version":"` + runtime.Version() + `"`)
	field := func(name string, v uint64) {
		b = append(b, ",\""+name+"\":"...)
		b = strconv.AppendUint(b, v, 10)
	}
	field("alloc_bytes_total", m.TotalAlloc)
	field("allocs_total", m.Mallocs)
	field("frees_total", m.Frees)
	field("heap_alloc_bytes", m.HeapAlloc)
	field("heap_sys_bytes", m.HeapSys)
	field("gc_count", uint64(m.NumGC))
	field("gc_pause_total_ns", m.PauseTotalNs)
	return append(b, '}')
}
