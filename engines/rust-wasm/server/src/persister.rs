//! The persister: a group commit for the write-ahead log (docs/protocol.md, "Write-ahead log"),
//! as the Go server's (engines/go-wasm/server/persister.go). A step's persist effect only queues
//! its frames, under the core lock; one thread takes every batch queued since its last write,
//! writes them in one write and syncs once (by the fsync policy) with the core lock released,
//! then steps the core with `persisted` for the newest batch done. Meanwhile the core keeps
//! stepping, and what it holds for a persist (sends and replies) stays held until that event:
//! N requests that arrive during one fsync share the next one instead of queueing N fsyncs
//! behind the lock.

use crate::wal::frames;
use replicant_core::Record;
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

/// One persist effect, encoded as frames.
struct Batch {
    id: u64,
    frames: Vec<u8>,
    /// Starts with a checkpoint: it supersedes every record before it.
    checkpoint: bool,
}

#[derive(Default)]
struct Queue {
    batches: VecDeque<Batch>,
    stopping: bool,
}

/// The queue between the core's steps and the persister's thread.
#[derive(Default)]
pub(crate) struct Persister {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Persister {
    /// Queues one persist effect's records; never waits for a write.
    pub(crate) fn queue(&self, persist_id: u64, records: &[Record]) {
        let batch = Batch {
            id: persist_id,
            frames: frames(records),
            checkpoint: matches!(records.first(), Some(Record::Checkpoint { .. })),
        };
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).batches.push_back(batch);
        self.ready.notify_one();
    }

    /// Ends `run` once a write in progress (and its `done`) is over; what is still queued was
    /// never reported done, so nothing that waits for it has left. (The server never stops it:
    /// a signal ends the process.)
    #[cfg(test)]
    pub(crate) fn stop(&self) {
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).stopping = true;
        self.ready.notify_all();
    }

    /// The persister's loop (on its own thread): `write` gets each group's frames in one piece
    /// and, when the group ends with a checkpoint batch, that batch's frames (to compact the log
    /// to); `done` then hears the group's newest persist id and how many batches it carried
    /// (the status line's WAL counters). A write error ends the loop.
    pub(crate) fn run(
        &self,
        mut write: impl FnMut(&[u8], Option<&[u8]>) -> Result<(), String>,
        mut done: impl FnMut(u64, usize),
    ) -> Result<(), String> {
        let mut buf = Vec::new();
        loop {
            let mut group = Vec::new();
            {
                let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
                while q.batches.is_empty() && !q.stopping {
                    q = self.ready.wait(q).unwrap_or_else(|p| p.into_inner());
                }
                if q.stopping {
                    return Ok(());
                }
                // Every batch queued, or those up to and including the first checkpoint: the
                // log is compacted right after a checkpoint is written, so a batch after it
                // goes into the emptied log.
                while let Some(b) = q.batches.pop_front() {
                    let checkpoint = b.checkpoint;
                    group.push(b);
                    if checkpoint {
                        break;
                    }
                }
            }
            buf.clear();
            for b in &group {
                buf.extend_from_slice(&b.frames);
            }
            let last = group.last().expect("a group holds a batch");
            write(&buf, last.checkpoint.then_some(&last.frames[..]))?;
            done(last.id, group.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{group_mean, read_core_view, status_line, DriverCounters};
    use replicant_core::{codec::decode_config, Effect, Event, Node, TimerName};
    use std::sync::atomic::Ordering;
    use std::sync::Arc;
    use std::time::Duration;

    /// A one-node cluster in durability log driven as the server drives it, with a write that
    /// can be held at a gate.
    #[derive(Default)]
    struct State {
        replies: usize,
        held: usize,
        shut: bool,
        group_records: Vec<usize>,
    }
    struct Gated {
        node: Mutex<Node>,
        persister: Persister,
        counters: DriverCounters,
        state: Mutex<State>,
        changed: Condvar,
    }

    impl Gated {
        fn step(&self, ev: Event) {
            let mut node = self.node.lock().unwrap();
            for e in node.step(ev) {
                match e {
                    Effect::Persist { persist_id, records } => self.persister.queue(*persist_id, records),
                    Effect::Reply { .. } => self.state.lock().unwrap().replies += 1,
                    _ => {}
                }
            }
            self.changed.notify_all();
        }
        fn put(&self, request_id: u64) {
            self.step(Event::Client { client_id: 1, request_id, line: format!("put k{request_id} v").into_bytes() });
        }
        fn wait(&self, what: &str, cond: impl Fn(&State) -> bool) {
            let s = self.state.lock().unwrap();
            let (_state, timeout) = self.changed.wait_timeout_while(s, Duration::from_secs(10), |s| !cond(s)).unwrap();
            assert!(!timeout.timed_out(), "timed out waiting for {what}");
        }
        fn set_shut(&self, shut: bool) {
            self.state.lock().unwrap().shut = shut;
            self.changed.notify_all();
        }
    }

    // While a write is held: the core keeps stepping, no reply leaves, and the persists that
    // queued meanwhile go out in one write afterwards (a group commit).
    #[test]
    fn nothing_leaves_before_its_write_and_waiting_batches_share_one() {
        let cfg = decode_config(br#"{"id":0,"num_peers":1,"seed":1,"durability":"log"}"#).unwrap();
        let g = Arc::new(Gated {
            node: Mutex::new(Node::new(cfg)),
            persister: Persister::default(),
            counters: DriverCounters::default(),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        });
        let runner = {
            let g = Arc::clone(&g);
            std::thread::spawn(move || {
                let g2 = Arc::clone(&g);
                g.persister.run(
                    |frames, _| {
                        let (records, _, _) = crate::wal::read_frames("group", frames).unwrap();
                        let mut s = g.state.lock().unwrap();
                        s.group_records.push(records.len());
                        s.held += 1;
                        g.changed.notify_all();
                        let mut s = g.changed.wait_while(s, |s| s.shut).unwrap();
                        s.held -= 1;
                        Ok(())
                    },
                    |id, batches| {
                        g2.counters.note_wal_group(batches);
                        g2.step(Event::Persisted(id))
                    },
                )
            })
        };
        g.step(Event::Start);
        g.step(Event::Timer(TimerName::Election));
        g.put(1);
        g.wait("the first reply", |s| s.replies == 1);
        g.set_shut(true);
        g.put(2);
        g.wait("a held write", |s| s.held == 1);
        let before = g.state.lock().unwrap().group_records.len();
        for r in 3..=6 {
            g.put(r); // the core takes them while the write is held
        }
        assert_eq!(g.state.lock().unwrap().replies, 1, "a reply left while its write was held");
        g.set_shut(false);
        g.wait("every reply", |s| s.replies == 6);
        g.wait("the next write", |s| s.group_records.len() > before);
        // puts 3..6 queued one persist each behind the held write: they share the next one
        assert!(g.state.lock().unwrap().group_records[before] >= 4, "{:?}", g.state.lock().unwrap().group_records);
        g.persister.stop();
        runner.join().unwrap().unwrap();
        // The status line's WAL counters: one per group written, and the batches they carried,
        // more than the groups (puts 3..6 shared a write).
        let written = g.state.lock().unwrap().group_records.len() as u64;
        let (groups, batches) = (g.counters.wal_groups.load(Ordering::Relaxed), g.counters.wal_batches.load(Ordering::Relaxed));
        assert_eq!(groups, written);
        assert!(batches >= groups + 3, "{batches} batches in {groups} groups");
        let line = status_line(&read_core_view(b"{}"), &g.counters, &group_mean(groups, batches));
        assert!(line.ends_with(&format!("\"wal_groups\":{groups},\"wal_batches\":{batches},\"wal_group_mean\":{}}}", group_mean(groups, batches))), "{line}");
    }
}
