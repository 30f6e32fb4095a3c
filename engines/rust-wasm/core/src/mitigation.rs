//! GC mitigation (docs/protocol.md, "GC mitigation"): what a node does when its runtime says a
//! collection is coming. BLADE asks before collecting (at most f nodes at once) and moves the
//! leadership away first; MITMEM answers busy to requests it would hold past their deadline.
//! The core never collects: it tells the driver when (a collect effect), and hears gc_done.
//! Mirrors engines/go-wasm/core/mitigation.go.

use crate::ballot::{leader_of, NO_LEADER};
use crate::command::{Result, ResultType};
use crate::messages::{Effect, Message, MessageType, TimerName, Trace, TraceKind};
use crate::node::{ClientRequest, Node};
use crate::types::{GcAsk, GcGrant, GcPhase};

/// Heartbeats a handing-off leader waits for its successor before it collects as leader.
const HANDOFF_TIMEOUT_TICKS: u64 = 2;

/// Heartbeats a grant may outlive its predicted pause before it expires.
const GC_GRANT_SLACK_TICKS: u64 = 2;

impl Node {
    /// f: with at most this many nodes collecting, a majority still answers.
    fn max_collecting(&self) -> u64 {
        (self.cfg.num_peers - 1) / 2
    }

    pub(crate) fn on_gc_pending(&mut self, pause_us: u64) {
        if self.gc.phase != GcPhase::Idle {
            return;
        }
        self.gc.pause_us = pause_us;
        if !self.cfg.mitigation.blade() || self.cfg.num_peers == 1 {
            self.collect();
            return;
        }
        if self.is_leader() {
            self.hand_off();
            return;
        }
        self.gc.phase = GcPhase::Waiting;
        self.gc.channel_id = 0;
        if leader_of(self.ballot) != NO_LEADER {
            self.ask_to_collect();
        }
    }

    fn collect(&mut self) {
        self.gc.phase = GcPhase::Collecting;
        self.effects.push(Effect::Collect { pause_us: self.gc.pause_us });
    }

    fn ask_to_collect(&mut self) {
        self.next_channel_id += 1;
        self.gc.channel_id = self.next_channel_id;
        self.trace(Trace { kind: TraceKind::GcAsk, leader: leader_of(self.ballot), ..Trace::default() });
        self.send_ask();
    }

    fn send_ask(&mut self) {
        let m = Message {
            typ: MessageType::GcRequest,
            from: self.cfg.id,
            to: leader_of(self.ballot),
            channel_id: self.gc.channel_id,
            ballot: self.ballot,
            pause_us: self.gc.pause_us,
            ..Message::default()
        };
        self.send(m);
    }

    /// Asks the most up-to-date peer without a grant (then the one that collected most
    /// recently, then the lowest id) to take over; with none, the leader collects where it is.
    fn hand_off(&mut self) {
        let mut target: Option<u64> = None;
        for p in 0..self.cfg.num_peers {
            if p == self.cfg.id || self.grant_index(p).is_some() || self.queued_index(p).is_some() {
                continue;
            }
            let better = match target {
                None => true,
                Some(t) => {
                    let (g, pu, tu) = (&self.gc, p as usize, t as usize);
                    g.peer_executed[pu] > g.peer_executed[tu]
                        || (g.peer_executed[pu] == g.peer_executed[tu] && g.collected_seq[pu] > g.collected_seq[tu])
                }
            };
            if better {
                target = Some(p);
            }
        }
        let Some(target) = target else {
            self.collect();
            return;
        };
        self.gc.phase = GcPhase::HandingOff;
        self.gc.handoff_ticks = 0;
        self.gc.handoff_ballot = self.ballot;
        self.gc.handoff_target = target;
        let (mut collecting, mut collecting_ticks) = (0u64, 0u64);
        for gr in &self.gc.grants {
            collecting |= 1 << gr.peer;
            collecting_ticks = collecting_ticks.max(gr.allowed_ticks - gr.ticks);
        }
        self.trace(Trace { kind: TraceKind::Handoff, leader: target, ..Trace::default() });
        let last_executed = self.log.last_executed();
        self.broadcast(Message {
            typ: MessageType::Handoff,
            ballot: self.ballot,
            target,
            collecting,
            collecting_ticks,
            last_executed,
            ..Message::default()
        });
    }

    pub(crate) fn on_handoff(&mut self, m: &Message) {
        if m.ballot != self.ballot {
            self.counters.stale_responses += 1;
            return;
        }
        self.gc.handoff_ballot = m.ballot;
        self.gc.handoff_target = m.target;
        self.gc.inherited_collecting = m.collecting;
        self.gc.inherited_ticks = m.collecting_ticks;
        // the old leader's commit point, committed as its heartbeat would: only entries stored
        // at its ballot (each holds the value chosen there), so the target asks from above it
        self.log.commit_until(m.last_executed, m.ballot, &mut self.changes);
        self.apply_changes();
        self.execute();
        if m.target == self.cfg.id {
            self.start_election();
        }
    }

    /// A prepare from the successor a leader named, at a node still under that leader's
    /// ballot, is not refused by the lease (the leader asked for this election).
    pub(crate) fn handoff_prepare(&self, m: &Message) -> bool {
        self.gc.handoff_ballot != 0 && self.ballot == self.gc.handoff_ballot && m.from == self.gc.handoff_target
    }

    /// Drops the leader's grants and queue; a leader that was handing off now waits for its
    /// successor's first heartbeat to ask for permission.
    pub(crate) fn gc_leave_leadership(&mut self) {
        self.gc.grants.clear();
        self.gc.queue.clear();
        if self.gc.phase == GcPhase::HandingOff {
            self.gc.phase = GcPhase::Waiting;
            self.gc.channel_id = 0;
        }
    }

    /// This node is winning the election a handoff asked it to start.
    pub(crate) fn takes_over_from_handoff(&self) -> bool {
        self.gc.handoff_ballot != 0 && self.gc.handoff_target == self.cfg.id && self.ballot > self.gc.handoff_ballot
    }

    /// Starts the leader state afresh, except that a handoff's target keeps the grants its
    /// predecessor passed on (their holders may still be collecting: granting others at once
    /// would let more than f collect together right after the handoff).
    pub(crate) fn gc_become_leader(&mut self) {
        self.gc.peer_executed.fill(0);
        self.gc.collected_seq.fill(0);
        self.gc.grants.clear();
        self.gc.queue.clear();
        if self.takes_over_from_handoff() {
            for p in 0..self.cfg.num_peers {
                if self.gc.inherited_collecting & (1 << p) != 0 && p != self.cfg.id && (self.gc.grants.len() as u64) < self.max_collecting() {
                    let allowed_ticks = self.gc.inherited_ticks;
                    self.gc.grants.push(GcGrant { peer: p, channel_id: 0, ticks: 0, allowed_ticks });
                }
            }
        }
        self.gc.inherited_collecting = 0;
        self.gc.inherited_ticks = 0;
    }

    /// A waiting node that had no leader to ask asks the one it now hears.
    pub(crate) fn gc_after_commit_request(&mut self) {
        if self.gc.phase == GcPhase::Waiting
            && self.gc.channel_id == 0
            && leader_of(self.ballot) != NO_LEADER
            && !self.is_leader()
        {
            self.ask_to_collect();
        }
    }

    /// Runs at a follower's election timer; true means the step is done.
    pub(crate) fn gc_on_election_timer(&mut self) -> bool {
        if self.gc.phase != GcPhase::Waiting {
            return false;
        }
        if self.commit_received && leader_of(self.ballot) != NO_LEADER {
            if self.gc.channel_id == 0 {
                self.ask_to_collect();
            } else {
                self.send_ask();
            }
            return false;
        }
        // a whole election delay without a heartbeat: nobody will answer the ask
        self.trace(Trace { kind: TraceKind::GcTimeout, ..Trace::default() });
        self.collect();
        let delay = self.election_delay_us();
        self.set_timer(TimerName::Election, delay);
        true
    }

    /// Runs at a leader's heartbeat, after check-quorum. A node that won while it waited to
    /// collect (a handoff's target) hands off here, not as it wins: by now the asks of peers
    /// about to collect hold grants or queue places, so it does not hand the leadership straight
    /// back to one of them (two nodes would pass it to and fro and serve nothing).
    pub(crate) fn gc_handoff_tick(&mut self) {
        if self.gc.phase == GcPhase::Waiting {
            self.gc.phase = GcPhase::Idle;
            self.hand_off();
            return;
        }
        if self.gc.phase != GcPhase::HandingOff {
            return;
        }
        self.gc.handoff_ticks += 1;
        if self.gc.handoff_ticks >= HANDOFF_TIMEOUT_TICKS {
            self.trace(Trace { kind: TraceKind::GcTimeout, ..Trace::default() });
            self.collect();
        }
    }

    pub(crate) fn gc_grant_ticks(&mut self) {
        let grants = std::mem::take(&mut self.gc.grants);
        for mut gr in grants {
            gr.ticks += 1;
            if gr.ticks >= gr.allowed_ticks {
                self.trace(Trace { kind: TraceKind::GcGrantExpired, leader: gr.peer, ..Trace::default() });
                continue;
            }
            self.gc.grants.push(gr);
        }
        self.grant_from_queue();
    }

    fn grant_index(&self, peer: u64) -> Option<usize> {
        self.gc.grants.iter().position(|g| g.peer == peer)
    }

    fn queued_index(&self, peer: u64) -> Option<usize> {
        self.gc.queue.iter().position(|a| a.peer == peer)
    }

    pub(crate) fn on_gc_request(&mut self, m: &Message) {
        if !self.is_leader() || m.ballot != self.ballot {
            self.counters.stale_responses += 1;
            return;
        }
        if let Some(i) = self.grant_index(m.from) {
            self.gc.grants[i].channel_id = m.channel_id;
            let grant = Message { typ: MessageType::GcGrant, ballot: self.ballot, ..Message::default() };
            self.respond(m.from, m.channel_id, grant);
            return;
        }
        if self.queued_index(m.from).is_some() {
            return;
        }
        let ask = GcAsk { peer: m.from, channel_id: m.channel_id, pause_us: m.pause_us };
        if (self.gc.grants.len() as u64) < self.max_collecting() {
            self.grant(ask);
            return;
        }
        self.gc.queue.push(ask);
        let waiting = self.gc.queue.len() as u64;
        self.trace(Trace { kind: TraceKind::GcQueued, leader: m.from, count: waiting, ..Trace::default() });
    }

    fn grant(&mut self, a: GcAsk) {
        self.gc.next_collected += 1;
        self.gc.collected_seq[a.peer as usize] = self.gc.next_collected;
        let ci = self.cfg.commit_interval_us;
        self.gc.grants.push(GcGrant {
            peer: a.peer,
            channel_id: a.channel_id,
            ticks: 0,
            allowed_ticks: a.pause_us.div_ceil(ci) + GC_GRANT_SLACK_TICKS,
        });
        self.trace(Trace { kind: TraceKind::GcGrant, leader: a.peer, ..Trace::default() });
        let m = Message {
            typ: MessageType::GcGrant,
            from: self.cfg.id,
            to: a.peer,
            channel_id: a.channel_id,
            ballot: self.ballot,
            ..Message::default()
        };
        self.send(m);
    }

    fn grant_from_queue(&mut self) {
        while (self.gc.grants.len() as u64) < self.max_collecting() && !self.gc.queue.is_empty() {
            let a = self.gc.queue.remove(0);
            self.grant(a);
        }
    }

    pub(crate) fn on_gc_grant(&mut self, m: &Message) {
        if m.ballot != self.ballot {
            self.counters.stale_responses += 1;
            return;
        }
        if self.gc.phase != GcPhase::Waiting || m.channel_id != self.gc.channel_id {
            // not needed any more (it timed out and collected, or finished): free the slot
            self.counters.stale_responses += 1;
            let release = Message { typ: MessageType::GcRelease, ballot: m.ballot, ..Message::default() };
            self.respond(m.from, m.channel_id, release);
            return;
        }
        self.gc.granted = true;
        self.gc.grant_leader = m.from;
        self.gc.grant_ballot = m.ballot;
        self.gc.grant_channel = m.channel_id;
        self.collect();
    }

    pub(crate) fn on_gc_done(&mut self) {
        if self.gc.phase != GcPhase::Collecting {
            return;
        }
        self.gc.phase = GcPhase::Idle;
        self.trace(Trace { kind: TraceKind::GcDone, ..Trace::default() });
        if self.gc.granted {
            self.gc.granted = false;
            // after a leadership change the grant lives on at the new leader (a handoff passes
            // it on): release it there, or it would hold a slot until it expires
            let (mut to, mut ballot) = (self.gc.grant_leader, self.gc.grant_ballot);
            let l = leader_of(self.ballot);
            if self.ballot != self.gc.grant_ballot && l != NO_LEADER && l != self.cfg.id {
                (to, ballot) = (l, self.ballot);
            }
            let m = Message {
                typ: MessageType::GcRelease,
                from: self.cfg.id,
                to,
                channel_id: self.gc.grant_channel,
                ballot,
                ..Message::default()
            };
            self.send(m);
        }
    }

    pub(crate) fn on_gc_release(&mut self, m: &Message) {
        let i = if self.is_leader() && m.ballot == self.ballot { self.grant_index(m.from) } else { None };
        let Some(i) = i else {
            self.counters.stale_responses += 1;
            return;
        };
        self.gc.grants.remove(i);
        self.trace(Trace { kind: TraceKind::GcRelease, leader: m.from, ..Trace::default() });
        self.grant_from_queue();
    }

    /// Answers `c` if the mitigation decides its reply: MITMEM's busy when the request would
    /// wait out a pause longer than its deadline; retry at a handing-off leader (its successor
    /// is taking over).
    pub(crate) fn gc_client_reply(&mut self, c: ClientRequest) -> bool {
        let g = &self.gc;
        let r = if self.cfg.mitigation.mitmem() && g.phase == GcPhase::Collecting && g.pause_us > self.cfg.mitmem_deadline_us {
            Result { typ: ResultType::Busy, value: String::new(), leader: 0, pause_us: g.pause_us }
        } else if g.phase == GcPhase::HandingOff && self.is_leader() {
            Result::of(ResultType::Retry)
        } else {
            return false;
        };
        self.reply(c, r);
        true
    }

    pub(crate) fn check_gc_invariants(&self) {
        if self.gc.grants.len() as u64 > self.max_collecting() {
            panic!("invariant: node {}: {} grants held, more than f", self.cfg.id, self.gc.grants.len());
        }
        if !self.is_leader() && (!self.gc.grants.is_empty() || !self.gc.queue.is_empty() || self.gc.phase == GcPhase::HandingOff) {
            panic!("invariant: node {}: a follower holds GC leader state", self.cfg.id);
        }
    }
}
