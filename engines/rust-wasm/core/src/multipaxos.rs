//! The protocol handlers, in the order of docs/protocol.md ("The protocol"). Every effect is
//! emitted in the order that document gives, exactly as the Go reference's multipaxos.go does.

use crate::ballot::{leader_of, next_ballot, MAX_NUM_PEERS, NO_LEADER};
use crate::command::{parse_command, Command, CommandType, Result, ResultType};
use crate::instance::{Instance, InstanceState};
use crate::log::{insert_into, InsertOutcome, LogChange, LogChangeKind, Slots, REASON_COMMAND_MISMATCH};
use crate::config::QUORUM_WINDOW_TICKS;
use crate::messages::{Message, MessageType, TimerName, Trace, TraceKind};
use crate::node::{AcceptPhase, ClientRequest, CommitRound, Node, PreparePhase, RepairStream};

fn peer_bit(id: u64) -> u32 {
    1 << id
}

fn trace_ballot(kind: TraceKind, ballot: u64) -> Trace {
    Trace { kind, ballot, ..Trace::default() }
}

impl Node {
    /// Adopts a higher ballot seen from a peer.
    pub(crate) fn become_follower(&mut self, b: u64) {
        if b <= self.ballot || leader_of(b) == self.cfg.id {
            return;
        }
        let was_leader = self.is_leader();
        let had_leader = leader_of(self.ballot) != NO_LEADER;
        self.ballot = b;
        self.trace(Trace { kind: TraceKind::Follower, ballot: b, leader: leader_of(b), ..Trace::default() });
        self.abandon_election();
        if was_leader {
            self.cancel_timer(TimerName::Commit);
            let accepts = std::mem::take(&mut self.accepts);
            for ph in accepts.values() {
                if let Some(c) = ph.client {
                    self.reply(c, Result { typ: ResultType::LeaderIs, value: String::new(), leader: leader_of(b), pause_us: 0 });
                }
            }
            self.replay_queue.clear();
            self.commit_round = None;
            self.gc_leave_leadership();
        }
        if was_leader || !had_leader {
            let delay = self.election_delay_us();
            self.set_timer(TimerName::Election, delay);
        }
    }

    fn become_leader(&mut self, b: u64, max_last_index: u64, merged: Slots, backoff: u64) {
        self.log.set_last_index_at_least(max_last_index);
        self.ballot = b;
        // the election's own wait bounds the round trip; the leader waits as long for answers
        self.leader_backoff = backoff;
        self.quorum_backoff = backoff;
        self.election_backoff = 0;
        self.quorum_tick = 0;
        self.heard_tick.fill(0);
        let skip_executed = self.skips_executed_replay();
        self.gc_become_leader();
        self.commit_gle = self.log.global_last_executed();
        self.repairs = [RepairStream::default(); MAX_NUM_PEERS as usize];
        self.trace(Trace { kind: TraceKind::Leader, ballot: b, last_index: self.log.last_index(), ..Trace::default() });
        self.cancel_timer(TimerName::Election);
        self.trim_and_open_commit_round();
        self.set_timer(TimerName::Commit, self.cfg.commit_interval_us);
        self.start_replay(merged, skip_executed);
    }

    // --- election ---

    pub(crate) fn on_election_timer(&mut self) {
        if self.is_leader() {
            return;
        }
        self.lease_held = self.commit_received;
        if self.gc_on_election_timer() {
            return;
        }
        if self.commit_received {
            self.commit_received = false;
            let delay = self.election_delay_us();
            self.set_timer(TimerName::Election, delay);
            return;
        }
        if let Some(p) = self.prepare.as_mut().filter(|p| p.progressed) {
            // bounded elections: a phase still hearing answers is slow, not failed
            p.progressed = false;
            let delay = self.election_delay_us();
            self.set_timer(TimerName::Election, delay);
            return;
        }
        self.start_election();
    }

    /// Steps 3–6 of the election timer: a handoff's target runs them at once.
    pub(crate) fn start_election(&mut self) {
        self.abandon_election();
        let b = next_ballot(self.ballot.max(self.last_prepare_ballot), self.cfg.id);
        self.last_prepare_ballot = b;
        self.counters.elections += 1;
        let mut p = PreparePhase {
            ballot: b,
            channel_id: 0,
            promises: 1,
            answered: 0,
            merged: self.log.copy(),
            max_last_index: self.log.last_index(),
            asked: [0; MAX_NUM_PEERS as usize],
            progressed: false,
            backoff: self.election_backoff,
        };
        self.trace(trace_ballot(TraceKind::Election, b));
        if p.promises >= self.majority() {
            self.become_leader(b, p.max_last_index, p.merged, p.backoff);
            return;
        }
        let mut from_index = 0;
        if self.cfg.election_batch > 0 {
            // everything up to our last_executed is chosen and held (or trimmed: executed
            // everywhere) in our own log, which the merged log starts from: no promise needs it
            from_index = self.log.last_executed() + 1;
            p.asked = [from_index; MAX_NUM_PEERS as usize];
        }
        let request = Message { typ: MessageType::PrepareRequest, ballot: b, from_index, ..Message::default() };
        p.channel_id = self.broadcast(request);
        self.prepare = Some(p);
        let delay = self.election_delay_us();
        self.set_timer(TimerName::Election, delay);
    }

    /// Closes this node's open prepare phase, if it has one: says so in the trace and counts the
    /// lost election (`lose_election`).
    fn abandon_election(&mut self) {
        if let Some(p) = self.prepare.take() {
            self.trace(trace_ballot(TraceKind::ElectionAbandoned, p.ballot));
            self.lose_election();
        }
    }

    fn on_prepare_request(&mut self, m: &Message) {
        if m.from_index > 0 && m.from_index <= self.log.global_last_executed() {
            // The candidate has not executed everything this node trimmed: a promise from here
            // could not carry those chosen entries, and the candidate would fill them with
            // no-ops (docs/protocol.md, "Log bound"). Refused whatever the ballot, which stays
            // as it is; a leader also sends the candidate a snapshot, as it would to a follower
            // that far behind.
            self.refuse_prepare(m);
            // this node's own next election goes above the refused one: an up-to-date node
            // must be able to outbid a behind candidate whose crossing prepares it keeps refusing
            self.last_prepare_ballot = self.last_prepare_ballot.max(m.ballot);
            if self.is_leader() && self.cfg.repair_batch > 0 {
                self.repairs[m.from as usize] = RepairStream::default();
                self.send_snapshot(m.from);
            }
            return;
        }
        if m.from_index > 0 && m.ballot == self.ballot && leader_of(m.ballot) == m.from {
            // the candidate this node promised asks for the next chunk of that promise
            let response = self.promise_chunk(m.from_index);
            self.respond(m.from, m.channel_id, response);
            return;
        }
        if m.ballot > self.ballot && !self.campaigns_above(m.ballot) && (!self.in_lease() || self.handoff_prepare(m)) {
            // become_follower re-arms the election timer only for a node that led or knew no
            // leader; one that promises gives the candidate a whole election delay in every case
            let rearm = !self.is_leader() && leader_of(self.ballot) != NO_LEADER;
            self.become_follower(m.ballot);
            if rearm {
                let delay = self.election_delay_us();
                self.set_timer(TimerName::Election, delay);
            }
            let response = if m.from_index > 0 {
                self.promise_chunk(m.from_index)
            } else {
                let instances: Vec<Instance> = self.log.instances().cloned().collect();
                Message { typ: MessageType::PrepareResponse, ok: true, ballot: self.ballot, instances, ..Message::default() }
            };
            self.respond(m.from, m.channel_id, response);
            return;
        }
        self.refuse_prepare(m);
    }

    /// Answers a prepare with a refusal: this node's ballot, so that the candidate can go
    /// above it, and the request's from_index, so that the candidate can match the answer.
    fn refuse_prepare(&mut self, m: &Message) {
        let response = Message {
            typ: MessageType::PrepareResponse,
            ok: false,
            ballot: self.ballot,
            from_index: m.from_index,
            ..Message::default()
        };
        self.respond(m.from, m.channel_id, response);
    }

    /// Whether this node's own open prepare phase has a ballot above `b`. With bounded
    /// elections such a candidate refuses `b` instead of abandoning its phase for it: when two
    /// candidates' prepares cross, the higher ballot wins that round, where both used to give
    /// up and try again (docs/protocol.md, "Bounded elections").
    fn campaigns_above(&self, b: u64) -> bool {
        self.cfg.election_batch > 0 && self.prepare.as_ref().is_some_and(|p| p.ballot > b)
    }

    /// One bounded part of a promise: the stored instances from index `from` on, at most
    /// `election_batch` of them (all when 0), and where the next chunk starts (0: none).
    fn promise_chunk(&self, from: u64) -> Message {
        let batch = self.cfg.election_batch;
        let mut m = Message { typ: MessageType::PrepareResponse, ok: true, ballot: self.ballot, from_index: from, ..Message::default() };
        for inst in self.log.instances() {
            if inst.index < from {
                continue;
            }
            if batch > 0 && m.instances.len() as u64 == batch {
                m.next_index = inst.index;
                break;
            }
            m.instances.push(inst.clone());
        }
        m
    }

    fn on_prepare_response(&mut self, m: Message) {
        let bit = peer_bit(m.from);
        let fresh = matches!(&self.prepare, Some(p) if p.channel_id == m.channel_id && p.answered & bit == 0
            && p.asked[m.from as usize] == m.from_index);
        if !fresh {
            self.counters.stale_responses += 1;
            return;
        }
        if !m.ok {
            self.abandon_election();
            self.become_follower(m.ballot);
            return;
        }
        let majority = self.majority();
        let bounded = self.cfg.election_batch > 0;
        let p = self.prepare.as_mut().expect("checked above");
        for inst in m.instances {
            let index = inst.index;
            let change = LogChange::new(LogChangeKind::Violation, &inst, REASON_COMMAND_MISMATCH);
            if insert_into(&mut p.merged, inst) == InsertOutcome::Violation {
                self.changes.push(change);
            }
            p.max_last_index = p.max_last_index.max(index);
        }
        p.progressed = bounded;
        if m.next_index != 0 {
            // a chunk of a longer promise: ask this peer alone for the next one, on the same channel
            p.asked[m.from as usize] = m.next_index;
            let request = Message {
                typ: MessageType::PrepareRequest,
                from: self.cfg.id,
                to: m.from,
                channel_id: p.channel_id,
                ballot: p.ballot,
                from_index: m.next_index,
                ..Message::default()
            };
            self.apply_changes();
            self.send(request);
            return;
        }
        p.answered |= bit;
        p.promises += 1;
        let won = p.promises >= majority;
        self.apply_changes();
        if won {
            let mut p = self.prepare.take().expect("checked above");
            self.merge_own_log_again(&mut p);
            if holes_to_fill(self.log.global_last_executed(), p.max_last_index, &p.merged) > MAX_FILL {
                // a promise reported an index no run of leaders could have left that far beyond
                // every other entry (a forged or corrupt frame): leading would propose that many
                // no-ops and wait at the index for ever. Refusing the phase is as safe as losing
                // its messages; the election timer tries again.
                self.trace(trace_ballot(TraceKind::ElectionAbandoned, p.ballot));
                self.lose_election();
                self.bad_event();
                return;
            }
            self.become_leader(p.ballot, p.max_last_index, p.merged, p.backoff);
        }
    }

    /// Takes the candidate's own promise as it wins rather than only when the phase opened:
    /// until then its acceptor still voted for the old leader, whose commands those votes may
    /// have chosen (docs/protocol.md, Election). Once leader it accepts nothing below.
    fn merge_own_log_again(&mut self, p: &mut PreparePhase) {
        for inst in self.log.instances() {
            let change = LogChange::new(LogChangeKind::Violation, inst, REASON_COMMAND_MISMATCH);
            if insert_into(&mut p.merged, inst.clone()) == InsertOutcome::Violation {
                self.changes.push(change);
            }
        }
        p.max_last_index = p.max_last_index.max(self.log.last_index());
        self.apply_changes();
    }

    // --- replay ---

    /// A new leader, with bounded elections and repair, replays only above its own
    /// last_executed. Those entries are chosen (it executed them); re-proposing them served only
    /// lagging peers, which repair serves from their reported last_executed (docs/protocol.md,
    /// Replay, "Skipping the executed prefix").
    fn skips_executed_replay(&self) -> bool {
        self.cfg.election_batch > 0 && self.cfg.repair_batch > 0
    }

    fn start_replay(&mut self, mut merged: Slots, skip_executed: bool) {
        self.fill_holes(&mut merged);
        self.replay_queue = merged.into_values().collect();
        if skip_executed {
            // what this leader executed is chosen and reaches lagging peers by repair
            let last_executed = self.log.last_executed();
            while self.replay_queue.front().is_some_and(|i| i.index <= last_executed) {
                self.replay_queue.pop_front();
            }
        }
        let (Some(first), Some(last)) = (self.replay_queue.front(), self.replay_queue.back()) else { return };
        let t = Trace {
            kind: TraceKind::Replay,
            count: self.replay_queue.len() as u64,
            from_index: first.index,
            to_index: last.index,
            ..Trace::default()
        };
        self.trace(t);
        // one entry at a time (the paper's); with bounded elections election_batch at once, each
        // commit starting the next, so the window stays full
        let window = self.cfg.election_batch.max(1);
        for _ in 0..window {
            if self.replay_queue.is_empty() || !self.is_leader() {
                break;
            }
            self.replay_next();
        }
    }

    /// Puts a no-op into `merged` at every index after gle, up to the last index any promise
    /// reported, that no promise holds. Nothing can have been chosen there (a chosen entry sits
    /// on a majority, and every majority shares a node with the promises), yet without an entry
    /// the executor would wait at that index for ever (docs/protocol.md, Replay).
    fn fill_holes(&mut self, merged: &mut Slots) {
        let (mut count, mut from, mut to) = (0u64, 0u64, 0u64);
        for i in self.log.global_last_executed() + 1..=self.log.last_index() {
            if merged.contains_key(&i) {
                continue;
            }
            let noop = Command { typ: CommandType::Noop, key: String::new(), value: String::new() };
            merged.insert(
                i,
                Instance { ballot: self.ballot, index: i, client_id: 0, request_id: 0, state: InstanceState::InProgress, command: noop },
            );
            if count == 0 {
                from = i;
            }
            count += 1;
            to = i;
        }
        if count > 0 {
            self.trace(Trace { kind: TraceKind::Fill, count, from_index: from, to_index: to, ..Trace::default() });
        }
    }

    fn replay_next(&mut self) {
        let Some(old) = self.replay_queue.pop_front() else { return };
        let inst = Instance { ballot: self.ballot, state: InstanceState::InProgress, ..old };
        self.start_accept(inst, None, true);
    }

    // --- accept ---

    fn start_accept(&mut self, inst: Instance, client: Option<ClientRequest>, replay: bool) {
        self.log.append(inst.clone(), &mut self.changes);
        self.apply_changes();
        let mut ph = AcceptPhase { channel_id: 0, instance: inst, votes: 1, answered: 0, ticks: 0, client, replay };
        if ph.votes >= self.majority() {
            self.accepted(ph);
            return;
        }
        ph.channel_id = self.broadcast(Message {
            typ: MessageType::AcceptRequest,
            instance: ph.instance.clone(),
            ..Message::default()
        });
        self.accepts.insert(ph.channel_id, ph);
    }

    /// A phase reached a majority; it is no longer in `accepts`.
    fn accepted(&mut self, ph: AcceptPhase) {
        let index = ph.instance.index;
        self.log.commit(index, &mut self.changes);
        self.apply_changes();
        if let Some(c) = ph.client {
            self.awaiting.insert(index, c);
        }
        self.execute();
        if ph.replay {
            self.replay_next();
        }
    }

    /// Ends an accept phase (already out of `accepts`) that timed out or met a stale reject:
    /// its client is told to retry, and the slot is proposed again so the executor never waits
    /// on a hole.
    fn fail_while_leader(&mut self, mut ph: AcceptPhase) {
        if let Some(c) = ph.client.take() {
            self.reply(c, Result::of(ResultType::Retry));
        }
        ph.votes = 1;
        ph.answered = 0;
        ph.ticks = 0;
        ph.channel_id = self.broadcast(Message {
            typ: MessageType::AcceptRequest,
            instance: ph.instance.clone(),
            ..Message::default()
        });
        self.accepts.insert(ph.channel_id, ph);
    }

    pub(crate) fn on_client_command(&mut self, c: ClientRequest, line: &[u8]) {
        self.counters.client_commands += 1;
        let Some(cmd) = parse_command(line) else {
            self.reply(c, Result::of(ResultType::BadCommand));
            return;
        };
        if self.gc.phase != crate::types::GcPhase::Idle && self.gc_client_reply(c) {
            return;
        }
        if self.is_leader() {
            if self.accepts.len() as u64 >= self.cfg.max_pending_accepts {
                self.reply(c, Result::of(ResultType::Retry));
                return;
            }
            let inst = Instance {
                ballot: self.ballot,
                index: self.log.advance_last_index(),
                client_id: c.client_id,
                request_id: c.request_id,
                state: InstanceState::InProgress,
                command: cmd,
            };
            self.start_accept(inst, Some(c), false);
        } else if leader_of(self.ballot) != NO_LEADER {
            self.reply(c, Result { typ: ResultType::LeaderIs, value: String::new(), leader: leader_of(self.ballot), pause_us: 0 });
        } else {
            self.reply(c, Result::of(ResultType::Retry));
        }
    }

    fn on_accept_request(&mut self, m: Message) {
        let (from, channel_id) = (m.from, m.channel_id);
        let inst = m.instance;
        if inst.ballot < self.ballot {
            let response = Message { typ: MessageType::AcceptResponse, ok: false, ballot: self.ballot, ..Message::default() };
            self.respond(from, channel_id, response);
            return;
        }
        let (b, index) = (inst.ballot, inst.index);
        self.log.append(inst, &mut self.changes);
        self.apply_changes();
        if b > self.ballot {
            self.become_follower(b);
        }
        let response = Message { typ: MessageType::AcceptResponse, ok: true, ballot: self.ballot, ..Message::default() };
        self.respond(from, channel_id, response);
        self.ask_for_gap(from, index);
    }

    /// A follower that accepts an entry whose predecessor it neither executed nor holds has lost
    /// an accept, and asks the sender at once with the message its heartbeat answer is (a
    /// commit_response on channel 0, its last_executed) instead of waiting for the next
    /// heartbeat. It asks once per last_executed, so a burst of later accepts over the same gap
    /// asks once.
    fn ask_for_gap(&mut self, leader: u64, index: u64) {
        let next = self.log.last_executed() + 1;
        if self.cfg.repair_batch == 0 || self.is_leader() || index <= next || self.gap_asked_from == next {
            return;
        }
        if self.log.get(index - 1).is_some() {
            return;
        }
        self.gap_asked_from = next;
        let ask = Message { typ: MessageType::CommitResponse, from: self.cfg.id, to: leader, ok: true, ballot: self.ballot, last_executed: next - 1, ..Message::default() };
        self.send(ask);
    }

    fn on_accept_response(&mut self, m: &Message) {
        let bit = peer_bit(m.from);
        let majority = self.majority();
        let Some(ph) = self.accepts.get_mut(&m.channel_id).filter(|ph| ph.answered & bit == 0) else {
            self.counters.stale_responses += 1;
            self.repair_acknowledged(m);
            return;
        };
        ph.answered |= bit;
        if m.ok {
            ph.votes += 1;
            if ph.votes >= majority {
                let ph = self.accepts.remove(&m.channel_id).expect("present");
                self.accepted(ph);
            }
            return;
        }
        self.become_follower(m.ballot);
        if self.is_leader() {
            let ph = self.accepts.remove(&m.channel_id).expect("a leader keeps its phases");
            self.fail_while_leader(ph);
        }
    }

    // --- commit (heartbeat, learning, trimming) ---

    pub(crate) fn on_commit_timer(&mut self) {
        if !self.is_leader() {
            return;
        }
        if self.cfg.check_quorum {
            self.quorum_tick += 1;
            let window = QUORUM_WINDOW_TICKS << self.quorum_backoff;
            let heard = self.heard_within(window);
            if heard < self.majority() {
                self.step_down(heard);
                return;
            }
            // the stretched window only covers the first answers' round trip; once answers
            // flow as often as the plain window asks, a lost majority is noticed as fast as ever
            if self.quorum_backoff > 0
                && self.quorum_tick >= window
                && self.heard_within(QUORUM_WINDOW_TICKS) >= self.majority()
            {
                self.quorum_backoff = 0;
            }
        }
        self.gc_handoff_tick();
        self.commit_round = None;
        // Walk the phases open now, in ascending channel order; a failed phase comes back on a
        // new (higher) channel and is not visited again.
        if let Some(&last) = self.accepts.keys().next_back() {
            let mut next = 0;
            while next <= last {
                let Some((&ch, ph)) = self.accepts.range_mut(next..=last).next() else { break };
                next = ch + 1;
                ph.ticks += 1;
                if ph.ticks >= self.cfg.accept_timeout_ticks << self.leader_backoff {
                    let t = Trace {
                        kind: TraceKind::AcceptTimeout,
                        index: ph.instance.index,
                        ballot: ph.instance.ballot,
                        ..Trace::default()
                    };
                    self.counters.accept_timeouts += 1;
                    self.trace(t);
                    let ph = self.accepts.remove(&ch).expect("present");
                    self.fail_while_leader(ph);
                }
            }
        }
        self.gc_grant_ticks();
        self.trim_and_open_commit_round();
        self.set_timer(TimerName::Commit, self.cfg.commit_interval_us);
    }

    fn trim_and_open_commit_round(&mut self) {
        let floor = self.bound_floor(self.log.last_executed());
        if floor > self.commit_gle {
            self.learn_gle(floor); // a peer that has not answered holds trimming back no further
        }
        self.trim_until(self.commit_gle);
        let last_executed = self.log.last_executed();
        if self.cfg.num_peers == 1 {
            self.learn_gle(last_executed);
            return;
        }
        let channel_id = self.broadcast(Message {
            typ: MessageType::CommitRequest,
            ballot: self.ballot,
            last_executed,
            global_last_executed: self.commit_gle,
            ..Message::default()
        });
        self.commit_round =
            Some(CommitRound { channel_id, last_executed, answered: 0, answered_count: 0, min_last_executed: last_executed });
    }

    fn trim_until(&mut self, g: u64) {
        if self.log.trim_until(g) {
            let value = self.log.global_last_executed();
            self.trace(Trace { kind: TraceKind::Trim, value, ..Trace::default() });
        }
    }

    /// The gle a leader keeps at least with a log bound: last_executed − log_bound (0 without
    /// a bound or below it).
    fn bound_floor(&self, last_executed: u64) -> u64 {
        if self.cfg.log_bound == 0 || last_executed <= self.cfg.log_bound {
            return 0;
        }
        last_executed - self.cfg.log_bound
    }

    fn learn_gle(&mut self, g: u64) {
        if g != self.commit_gle {
            self.commit_gle = g;
            self.trace(Trace { kind: TraceKind::CommitGle, value: g, ..Trace::default() });
        }
    }

    fn on_commit_request(&mut self, m: &Message) {
        if m.ballot < self.ballot {
            let response = Message { typ: MessageType::CommitResponse, ok: false, ballot: self.ballot, ..Message::default() };
            self.respond(m.from, m.channel_id, response);
            return;
        }
        self.commit_received = true;
        self.election_backoff = 0; // a leader is seen: elections are back to their base delay
        self.log.commit_until(m.last_executed, m.ballot, &mut self.changes);
        self.apply_changes();
        self.execute();
        self.trim_until(m.global_last_executed);
        if m.ballot > self.ballot {
            self.become_follower(m.ballot);
        }
        let response = Message {
            typ: MessageType::CommitResponse,
            ok: true,
            ballot: self.ballot,
            last_executed: self.log.last_executed(),
            ..Message::default()
        };
        self.respond(m.from, m.channel_id, response);
        self.gc_after_commit_request();
    }

    fn on_commit_response(&mut self, m: &Message) {
        if m.channel_id == 0 && self.is_leader() && self.cfg.repair_batch > 0 && m.ok && m.from < MAX_NUM_PEERS {
            self.on_gap_ask(m);
            return;
        }
        let bit = peer_bit(m.from);
        let Some(r) = self.commit_round.as_mut().filter(|r| r.channel_id == m.channel_id && r.answered & bit == 0) else {
            self.counters.stale_responses += 1;
            return;
        };
        r.answered |= bit;
        if !m.ok {
            self.commit_round = None;
            self.become_follower(m.ballot);
            return;
        }
        r.answered_count += 1;
        self.gc.peer_executed[m.from as usize] = m.last_executed;
        let r = self.commit_round.as_mut().expect("open");
        r.min_last_executed = r.min_last_executed.min(m.last_executed);
        let (done, g, asked) = (r.answered_count == self.cfg.num_peers - 1, r.min_last_executed, r.last_executed);
        if m.last_executed < asked && self.cfg.repair_batch > 0 {
            if m.last_executed < self.log.global_last_executed() {
                self.repairs[m.from as usize] = RepairStream::default();
                self.send_snapshot(m.from); // what it needs next is trimmed here (snapshot.rs)
            } else {
                self.repair(m.from, m.last_executed + 1, asked);
            }
        }
        if done {
            self.commit_round = None;
            self.learn_gle(g.max(self.bound_floor(asked)));
        }
    }

    // --- repair ---

    /// Answers a follower's ask ([`Node::ask_for_gap`]) as its heartbeat answer would be
    /// answered, unless a repair batch to it is already in flight: that stream reaches the gap
    /// by itself.
    fn on_gap_ask(&mut self, m: &Message) {
        if self.repairs[m.from as usize].awaiting > 0 || m.last_executed >= self.log.last_executed() {
            return;
        }
        if m.last_executed < self.log.global_last_executed() {
            self.repairs[m.from as usize] = RepairStream::default();
            self.send_snapshot(m.from);
            return;
        }
        self.repair(m.from, m.last_executed + 1, self.log.last_executed());
    }

    /// Re-sends to `peer`, as accept requests under this leader's ballot, the entries from
    /// `from` up to `up_to`: it lacked them (a lost accept) or held them from an older ballot
    /// (stale). At most `repair_batch` at a time, on one channel id whose answers match no
    /// accept phase; when all of them are acknowledged the next batch follows
    /// ([`Node::repair_acknowledged`]). The next heartbeat commits them.
    fn repair(&mut self, peer: u64, from: u64, up_to: u64) {
        self.repairs[peer as usize] = RepairStream::default();
        let mut batch: Vec<Instance> = Vec::new();
        let mut i = from;
        while i <= up_to && (batch.len() as u64) < self.cfg.repair_batch {
            match self.log.get(i) {
                // An executed entry is chosen, so it goes out under this leader's ballot whatever
                // ballot wrote it: a follower that promised this ballot refuses an older one, and
                // an entry a previous term of this leader chose is never replayed.
                Some(inst) if inst.ballot == self.ballot || i <= self.log.last_executed() => {
                    let mut copy = inst.clone();
                    copy.ballot = self.ballot;
                    copy.state = InstanceState::InProgress;
                    batch.push(copy);
                }
                _ => break, // trimmed here, or still being replayed: the replay will send it
            }
            i += 1;
        }
        let (Some(first), Some(last)) = (batch.first(), batch.last()) else { return };
        let t = Trace { kind: TraceKind::Repair, leader: peer, from_index: first.index, to_index: last.index, ..Trace::default() };
        self.trace(t);
        self.next_channel_id += 1;
        let channel_id = self.next_channel_id;
        let stream = RepairStream { channel_id, to_index: last.index, awaiting: batch.len() as u64 };
        for instance in batch {
            let m = Message { typ: MessageType::AcceptRequest, from: self.cfg.id, to: peer, channel_id, instance, ..Message::default() };
            self.send(m);
        }
        self.repairs[peer as usize] = stream;
    }

    /// Counts an accept_response to a repair batch; the last one of the batch sends the next,
    /// up to this leader's last_executed (every entry up to it is chosen). A refusal or a lost
    /// answer ends the stream; the next heartbeat answer starts it again.
    fn repair_acknowledged(&mut self, m: &Message) {
        if !self.is_leader() || m.from >= MAX_NUM_PEERS {
            return;
        }
        let s = &mut self.repairs[m.from as usize];
        if s.awaiting == 0 || m.channel_id != s.channel_id {
            return;
        }
        if !m.ok {
            *s = RepairStream::default();
            return;
        }
        s.awaiting -= 1;
        if s.awaiting == 0 {
            let from = s.to_index + 1;
            self.repair(m.from, from, self.log.last_executed());
        }
    }

    // --- executor ---

    // --- check-quorum ---

    /// The nodes (this one included) heard within the last `window_ticks` heartbeats. A new
    /// leader's peers count as heard at its tick 0, which gives every peer one full window to
    /// answer.
    fn heard_within(&self, window_ticks: u64) -> u64 {
        let id = self.cfg.id as usize;
        let peers_heard = self
            .heard_tick
            .iter()
            .enumerate()
            .filter(|&(p, &t)| p != id && t + window_ticks >= self.quorum_tick)
            .count() as u64;
        1 + peers_heard
    }

    /// Ends a leadership that no majority answers: the ballot keeps its round but names no
    /// leader, so heartbeats stop and a connected majority elects a new leader.
    fn step_down(&mut self, heard: u64) {
        let t = Trace {
            kind: TraceKind::StepDown,
            ballot: self.ballot,
            count: heard,
            value: (QUORUM_WINDOW_TICKS << self.quorum_backoff) * self.cfg.commit_interval_us,
            ..Trace::default()
        };
        self.trace(t);
        self.ballot = (self.ballot & !0xff) | NO_LEADER;
        self.cancel_timer(TimerName::Commit);
        let accepts = std::mem::take(&mut self.accepts);
        for ph in accepts.values() {
            if let Some(c) = ph.client {
                self.reply(c, Result::of(ResultType::Retry));
            }
        }
        self.replay_queue.clear();
        self.commit_round = None;
        self.gc_leave_leadership();
        self.commit_received = false;
        self.lease_held = false;
        let delay = self.election_delay_us();
        self.set_timer(TimerName::Election, delay);
    }

    pub(crate) fn execute(&mut self) {
        while let Some(inst) = self.log.next_executable() {
            let index = inst.index;
            let result = self.kv.apply(&inst.command);
            self.log.mark_executed();
            self.counters.executed += 1;
            self.trace(Trace { kind: TraceKind::Execute, index, result: result.typ, ..Trace::default() });
            if let Some(c) = self.awaiting.remove(&index) {
                self.reply(c, result);
            }
        }
    }

    pub(crate) fn on_message(&mut self, m: Message) {
        match m.typ {
            MessageType::PrepareRequest => self.on_prepare_request(&m),
            MessageType::PrepareResponse => self.on_prepare_response(m),
            MessageType::AcceptRequest => self.on_accept_request(m),
            MessageType::AcceptResponse => self.on_accept_response(&m),
            MessageType::CommitRequest => self.on_commit_request(&m),
            MessageType::CommitResponse => self.on_commit_response(&m),
            MessageType::Snapshot => self.on_snapshot(m),
            MessageType::GcRequest => self.on_gc_request(&m),
            MessageType::GcGrant => self.on_gc_grant(&m),
            MessageType::GcRelease => self.on_gc_release(&m),
            MessageType::Handoff => self.on_handoff(&m),
        }
    }
}

/// Bounds the no-ops a new leader proposes (docs/protocol.md, Replay): sixteen full windows of
/// the servers' 4,096 pending accepts. Holes are indexes a leader assigned that no promise
/// holds; each leader leaves at most its window of them, and the next leader fills them.
pub const MAX_FILL: u64 = 65536;

/// The indexes after gle, up to max_last_index, that merged lacks: the no-ops fill_holes would
/// add. Counted over merged, not over the indexes: the range may be huge.
fn holes_to_fill(gle: u64, max_last_index: u64, merged: &Slots) -> u64 {
    if max_last_index <= gle {
        return 0;
    }
    let held = merged.range(gle + 1..=max_last_index).count() as u64;
    max_last_index - gle - held
}
