//! The core driver: the node behind one mutex, its two timers, and each step's effects
//! dispatched in order under that lock (to the persister's queue, the peer queues, the clients).

use crate::outbound::{ClientOut, PeerLink};
use crate::status::DriverCounters;
use crate::persister::Persister;
use replicant_core::{append_effect, append_message, reply_line, Effect, Event, Node, TimerName};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The node and what its effects are routed to; always behind `Shared::core`.
pub(crate) struct Core {
    pub(crate) node: Node,
    /// Per timer: bumped by every set and cancel, so a sleeping timer task knows it is stale.
    pub(crate) timer_generation: [u64; 2],
    pub(crate) timer_deadline: [Instant; 2],
    pub(crate) clients: HashMap<u64, ClientOut>,
    /// client requests in the core, over all connections
    pub(crate) in_flight: u64,
}

pub(crate) struct Shared {
    pub(crate) id: u64,
    pub(crate) num_peers: u64,
    pub(crate) core: Mutex<Core>,
    pub(crate) peers: Vec<Option<PeerLink>>,
    pub(crate) verbose: bool,
    /// --test-peer-reset: the reset-peer command on the client port is on (peer_reset.rs)
    pub(crate) test_peer_reset: bool,
    pub(crate) commit_interval_ms: u64,
    pub(crate) counters: DriverCounters,
    /// durability log: every persist effect goes to its queue first (persister.rs)
    pub(crate) persister: Option<Persister>,
}

pub(crate) fn timer_slot(t: TimerName) -> usize {
    match t {
        TimerName::Election => 0,
        TimerName::Commit => 1,
    }
}

impl Shared {
    pub(crate) fn log(&self, msg: &str) {
        crate::log_line::log(self.id, msg);
    }

    /// Steps the core with one event and dispatches its effects, all under the lock.
    pub(crate) fn step(self: &Arc<Self>, ev: Event) {
        let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
        self.step_locked(&mut core, ev);
    }

    pub(crate) fn step_locked(self: &Arc<Self>, core: &mut Core, ev: Event) {
        let Core { node, timer_generation, timer_deadline, clients, in_flight } = core;
        for e in node.step(ev) {
            match e {
                Effect::Persist { persist_id, records } => {
                    // The persister writes (and syncs, by policy) it before the core hears it
                    // is done, so nothing the core holds for it leaves first.
                    let Some(p) = self.persister.as_ref() else {
                        self.log("a persist effect without a write-ahead log; stopping: a node that cannot persist must not answer");
                        std::process::exit(1);
                    };
                    p.queue(*persist_id, records);
                }
                Effect::Send(m) => {
                    let Some(Some(link)) = self.peers.get(m.to as usize) else { continue };
                    let mut line = Vec::with_capacity(128);
                    append_message(&mut line, m);
                    line.push(b'\n');
                    link.enqueue(line, &self.counters);
                }
                Effect::Reply { client_id, result, .. } => {
                    // A client that has gone took its requests off the count.
                    if let Some(c) = clients.get_mut(client_id) {
                        if c.in_flight > 0 {
                            c.in_flight -= 1;
                            *in_flight -= 1;
                            self.counters.in_flight.store(*in_flight, Ordering::Relaxed);
                        }
                        let mut line = reply_line(result).into_bytes();
                        line.push(b'\n');
                        c.backlog.fetch_add(line.len(), Ordering::Relaxed);
                        let _ = c.tx.send(line);
                    }
                }
                // Rust has no collector to announce: the server never sends gc_pending, so
                // the core never asks it to collect.
                Effect::Collect { .. } => {}
                Effect::SetTimer { timer, delay_us } => {
                    let slot = timer_slot(*timer);
                    timer_generation[slot] += 1;
                    let generation = timer_generation[slot];
                    let (me, timer, delay) = (Arc::clone(self), *timer, Duration::from_micros(*delay_us));
                    timer_deadline[slot] = Instant::now() + delay;
                    tokio::spawn(async move {
                        tokio::time::sleep(delay).await;
                        me.fire(timer, generation);
                    });
                }
                Effect::CancelTimer(timer) => timer_generation[timer_slot(*timer)] += 1,
                Effect::Trace(_) | Effect::Error => {
                    if self.verbose || matches!(e, Effect::Error) {
                        let mut line = Vec::new();
                        append_effect(&mut line, e);
                        self.log(&String::from_utf8_lossy(&line));
                    }
                }
            }
        }
    }

    /// A timer's sleep ended: feed the core a timer event unless it was re-armed or cancelled.
    pub(crate) fn fire(self: &Arc<Self>, timer: TimerName, generation: u64) {
        let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
        let slot = timer_slot(timer);
        if core.timer_generation[slot] != generation {
            return;
        }
        core.timer_generation[slot] += 1; // one timer per name: this one is used up
        self.counters.note_timer_lateness(core.timer_deadline[slot]);
        self.step_locked(&mut core, Event::Timer(timer));
    }
}
