package server

// GC mitigation hooks (docs/protocol.md, "GC mitigation"; docs/mitigation.md). With a
// mitigation on, the Go collector is held off (GOGC off) and a watcher reading runtime/metrics
// tells the core a collection is coming when the heap reaches its goal (the goal GOGC=100 would
// set: twice the heap live after the last collection). The core answers with collect — at once
// (MITMEM), after the leader handed off, or after the leader's grant (BLADE) — and the server
// then runs runtime.GC() outside the core's lock and reports gc_done. The predicted pause is the
// longest of the last few stop-the-world pauses (debug.ReadGCStats). A heap that reaches twice
// the goal while the core still waits is collected at once (forced): memory wins over the
// mitigation.

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"replicant/engines/go-wasm/core"
)

const (
	gcWatchInterval   = 5 * time.Millisecond
	gcMinGoalBytes    = 16 << 20 // a small heap is not worth a handoff
	gcPauseHistoryLen = 8
	gcForcedFactor    = 2 // heap at this multiple of the goal: collect without waiting
)

var gcHeapMetrics = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}

type gcWatcher struct {
	s        *Server
	goal     atomic.Uint64 // heap bytes at which a collection is announced
	pending  atomic.Bool   // announced, not yet collected
	announce time.Time

	// counters, logged at each collection
	announced, collected, forced atomic.Uint64
	byCore                       atomic.Uint64 // collections the core asked for (collect effects)
}

// EnableGCMitigation sets the core's mitigation mode and, for any mode but none, holds the Go
// collector off under the watcher; call it before Start.
func (s *Server) EnableGCMitigation(mode core.Mitigation) error {
	cfg := s.node.Config()
	cfg.Mitigation = mode
	if err := cfg.Validate(); err != nil {
		return err
	}
	s.node = core.NewNode(cfg)
	if mode != core.MitigationNone {
		s.gc = &gcWatcher{s: s}
	}
	return nil
}

func (w *gcWatcher) start() {
	debug.SetGCPercent(-1)
	runtime.GC()
	w.setGoal()
	w.s.wg.Add(1)
	go w.run()
}

func (w *gcWatcher) setGoal() {
	samples := append([]metrics.Sample(nil), gcHeapMetrics...)
	metrics.Read(samples)
	live := samples[1].Value.Uint64()
	w.goal.Store(max(2*live, gcMinGoalBytes))
}

func (w *gcWatcher) run() {
	defer w.s.wg.Done()
	samples := append([]metrics.Sample(nil), gcHeapMetrics...)
	t := time.NewTicker(gcWatchInterval)
	defer t.Stop()
	for {
		select {
		case <-w.s.stopStatus:
			return
		case <-t.C:
		}
		metrics.Read(samples)
		heap := samples[0].Value.Uint64()
		goal := w.goal.Load()
		switch {
		case !w.pending.Load() && heap >= goal:
			w.pending.Store(true)
			w.announced.Add(1)
			w.announce = time.Now()
			w.s.step(&core.Event{Type: core.EventGcPending, PauseUs: predictedPauseUs()})
		case w.pending.Load() && heap >= gcForcedFactor*goal:
			w.forced.Add(1)
			w.s.logger.Printf("gc: heap %d MiB at %dx the goal before the core let it collect: collecting now (forced)", heap>>20, gcForcedFactor)
			w.collect(false)
		}
	}
}

// predictedPauseUs is the longest of the recent stop-the-world pauses, at least 1 µs.
func predictedPauseUs() uint64 {
	var st debug.GCStats
	debug.ReadGCStats(&st)
	var longest time.Duration
	for i, p := range st.Pause {
		if i == gcPauseHistoryLen {
			break
		}
		longest = max(longest, p)
	}
	return max(uint64(longest.Microseconds()), 1)
}

// onCollect runs when the core says collect; the collection runs outside the core's lock.
func (w *gcWatcher) onCollect() {
	go w.collect(true)
}

func (w *gcWatcher) collect(tellCore bool) {
	waited := time.Since(w.announce)
	start := time.Now()
	runtime.GC()
	took := time.Since(start)
	w.collected.Add(1)
	w.setGoal()
	w.pending.Store(false)
	w.s.logger.Printf("gc: collected %.1f ms after the announcement, cycle %.1f ms, next goal %d MiB (announced %d, collected %d, forced %d)",
		float64(waited.Microseconds())/1000, float64(took.Microseconds())/1000, w.goal.Load()>>20,
		w.announced.Load(), w.collected.Load(), w.forced.Load())
	if tellCore {
		w.byCore.Add(1)
		w.s.step(&core.Event{Type: core.EventGcDone})
	}
}
