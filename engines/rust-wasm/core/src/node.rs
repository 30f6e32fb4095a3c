//! `Node`: one Replicant peer, the sans-IO core. It is advanced only by [`Node::step`].

use crate::ballot::{leader_of, INITIAL_BALLOT, MAX_NUM_PEERS, NO_LEADER};
use crate::binary_codec::{batch_frame, decode_binary_event, encode_binary_effects, push_batch_frame, valid_batch_framing};
use crate::codec::{decode_event, encode_effects, CodecError};
use crate::command::Result;
use crate::config::{Config, ELECTION_BACKOFF_MAX};
use crate::instance::Instance;
use crate::kvstore::KVStore;
use crate::log::{Log, LogChange, LogChangeKind, Slots};
use crate::types::{GcState, Record};
use crate::messages::{Effect, Event, Message, MessageType, TimerName, Trace, TraceKind};
use crate::prng::SplitMix64;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

/// Makes every step verify the node's invariants and panic on a broken one. Test builds
/// (unit tests, the conformance host) turn it on.
pub static CHECK_INVARIANTS: AtomicBool = AtomicBool::new(false);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClientRequest {
    pub client_id: u64,
    pub request_id: u64,
}

pub(crate) struct PreparePhase {
    pub ballot: u64,
    pub channel_id: u64,
    pub promises: u64,
    /// A bit per peer.
    pub answered: u32,
    pub merged: Slots,
    pub max_last_index: u64,
    /// Bounded elections: the from_index last asked of each peer, and whether any answer came
    /// since the election timer last fired.
    pub asked: [u64; MAX_NUM_PEERS as usize],
    pub progressed: bool,
    /// `election_backoff` when the phase opened: the leader it makes waits that much longer.
    pub backoff: u64,
}

pub(crate) struct AcceptPhase {
    pub channel_id: u64,
    pub instance: Instance,
    pub votes: u64,
    pub answered: u32,
    pub ticks: u64,
    pub client: Option<ClientRequest>,
    pub replay: bool,
}

/// The repair batch a leader has in flight to one peer: when every entry of it is acknowledged,
/// the next batch goes out at once instead of at the next heartbeat, so a follower catches up at
/// the rate the link carries, not `repair_batch` per heartbeat.
#[derive(Clone, Copy, Default)]
pub(crate) struct RepairStream {
    /// 0: none in flight.
    pub channel_id: u64,
    /// The batch's last index.
    pub to_index: u64,
    /// Acknowledgements still to come.
    pub awaiting: u64,
}

pub(crate) struct CommitRound {
    pub channel_id: u64,
    /// What the heartbeat told the peers.
    pub last_executed: u64,
    pub answered: u32,
    pub answered_count: u64,
    pub min_last_executed: u64,
}

/// The node's running totals, shown by `inspect`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub events: u64,
    pub messages_in: u64,
    pub messages_out: u64,
    pub client_commands: u64,
    pub replies: u64,
    pub executed: u64,
    pub elections: u64,
    pub bad_events: u64,
    pub stale_responses: u64,
    pub accept_timeouts: u64,
    pub violations: u64,
}

/// The node's bookkeeping for persist effects (all zero in `none` mode).
#[derive(Default)]
pub(crate) struct DurableState {
    /// A start or restart event was seen; a later restart is bad.
    pub started: bool,
    /// The last persist id handed out.
    pub issued_id: u64,
    /// The driver reported every persist up to this one done.
    pub done_id: u64,
    /// The ballot of the last promise record.
    pub recorded_ballot: u64,
    /// last_executed at the last checkpoint (or at the restart).
    pub checkpointed_at: u64,
    /// This step's records, emitted as one persist effect.
    pub records: Vec<Record>,
    /// Sends and replies waiting for a persist: (persist id, effect).
    pub held: Vec<(u64, Effect)>,
}

/// One Replicant peer.
pub struct Node {
    pub(crate) cfg: Config,
    pub(crate) ballot: u64,
    pub(crate) log: Log,
    pub(crate) kv: KVStore,
    pub(crate) rng: SplitMix64,
    pub(crate) commit_received: bool,
    pub(crate) last_prepare_ballot: u64,
    pub(crate) next_channel_id: u64,
    pub(crate) prepare: Option<PreparePhase>,
    /// Open accept phases by channel id (ascending: the order every walk over them needs).
    pub(crate) accepts: BTreeMap<u64, AcceptPhase>,
    pub(crate) replay_queue: VecDeque<Instance>,
    pub(crate) commit_round: Option<CommitRound>,
    /// Per peer: the repair batch in flight (leader).
    pub(crate) repairs: [RepairStream; MAX_NUM_PEERS as usize],
    pub(crate) commit_gle: u64,
    /// Follower: the last_executed + 1 it last asked the leader to repair from.
    pub(crate) gap_asked_from: u64,
    /// index -> the request its execution answers.
    pub(crate) awaiting: BTreeMap<u64, ClientRequest>,
    pub(crate) counters: Counters,
    /// check-quorum (`Config::check_quorum`): heartbeats since this node became leader, the
    /// heartbeat count when each peer was last heard, and whether the last election timer
    /// found a leader's heartbeat (the follower's lease).
    pub(crate) quorum_tick: u64,
    pub(crate) heard_tick: Vec<u64>,
    pub(crate) lease_held: bool,
    /// Election backoff (docs/protocol.md, "Election backoff"): elections this node lost since
    /// it last saw a leader, at most [`ELECTION_BACKOFF_MAX`]; every election delay it draws is
    /// multiplied by 2 to that power. `leader_backoff` keeps the value a leader won with: its
    /// accept time-out is stretched by that factor for its term. `quorum_backoff` stretches its
    /// quorum window by the same factor only until a majority has answered within the
    /// unstretched window after one full stretched one; then it is 0.
    pub(crate) election_backoff: u64,
    pub(crate) leader_backoff: u64,
    pub(crate) quorum_backoff: u64,
    /// Persist bookkeeping (durability.rs).
    pub(crate) dur: DurableState,
    /// GC mitigation (mitigation.rs).
    pub(crate) gc: GcState,

    /// The current step's output.
    pub(crate) effects: Vec<Effect>,
    /// Scratch for log operations.
    pub(crate) changes: Vec<LogChange>,
    /// The current step's output as JSON Lines (`step_json`).
    encoded: Vec<u8>,
    /// The current batch's output frames (`step_batch`).
    batch: Vec<u8>,
}

impl Node {
    /// Creates a node; `cfg` must be valid ([`Config::validate`]).
    pub fn new(cfg: Config) -> Node {
        let rng = SplitMix64::new(cfg.seed);
        let heard_tick = vec![0; cfg.num_peers as usize];
        let gc = GcState::new(cfg.num_peers);
        Node {
            cfg,
            ballot: INITIAL_BALLOT,
            log: Log::new(),
            kv: KVStore::new(),
            rng,
            commit_received: false,
            last_prepare_ballot: 0,
            next_channel_id: 0,
            prepare: None,
            accepts: BTreeMap::new(),
            replay_queue: VecDeque::new(),
            commit_round: None,
            repairs: [RepairStream::default(); MAX_NUM_PEERS as usize],
            commit_gle: 0,
            gap_asked_from: 0,
            awaiting: BTreeMap::new(),
            counters: Counters::default(),
            quorum_tick: 0,
            heard_tick,
            lease_held: false,
            election_backoff: 0,
            leader_backoff: 0,
            quorum_backoff: 0,
            dur: DurableState { recorded_ballot: INITIAL_BALLOT, ..DurableState::default() },
            gc,
            effects: Vec::new(),
            changes: Vec::new(),
            encoded: Vec::new(),
            batch: Vec::new(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Advances the node by one event. The returned effects are valid until the next step.
    pub fn step(&mut self, ev: Event) -> &[Effect] {
        self.effects.clear();
        self.counters.events += 1;
        if self.durable() && !self.dur.started && !matches!(ev, Event::Start | Event::Restart(_)) {
            // Before its restart a durable node has not read its disk: a promise from it would
            // carry none of the slots it accepted, so a candidate missing chosen entries could win
            // with it (docs/protocol.md, "Nothing before restart"; nemesis java seed 371). Refused.
            self.bad_event();
            return &self.effects;
        }
        let persisted = matches!(ev, Event::Persisted(_));
        match ev {
            Event::Persisted(id) => self.on_persisted(id),
            Event::Restart(records) => self.on_restart(records),
            Event::Start => {
                self.dur.started = true;
                let delay = self.election_delay_us();
                self.set_timer(TimerName::Election, delay);
            }
            Event::GcPending(pause_us) => self.on_gc_pending(pause_us),
            Event::GcDone => self.on_gc_done(),
            Event::Timer(TimerName::Election) => self.on_election_timer(),
            Event::Timer(TimerName::Commit) => self.on_commit_timer(),
            Event::Client { client_id, request_id, line } => {
                self.on_client_command(ClientRequest { client_id, request_id }, &line)
            }
            Event::Message(m) => {
                if !self.valid_message(&m) {
                    self.bad_event();
                } else {
                    self.counters.messages_in += 1;
                    self.heard_tick[m.from as usize] = self.quorum_tick;
                    self.on_message(m);
                }
            }
        }
        if self.durable() && !persisted {
            self.finish_durable_step();
        }
        if CHECK_INVARIANTS.load(Ordering::Relaxed) {
            self.check_invariants();
            self.check_durable_invariants();
        }
        &self.effects
    }

    /// Decodes one canonical event, steps, and returns the effects as JSON Lines (valid until
    /// the next step).
    pub fn step_json(&mut self, input: &[u8]) -> &[u8] {
        self.step_encoded(input, decode_event, encode_effects)
    }

    /// `step_json` for the binary encoding (docs/protocol.md, "Binary step"): the same step,
    /// the effects written in the binary encoding.
    pub fn step_binary(&mut self, input: &[u8]) -> &[u8] {
        self.step_encoded(input, decode_binary_event, encode_binary_effects)
    }

    /// The batch step (docs/protocol.md, "Batch step"): each frame's event stepped as
    /// `step_binary` steps it, its effects in an output frame of their own; None, with nothing
    /// stepped, when the framing is bad. Valid until the next step.
    pub fn step_batch(&mut self, input: &[u8]) -> Option<&[u8]> {
        if !valid_batch_framing(input) {
            return None;
        }
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        let mut pos = 0;
        while pos < input.len() {
            let event = batch_frame(input, &mut pos).ok()?;
            push_batch_frame(&mut batch, self.step_binary(event));
        }
        self.batch = batch;
        Some(&self.batch)
    }

    /// One step on an encoded event; an event that does not decode is a bad event.
    fn step_encoded(
        &mut self,
        input: &[u8],
        decode: fn(&[u8]) -> std::result::Result<Event, CodecError>,
        encode: fn(&[Effect], &mut Vec<u8>),
    ) -> &[u8] {
        match decode(input) {
            Ok(ev) => {
                self.step(ev);
            }
            Err(_) => {
                self.effects.clear();
                self.counters.events += 1;
                self.bad_event();
            }
        }
        self.encoded.clear();
        encode(&self.effects, &mut self.encoded);
        &self.encoded
    }

    pub(crate) fn bad_event(&mut self) {
        self.counters.bad_events += 1;
        self.effects.push(Effect::Error);
    }

    /// The semantic checks of docs/protocol.md on a decoded message.
    fn valid_message(&self, m: &Message) -> bool {
        let num = self.cfg.num_peers;
        if m.to != self.cfg.id || m.from >= num || m.from == self.cfg.id {
            return false;
        }
        let real_ballot = |b: u64| leader_of(b) < num;
        match m.typ {
            MessageType::PrepareRequest | MessageType::CommitRequest => return leader_of(m.ballot) == m.from,
            MessageType::Snapshot => {
                return leader_of(m.ballot) == m.from && crate::kvstore::valid_kv_entries(&m.kv);
            }
            MessageType::AcceptRequest => {
                let inst = &m.instance;
                return leader_of(inst.ballot) == m.from
                    && inst.index >= 1
                    && inst.state == crate::instance::InstanceState::InProgress;
            }
            MessageType::PrepareResponse => {
                if m.instances.iter().any(|inst| inst.index < 1 || !real_ballot(inst.ballot)) {
                    return false;
                }
            }
            MessageType::GcRequest | MessageType::GcRelease => return leader_of(m.ballot) == m.to,
            MessageType::GcGrant => return leader_of(m.ballot) == m.from,
            MessageType::Handoff => return leader_of(m.ballot) == m.from && m.target < num && m.target != m.from,
            MessageType::AcceptResponse | MessageType::CommitResponse => {}
        }
        // A ballot naming no leader: the initial one, or a leader's after it stepped down.
        real_ballot(m.ballot) || leader_of(m.ballot) == NO_LEADER
    }

    /// With check-quorum on, a node that leads or hears a live leader refuses prepares, so a
    /// node that cannot hear the others cannot depose a leader a majority still follows.
    pub(crate) fn in_lease(&self) -> bool {
        self.cfg.check_quorum && (self.is_leader() || self.commit_received || self.lease_held)
    }

    /// Panics on a broken invariant (docs/protocol.md, "Invariants every engine asserts").
    fn check_invariants(&self) {
        if let Err(e) = self.log.check_invariants() {
            panic!("invariant: node {}: {e}", self.cfg.id);
        }
        if let Some(p) = self.heard_tick.iter().position(|&t| t > self.quorum_tick) {
            panic!("invariant: node {}: peer {p} heard after the current tick", self.cfg.id);
        }
        if !self.is_leader() && (!self.accepts.is_empty() || self.commit_round.is_some() || !self.replay_queue.is_empty()) {
            panic!("invariant: node {}: a follower holds leader state", self.cfg.id);
        }
        if self.is_leader() && self.prepare.is_some() {
            panic!("invariant: node {}: a leader holds a prepare phase", self.cfg.id);
        }
        self.check_gc_invariants();
    }

    pub(crate) fn is_leader(&self) -> bool {
        leader_of(self.ballot) == self.cfg.id
    }

    pub(crate) fn majority(&self) -> u64 {
        self.cfg.num_peers / 2 + 1
    }

    pub(crate) fn election_delay_us(&mut self) -> u64 {
        let lo = self.cfg.commit_interval_us * 3 / 2;
        let hi = self.cfg.commit_interval_us * 2;
        (lo + self.rng.next() % (hi - lo + 1)) << self.election_backoff
    }

    /// Counts a lost election (every `election_abandoned`): the next waits are twice as long.
    pub(crate) fn lose_election(&mut self) {
        self.election_backoff = (self.election_backoff + 1).min(ELECTION_BACKOFF_MAX);
    }

    // --- effect helpers ---

    pub(crate) fn set_timer(&mut self, timer: TimerName, delay_us: u64) {
        self.effects.push(Effect::SetTimer { timer, delay_us });
    }

    pub(crate) fn cancel_timer(&mut self, timer: TimerName) {
        self.effects.push(Effect::CancelTimer(timer));
    }

    pub(crate) fn reply(&mut self, c: ClientRequest, result: Result) {
        self.counters.replies += 1;
        self.effects.push(Effect::Reply { client_id: c.client_id, request_id: c.request_id, result });
    }

    pub(crate) fn send(&mut self, m: Message) {
        self.counters.messages_out += 1;
        self.effects.push(Effect::Send(m));
    }

    /// Sends `m` to every peer in ascending id order on a fresh channel, which it returns.
    pub(crate) fn broadcast(&mut self, mut m: Message) -> u64 {
        self.next_channel_id += 1;
        m.from = self.cfg.id;
        m.channel_id = self.next_channel_id;
        let last = (0..self.cfg.num_peers).rev().find(|&p| p != self.cfg.id);
        for p in 0..self.cfg.num_peers {
            if p == self.cfg.id {
                continue;
            }
            if Some(p) == last {
                m.to = p;
                self.send(m);
                break;
            }
            let mut copy = m.clone();
            copy.to = p;
            self.send(copy);
        }
        self.next_channel_id
    }

    /// Answers a request from `req_from` with `m` on the request's channel.
    pub(crate) fn respond(&mut self, req_from: u64, req_channel_id: u64, mut m: Message) {
        m.from = self.cfg.id;
        m.to = req_from;
        m.channel_id = req_channel_id;
        self.send(m);
    }

    pub(crate) fn trace(&mut self, t: Trace) {
        if self.cfg.trace {
            self.effects.push(Effect::Trace(t));
        }
    }

    /// Turns what a log operation did into trace records.
    pub(crate) fn apply_changes(&mut self) {
        for i in 0..self.changes.len() {
            let c = self.changes[i];
            match c.kind {
                LogChangeKind::Stored => {
                    if self.durable() {
                        // the slot as the operation left it (a change carries no command)
                        if let Some(inst) = self.log.get(c.index).cloned() {
                            self.record_instance(&Instance { ballot: c.ballot, state: c.state, ..inst });
                        }
                    }
                    self.trace(Trace {
                        kind: TraceKind::Instance,
                        index: c.index,
                        ballot: c.ballot,
                        state: c.state,
                        ..Trace::default()
                    })
                }
                LogChangeKind::Stale => {
                    self.trace(Trace { kind: TraceKind::Stale, index: c.index, ballot: c.ballot, ..Trace::default() })
                }
                LogChangeKind::Violation => {
                    self.counters.violations += 1;
                    self.trace(Trace { kind: TraceKind::Violation, index: c.index, reason: c.reason, ..Trace::default() })
                }
            }
        }
        self.changes.clear();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::command::ResultType;

    /// Unit tests check the invariants after every step.
    fn check_invariants_on() {
        CHECK_INVARIANTS.store(true, Ordering::Relaxed);
    }

    /// A tiny in-test network: delivers every sent message at once, in order.
    pub(crate) struct TestCluster {
        pub(crate) nodes: Vec<Node>,
    }

    impl TestCluster {
        pub(crate) fn new(n: u64) -> TestCluster {
            check_invariants_on();
            let nodes = (0..n).map(|i| Node::new(Config { id: i, num_peers: n, seed: i + 1, ..Config::default() })).collect();
            TestCluster { nodes }
        }

        /// Steps node `id` with `ev`, delivers everything that follows, returns the replies.
        pub(crate) fn run(&mut self, id: u64, ev: Event) -> Vec<(u64, Result)> {
            let mut queue = VecDeque::from([(id, ev)]);
            let mut replies = Vec::new();
            while let Some((to, ev)) = queue.pop_front() {
                for e in self.nodes[to as usize].step(ev) {
                    match e {
                        Effect::Send(m) => queue.push_back((m.to, Event::Message(m.clone()))),
                        Effect::Reply { client_id, result, .. } => replies.push((*client_id, result.clone())),
                        _ => {}
                    }
                }
            }
            replies
        }
    }

    pub(crate) fn client(client_id: u64, line: &str) -> Event {
        Event::Client { client_id, request_id: 1, line: line.as_bytes().to_vec() }
    }

    /// The check must be able to fail: a node whose state breaks an invariant panics on its next step.
    #[test]
    fn broken_invariant_is_caught() {
        let cases: [(&str, fn(&mut Log), &str); 2] = [
            ("gle above last_executed", |l| l.corrupt_for_test(l.last_executed(), l.last_executed() + 1), "gle > last_executed"),
            ("last_executed above last_index", |l| l.corrupt_for_test(l.last_index() + 1, l.global_last_executed()), "last_executed > last_index"),
        ];
        for (name, corrupt, want) in cases {
            let mut c = TestCluster::new(3);
            c.run(2, Event::Timer(TimerName::Election));
            c.run(2, client(1, "put k v"));
            let n = &mut c.nodes[0];
            n.step(Event::Timer(TimerName::Election));
            corrupt(&mut n.log);
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                n.step(Event::Timer(TimerName::Election));
            }));
            let msg = caught.err().and_then(|e| e.downcast_ref::<String>().cloned()).unwrap_or_default();
            assert!(msg.contains("invariant") && msg.contains(want), "{name}: panic {msg:?}, want one naming {want:?}");
        }
    }

    #[test]
    fn election_and_replication_end_to_end() {
        let mut c = TestCluster::new(3);
        c.run(2, Event::Timer(TimerName::Election));
        assert!(c.nodes[2].is_leader(), "n2 should lead after an undisturbed election");
        let replies = c.run(2, client(1, "put k v"));
        assert_eq!(replies, vec![(1, Result::of(ResultType::Ok))]);
        c.run(2, Event::Timer(TimerName::Commit));
        for n in &c.nodes {
            assert_eq!(n.kv.size(), 1, "n{} after the heartbeat", n.cfg.id);
            assert_eq!(n.log.last_executed(), 1);
        }
        let replies = c.run(0, client(2, "get k"));
        assert_eq!(replies[0].1.typ, ResultType::LeaderIs);
        assert_eq!(replies[0].1.leader, 2);
        let replies = c.run(2, client(3, "get k"));
        assert_eq!(replies, vec![(3, Result { typ: ResultType::Ok, value: "v".into(), leader: 0, pause_us: 0 })]);
        // the next heartbeat learns gle = 2 everywhere; the one after trims it
        c.run(2, Event::Timer(TimerName::Commit));
        c.run(2, Event::Timer(TimerName::Commit));
        assert_eq!(c.nodes[2].commit_gle, 2);
        assert_eq!(c.nodes[2].log.global_last_executed(), 2);
        assert!(c.nodes[2].log.is_empty());
    }

    /// Regression (found by engines/rust-wasm/difftest.ts): a heartbeat walking the open accept
    /// phases must stop after the last one (it once asked `BTreeMap::range` for an empty,
    /// inverted range and panicked).
    #[test]
    fn heartbeats_time_out_open_accepts_and_re_propose_them() {
        let mut c = TestCluster::new(3);
        c.run(0, Event::Timer(TimerName::Election));
        assert!(c.nodes[0].is_leader());
        // two commands whose accept requests are never delivered
        for (i, line) in ["put a 1", "put b 2"].iter().enumerate() {
            let effects = c.nodes[0].step(Event::Client { client_id: 9, request_id: i as u64 + 1, line: line.as_bytes().to_vec() });
            assert_eq!(effects.iter().filter(|e| matches!(e, Effect::Send(_))).count(), 2);
        }
        assert_eq!(c.nodes[0].accepts.len(), 2);
        for tick in 1..=3 {
            let effects = c.nodes[0].step(Event::Timer(TimerName::Commit)).to_vec();
            let retries = effects.iter().filter(|e| matches!(e, Effect::Reply { result, .. } if result.typ == ResultType::Retry)).count();
            assert_eq!(retries, if tick == 3 { 2 } else { 0 }, "tick {tick}");
        }
        assert_eq!(c.nodes[0].counters.accept_timeouts, 2);
        // both slots are proposed again on new channels, without clients
        let channels: Vec<u64> = c.nodes[0].accepts.keys().copied().collect();
        assert_eq!(channels.len(), 2);
        assert!(c.nodes[0].accepts.values().all(|ph| ph.client.is_none() && ph.ticks == 0));
        // one more heartbeat with the re-proposed phases open must not panic either
        c.nodes[0].step(Event::Timer(TimerName::Commit));
        assert_eq!(c.nodes[0].accepts.len(), 2);
    }

    #[test]
    fn step_json_reports_bad_events_and_counts_them() {
        let mut n = Node::new(Config::default());
        assert_eq!(n.step_json(br#"{"type":"nope"}"#), b"{\"type\":\"error\",\"error\":\"bad_event\"}\n");
        assert_eq!(n.step_json(b"not json"), b"{\"type\":\"error\",\"error\":\"bad_event\"}\n");
        // a message to another node decodes but fails the semantic checks
        let wrong_to = br#"{"type":"message","msg":{"type":"accept_response","from":1,"to":2,"channel_id":1,"ok":true,"ballot":257}}"#;
        assert_eq!(n.step_json(wrong_to), b"{\"type\":\"error\",\"error\":\"bad_event\"}\n");
        let inspect = String::from_utf8(n.inspect()).unwrap();
        assert!(inspect.contains(r#""events":3,"messages_in":0"#), "{inspect}");
        assert!(inspect.contains(r#""bad_events":3"#), "{inspect}");
    }

    /// Binary events for the batch tests: start, a client's put, a bad event, a commit timer.
    fn batch_events() -> Vec<Vec<u8>> {
        let mut put = vec![0x01, 7, 1];
        let line = b"put k v";
        put.push(line.len() as u8);
        put.extend_from_slice(line);
        let json = |j: &str| [&[0x00][..], j.as_bytes()].concat();
        vec![json(r#"{"type":"start"}"#), put, json(r#"{"type":"nope"}"#), json(r#"{"type":"timer","timer":"commit"}"#)]
    }

    #[test]
    fn a_batch_steps_as_its_events_one_by_one() {
        let events = batch_events();
        let mut one = Node::new(Config::default());
        let mut expected = Vec::new();
        for e in &events {
            let effects = one.step_binary(e).to_vec();
            expected.push(effects.len() as u8); // every body here is shorter than 128 bytes
            expected.extend_from_slice(&effects);
        }
        let mut input = Vec::new();
        for e in &events {
            input.push(e.len() as u8);
            input.extend_from_slice(e);
        }
        let mut batched = Node::new(Config::default());
        assert_eq!(batched.step_batch(&input).unwrap(), &expected[..]);
        assert_eq!(batched.inspect(), one.inspect());
        assert_eq!(batched.step_batch(&[]).unwrap(), &[] as &[u8]);
    }

    #[test]
    fn bad_batch_framing_steps_nothing() {
        let mut n = Node::new(Config::default());
        let before = n.inspect();
        let start = [&[0x00][..], br#"{"type":"start"}"#].concat();
        let mut input = vec![start.len() as u8];
        input.extend_from_slice(&start);
        input.push(5); // a second frame promising more bytes than there are
        input.push(0x00);
        assert!(n.step_batch(&input).is_none());
        assert!(n.step_batch(&[0x80]).is_none());
        assert_eq!(n.inspect(), before);
    }

    #[test]
    fn lost_elections_double_the_delay_up_to_eight_times_and_a_commit_resets_it() {
        let mut n = Node::new(Config::default());
        for (lost, factor) in [(0u64, 1u64), (1, 2), (2, 4), (3, 8), (4, 8), (9, 8)] {
            n.election_backoff = 0;
            for _ in 0..lost {
                n.lose_election();
            }
            let d = n.election_delay_us();
            assert!((225000 * factor..=300000 * factor).contains(&d), "lost {lost}: {d}");
        }
        let commit = br#"{"type":"message","msg":{"type":"commit_request","from":1,"to":0,"channel_id":1,"ballot":257,"last_executed":0,"global_last_executed":0}}"#;
        n.step_json(commit);
        assert_eq!(n.election_backoff, 0);
    }

    #[test]
    fn election_delay_stays_in_range() {
        let mut n = Node::new(Config::default());
        for _ in 0..10000 {
            let d = n.election_delay_us();
            assert!((225_000..=300_000).contains(&d), "delay {d} outside [1.5, 2] commit intervals");
        }
    }

    #[test]
    fn trace_off_emits_no_trace_records() {
        let mut n = Node::new(Config { num_peers: 1, trace: false, ..Config::default() });
        let effects = n.step(Event::Timer(TimerName::Election)).to_vec();
        assert!(n.is_leader());
        assert!(!effects.is_empty());
        assert!(effects.iter().all(|e| !matches!(e, Effect::Trace(_))), "{effects:?}");
    }

    #[test]
    fn inspect_of_a_fresh_node() {
        let n = Node::new(Config { id: 1, ..Config::default() });
        assert_eq!(
            String::from_utf8(n.inspect()).unwrap(),
            concat!(
                r#"{"id":1,"num_peers":3,"role":"follower","ballot":15,"leader":null,"commit_received":false,"#,
                r#""last_index":0,"last_executed":0,"global_last_executed":0,"log":[],"#,
                r#""kv":{"size":0,"digest":"0000000000000000","entries":[]},"prepare":null,"accepts":[],"#,
                r#""replay_remaining":0,"commit_round":null,"commit_gle":0,"#,
                r#""counters":{"events":0,"messages_in":0,"messages_out":0,"client_commands":0,"replies":0,"#,
                r#""executed":0,"elections":0,"bad_events":0,"stale_responses":0,"accept_timeouts":0,"violations":0}}"#
            )
        );
    }
}
