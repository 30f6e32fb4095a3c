package server

// The persister: a group commit for the write-ahead log (docs/protocol.md, "Write-ahead log").
// A step's persist effect only queues its frames, under the node's lock; one goroutine per node
// takes every batch queued since its last write, writes them in one write and syncs once (by
// the fsync policy) with the lock released, then tells the core `persisted` for the newest
// batch done. Meanwhile the core keeps stepping (clients, peers, timers), and what it holds for
// a persist (sends and replies) stays held until that event: N requests that arrive during
// one fsync share the next one instead of queueing N fsyncs behind the lock.

import (
	"os"

	"replicant/engines/go-wasm/core"
)

// persistBatch is one persist effect, encoded as frames.
type persistBatch struct {
	id         uint64
	frames     []byte
	checkpoint bool // the batch starts with a checkpoint: it supersedes every record before it
}

// queuePersistLocked queues a persist effect for the persister; s.mu is held.
func (s *Server) queuePersistLocked(id uint64, records []core.Record) {
	s.persistQueue = append(s.persistQueue, persistBatch{id: id, frames: appendFrames(nil, records),
		checkpoint: len(records) > 0 && records[0].Kind == core.RecordCheckpoint})
	s.persistReady.Signal()
}

// takeGroupLocked removes the next group from the queue: every batch queued, or those up to
// and including the first checkpoint (the log is compacted right after a checkpoint is written,
// so a batch after it goes into the emptied log). s.mu is held.
func (s *Server) takeGroupLocked() []persistBatch {
	n := len(s.persistQueue)
	for i, b := range s.persistQueue {
		if b.checkpoint {
			n = i + 1
			break
		}
	}
	group := append([]persistBatch(nil), s.persistQueue[:n]...)
	s.persistQueue = append(s.persistQueue[:0], s.persistQueue[n:]...)
	return group
}

// runPersister is the persister goroutine (started by Start when the node has a WAL).
func (s *Server) runPersister() {
	defer s.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for len(s.persistQueue) == 0 && !s.closed {
			s.persistReady.Wait()
		}
		if s.closed {
			return // queued batches were never reported done, so nothing that needs them has left
		}
		group := s.takeGroupLocked()
		hook := s.beforePersist
		s.mu.Unlock()
		if hook != nil {
			hook(len(group))
		}
		frames := group[0].frames
		if len(group) > 1 {
			size := 0
			for _, b := range group {
				size += len(b.frames)
			}
			frames = make([]byte, 0, size)
			for _, b := range group {
				frames = append(frames, b.frames...)
			}
		}
		last := group[len(group)-1]
		var checkpoint []byte
		if last.checkpoint {
			checkpoint = last.frames
		}
		err := s.wal.AppendGroup(frames, checkpoint)
		s.mu.Lock()
		if err != nil {
			s.logger.Printf("write-ahead log: %v; stopping: a node that cannot persist must not answer", err)
			os.Exit(1)
		}
		// batches first: a reader that sees the group sees its batches (mean never below 1)
		s.counters.walBatches.Add(uint64(len(group)))
		s.counters.walGroups.Add(1)
		s.stepLocked(&core.Event{Type: core.EventPersisted, PersistID: last.id})
	}
}
