//! Durability (docs/protocol.md, "Durability"): in `log` mode the core names what must be on
//! disk (persist effects) and keeps every message and reply back until the driver reports
//! that everything persisted so far is there. The core never touches a disk; a restarted
//! node is handed its records in a `restart` event. Mirrors engines/go-wasm/core/durability.go.

use crate::ballot::{leader_of, NO_LEADER};
use crate::instance::{Instance, InstanceState};
use crate::messages::{Effect, TimerName, Trace, TraceKind};
use crate::node::Node;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// The paper's design: nothing survives a restart.
    #[default]
    None,
    /// Promises and accepted instances are persisted before anything reveals them.
    Log,
}

impl Durability {
    pub fn name(self) -> &'static str {
        match self {
            Durability::None => "none",
            Durability::Log => "log",
        }
    }
}

/// One durable record: what a persist effect asks for and a restart hands back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// The node's ballot: it accepts nothing below.
    Promise(u64),
    /// A log slot as stored (in progress or committed).
    Instance(Instance),
    /// An installed snapshot: the KV store at last_executed.
    Snapshot { last_executed: u64, kv: Vec<(String, String)> },
    /// The node's own snapshot, first in a batch that also holds every slot after
    /// last_executed: with its ballot, the batch supersedes every record written before it.
    Checkpoint { ballot: u64, last_executed: u64, kv: Vec<(String, String)> },
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

impl Node {
    pub(crate) fn durable(&self) -> bool {
        self.cfg.durability == Durability::Log
    }

    /// Notes a stored slot for this step's persist effect. A slot stored and then committed in
    /// the same step is written once, as its later form.
    pub(crate) fn record_instance(&mut self, inst: &Instance) {
        if !self.durable() {
            return;
        }
        if let Some(Record::Instance(last)) = self.dur.records.last_mut() {
            if last.index == inst.index {
                *last = inst.clone();
                return;
            }
        }
        self.dur.records.push(Record::Instance(inst.clone()));
    }

    /// Ends a step in `log` mode: a changed ballot becomes a promise record (first in the
    /// batch), the records become one persist effect, and while any persist is outstanding
    /// every send and reply of the step waits for the newest one.
    pub(crate) fn finish_durable_step(&mut self) {
        if self.checkpoint_due() {
            self.take_checkpoint();
        } else if self.ballot != self.dur.recorded_ballot {
            self.dur.records.insert(0, Record::Promise(self.ballot));
            self.dur.recorded_ballot = self.ballot;
        }
        if !self.dur.records.is_empty() {
            self.dur.issued_id += 1;
        }
        if self.dur.issued_id > self.dur.done_id {
            let id = self.dur.issued_id;
            let effects = std::mem::take(&mut self.effects);
            for e in effects {
                if matches!(e, Effect::Send(_) | Effect::Reply { .. }) {
                    self.dur.held.push((id, e));
                } else {
                    self.effects.push(e);
                }
            }
        }
        if !self.dur.records.is_empty() {
            let records = std::mem::take(&mut self.dur.records);
            self.effects.push(Effect::Persist { persist_id: self.dur.issued_id, records });
        }
    }

    /// snapshot_every instances were executed since the last checkpoint.
    fn checkpoint_due(&self) -> bool {
        let every = self.cfg.snapshot_every;
        every > 0 && self.log.last_executed() >= self.dur.checkpointed_at + every
    }

    /// Replaces this step's records by a checkpoint: the ballot and the KV store at
    /// last_executed, then every slot after it as stored. Everything the step recorded is in
    /// it, and so is everything recorded before, so a driver may drop every earlier record
    /// once it is written.
    fn take_checkpoint(&mut self) {
        let le = self.log.last_executed();
        let kv = self.kv.first_entries(self.kv.size()).into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut records = vec![Record::Checkpoint { ballot: self.ballot, last_executed: le, kv }];
        records.extend(self.log.instances().filter(|i| i.index > le).map(|i| Record::Instance(i.clone())));
        self.dur.records = records;
        self.dur.recorded_ballot = self.ballot;
        self.dur.checkpointed_at = le;
    }

    /// Releases, in their original order, the effects that waited for persists up to `id`.
    /// Persists complete in the order they were issued, so one id covers all before it.
    pub(crate) fn on_persisted(&mut self, id: u64) {
        if id == 0 || id > self.dur.issued_id {
            self.bad_event();
            return;
        }
        if id <= self.dur.done_id {
            return; // already reported
        }
        self.dur.done_id = id;
        let released = self.dur.held.iter().take_while(|(p, _)| *p <= id).count();
        for (_, e) in self.dur.held.drain(..released) {
            self.effects.push(e);
        }
    }

    /// The semantic checks of a peer message, applied to a record read back from disk.
    fn valid_record(&self, r: &Record) -> bool {
        let num = self.cfg.num_peers;
        match r {
            Record::Promise(b) => leader_of(*b) < num || leader_of(*b) == NO_LEADER,
            Record::Instance(inst) => {
                inst.index >= 1 && leader_of(inst.ballot) < num && inst.state != InstanceState::Executed
            }
            Record::Snapshot { kv, .. } => crate::snapshot::valid_kv_entries(kv),
            Record::Checkpoint { ballot, kv, .. } => {
                (leader_of(*ballot) < num || leader_of(*ballot) == NO_LEADER) && crate::snapshot::valid_kv_entries(kv)
            }
        }
    }

    /// Boots the node from its persisted records: the highest promise, the slots as last
    /// stored (a later record of a slot replaces an earlier one), then the executor replays
    /// the committed prefix into the KV store. A node that led comes back leading nobody, at
    /// its round, so it cannot send under a ballot it may have used before the crash.
    pub(crate) fn on_restart(&mut self, records: Vec<Record>) {
        if self.dur.started || !records.iter().all(|r| self.valid_record(r)) {
            self.bad_event();
            return;
        }
        self.dur.started = true;
        let count = records.len() as u64;
        let mut ballot = self.ballot;
        for r in records {
            match r {
                Record::Promise(b) => ballot = ballot.max(b),
                Record::Instance(inst) => {
                    ballot = ballot.max(inst.ballot);
                    if inst.index > self.log.global_last_executed() {
                        self.log.restore(inst); // not inside an installed snapshot
                    }
                }
                Record::Snapshot { last_executed, kv } => {
                    if last_executed > self.log.last_executed() {
                        self.install_snapshot(last_executed, &kv);
                    }
                }
                Record::Checkpoint { ballot: b, last_executed, kv } => {
                    if last_executed > self.log.last_executed() {
                        self.install_snapshot(last_executed, &kv);
                    }
                    ballot = ballot.max(b);
                }
            }
        }
        if leader_of(ballot) == self.cfg.id {
            ballot = (ballot & !0xff) | NO_LEADER; // above the recorded one: no new record needed
        }
        self.ballot = ballot;
        self.dur.recorded_ballot = ballot;
        let last_index = self.log.last_index();
        self.trace(Trace { kind: TraceKind::Recovered, ballot, last_index, count, ..Trace::default() });
        self.execute();
        self.dur.checkpointed_at = self.log.last_executed();
        let delay = self.election_delay_us();
        self.set_timer(TimerName::Election, delay);
    }

    pub(crate) fn check_durable_invariants(&self) {
        let d = &self.dur;
        if d.done_id > d.issued_id {
            panic!("invariant: node {}: persist done beyond the last issued", self.cfg.id);
        }
        if let (Some(first), Some(last)) = (d.held.first(), d.held.last()) {
            if first.0 <= d.done_id || last.0 > d.issued_id {
                panic!("invariant: node {}: a held effect waits for a persist already done or never issued", self.cfg.id);
            }
        }
        if !self.durable() && (d.issued_id != 0 || !d.held.is_empty()) {
            panic!("invariant: node {}: persist state in durability none", self.cfg.id);
        }
        if self.durable() && d.recorded_ballot != self.ballot {
            panic!("invariant: node {}: the ballot is not recorded", self.cfg.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::codec::decode_config;
    use crate::node::{Node, CHECK_INVARIANTS};
    use std::sync::atomic::Ordering;

    fn durable_node() -> Node {
        CHECK_INVARIANTS.store(true, Ordering::Relaxed);
        Node::new(decode_config(br#"{"id":0,"num_peers":1,"seed":1,"durability":"log"}"#).unwrap())
    }

    fn step(n: &mut Node, ev: &str) -> String {
        String::from_utf8(n.step_json(ev.as_bytes()).to_vec()).unwrap()
    }

    #[test]
    fn a_reply_waits_for_its_persist() {
        let mut n = durable_node();
        step(&mut n, r#"{"type":"start"}"#);
        step(&mut n, r#"{"type":"timer","timer":"election"}"#);
        let out = step(&mut n, r#"{"type":"client","client_id":1,"request_id":1,"line":"put k v"}"#);
        assert!(!out.contains(r#""reply""#) && out.contains(r#""persist_id":2"#), "{out}");
        assert_eq!(step(&mut n, r#"{"type":"persisted","persist_id":1}"#), "");
        assert!(step(&mut n, r#"{"type":"persisted","persist_id":2}"#).contains(r#""reply""#));
    }

    #[test]
    fn a_restart_keeps_the_promise_and_the_executed_prefix() {
        let mut n = durable_node();
        let out = step(
            &mut n,
            concat!(
                r#"{"type":"restart","records":[{"kind":"promise","ballot":512},"#,
                r#"{"kind":"instance","instance":{"ballot":512,"index":1,"client_id":1,"request_id":1,"state":"committed","command":{"type":"put","key":"k","value":"v"}}}]}"#
            ),
        );
        assert!(out.contains(r#""kind":"recovered","ballot":527"#), "{out}");
        assert_eq!((n.log.last_executed(), n.kv.size()), (1, 1));
        assert!(step(&mut n, r#"{"type":"restart","records":[]}"#).contains("bad_event"));
    }

    #[test]
    fn an_unknown_durability_is_refused() {
        assert!(decode_config(br#"{"id":0,"num_peers":1,"seed":1,"durability":"disk"}"#).is_err());
    }
}
