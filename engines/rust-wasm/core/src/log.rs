//! The MultiPaxos log: the merge rule, commit, trim.

use crate::command::Command;
use crate::instance::{Instance, InstanceState};
use std::collections::BTreeMap;

/// What happened to a slot during a log operation, so that the protocol can turn it into a
/// trace record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogChangeKind {
    /// A slot was filled, replaced or committed.
    Stored,
    /// commit_until met an instance of an older ballot.
    Stale,
    /// A safety check failed.
    Violation,
}

/// Violation reasons, as they appear in trace records.
pub const REASON_COMMAND_MISMATCH: &str = "command_mismatch";
pub const REASON_HIGHER_BALLOT: &str = "higher_ballot";

/// The slot's index, ballot and state after the change (for `Stale`: the stale instance's);
/// that is all a trace record needs, so no command is copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogChange {
    pub kind: LogChangeKind,
    pub index: u64,
    pub ballot: u64,
    pub state: InstanceState,
    /// For `Violation`.
    pub reason: &'static str,
}

impl LogChange {
    pub fn new(kind: LogChangeKind, inst: &Instance, reason: &'static str) -> LogChange {
        LogChange { kind, index: inst.index, ballot: inst.ballot, state: inst.state, reason }
    }
}

/// The result of the merge rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertOutcome {
    Kept,
    Stored,
    Violation,
}

/// A slot map in ascending index order (the order every listing of it needs).
pub type Slots = BTreeMap<u64, Instance>;

fn same_command(a: &Command, b: &Command) -> bool {
    a == b
}

/// Applies the merge rule of docs/protocol.md to one slot of `m`. A differing command is a
/// violation only where Paxos forbids it: two chosen (committed or executed) commands, equal
/// ballots, or a higher ballot carrying another command than the chosen one. A stale
/// in-progress instance of a lower ballot may differ (it was never chosen).
pub fn insert_into(m: &mut Slots, inst: Instance) -> InsertOutcome {
    use std::collections::btree_map::Entry;
    let mut e = match m.entry(inst.index) {
        Entry::Vacant(e) => {
            e.insert(inst);
            return InsertOutcome::Stored;
        }
        Entry::Occupied(e) => e,
    };
    let stored = e.get_mut();
    let same = same_command(&stored.command, &inst.command);
    let incoming_chosen = is_chosen(inst.state);
    if is_chosen(stored.state) {
        if !same && (incoming_chosen || inst.ballot >= stored.ballot) {
            return InsertOutcome::Violation;
        }
        return InsertOutcome::Kept;
    }
    if inst.ballot > stored.ballot {
        *stored = inst;
        return InsertOutcome::Stored;
    }
    if !same && (inst.ballot == stored.ballot || incoming_chosen) {
        return InsertOutcome::Violation;
    }
    InsertOutcome::Kept
}

fn is_chosen(state: InstanceState) -> bool {
    state == InstanceState::Committed || state == InstanceState::Executed
}

/// The MultiPaxos log: slots by index and the three counters of the protocol.
#[derive(Default)]
pub struct Log {
    instances: Slots,
    last_index: u64,
    last_executed: u64,
    global_last_executed: u64,
}

impl Log {
    pub fn new() -> Log {
        Log::default()
    }

    /// The first broken log invariant, if any.
    pub fn check_invariants(&self) -> std::result::Result<(), String> {
        if self.last_executed > self.last_index {
            return Err("last_executed > last_index".into());
        }
        if self.global_last_executed > self.last_executed {
            return Err("gle > last_executed".into());
        }
        for (&index, inst) in &self.instances {
            if index <= self.global_last_executed {
                return Err(format!("index {index} stored at or below gle"));
            }
            if inst.state == InstanceState::Executed && index > self.last_executed {
                return Err(format!("index {index} executed beyond last_executed"));
            }
        }
        Ok(())
    }

    /// Breaks the log on purpose, so a test can show the invariant check fires.
    #[cfg(test)]
    pub(crate) fn corrupt_for_test(&mut self, last_executed: u64, global_last_executed: u64) {
        self.last_executed = last_executed;
        self.global_last_executed = global_last_executed;
    }

    pub fn last_index(&self) -> u64 {
        self.last_index
    }
    pub fn last_executed(&self) -> u64 {
        self.last_executed
    }
    pub fn global_last_executed(&self) -> u64 {
        self.global_last_executed
    }
    pub fn len(&self) -> usize {
        self.instances.len()
    }
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }

    /// Raises last_index (a new leader keeps the maximum it has seen).
    pub fn set_last_index_at_least(&mut self, i: u64) {
        if i > self.last_index {
            self.last_index = i;
        }
    }

    /// Reserves the next index for a new command.
    pub fn advance_last_index(&mut self) -> u64 {
        self.last_index += 1;
        self.last_index
    }

    /// Puts a slot back exactly as a durable record holds it (restart only; see durability.rs).
    pub fn restore(&mut self, inst: Instance) {
        self.set_last_index_at_least(inst.index);
        self.instances.insert(inst.index, inst);
    }

    /// Drops every slot up to `last_executed` and moves the counters there (a snapshot was
    /// installed; see snapshot.rs).
    pub fn install_snapshot(&mut self, last_executed: u64) {
        self.instances.retain(|&index, _| index > last_executed);
        self.last_executed = last_executed;
        self.global_last_executed = last_executed;
        self.set_last_index_at_least(last_executed);
    }

    /// Stores `inst` by the merge rule; indices already trimmed are ignored.
    pub fn append(&mut self, inst: Instance, out: &mut Vec<LogChange>) {
        if inst.index <= self.global_last_executed {
            return;
        }
        let index = inst.index;
        let change = LogChange::new(LogChangeKind::Stored, &inst, "");
        match insert_into(&mut self.instances, inst) {
            InsertOutcome::Stored => {
                self.set_last_index_at_least(index);
                out.push(change);
            }
            InsertOutcome::Violation => {
                out.push(LogChange { kind: LogChangeKind::Violation, reason: REASON_COMMAND_MISMATCH, ..change });
            }
            InsertOutcome::Kept => {}
        }
    }

    /// Marks an in-progress slot committed.
    pub fn commit(&mut self, index: u64, out: &mut Vec<LogChange>) {
        if let Some(inst) = self.instances.get_mut(&index) {
            if inst.state == InstanceState::InProgress {
                inst.state = InstanceState::Committed;
                out.push(LogChange::new(LogChangeKind::Stored, inst, ""));
            }
        }
    }

    /// Commits, up to the leader's last_executed, the slots written under the leader's ballot;
    /// stops at the first gap.
    pub fn commit_until(&mut self, leader_last_executed: u64, ballot: u64, out: &mut Vec<LogChange>) {
        let mut i = self.last_executed + 1;
        while i <= leader_last_executed {
            let Some(inst) = self.instances.get_mut(&i) else { return };
            if inst.ballot > ballot {
                out.push(LogChange::new(LogChangeKind::Violation, inst, REASON_HIGHER_BALLOT));
                return;
            }
            if inst.ballot < ballot {
                out.push(LogChange::new(LogChangeKind::Stale, inst, ""));
            } else if inst.state == InstanceState::InProgress {
                inst.state = InstanceState::Committed;
                out.push(LogChange::new(LogChangeKind::Stored, inst, ""));
            }
            i += 1;
        }
    }

    /// The slot after last_executed, if it is committed.
    pub fn next_executable(&self) -> Option<&Instance> {
        self.instances.get(&(self.last_executed + 1)).filter(|inst| inst.state == InstanceState::Committed)
    }

    /// Records that the slot after last_executed was applied.
    pub fn mark_executed(&mut self) {
        self.last_executed += 1;
        if let Some(inst) = self.instances.get_mut(&self.last_executed) {
            inst.state = InstanceState::Executed;
        }
    }

    /// Drops executed slots up to min(g, last_executed); reports whether gle moved.
    pub fn trim_until(&mut self, g: u64) -> bool {
        let t = g.min(self.last_executed);
        if t <= self.global_last_executed {
            return false;
        }
        // Keep the slots above t; everything at or below it goes.
        self.instances = self.instances.split_off(&(t + 1));
        self.global_last_executed = t;
        true
    }

    /// The slot at `index`.
    pub fn get(&self, index: u64) -> Option<&Instance> {
        self.instances.get(&index)
    }

    /// Every stored slot in ascending index order.
    pub fn instances(&self) -> impl Iterator<Item = &Instance> {
        self.instances.values()
    }

    /// A copy of the slots (a candidate's merged log starts from its own).
    pub fn copy(&self) -> Slots {
        self.instances.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::CommandType;

    fn inst(index: u64, ballot: u64, state: InstanceState, value: &str) -> Instance {
        Instance {
            ballot,
            index,
            client_id: 0,
            request_id: 0,
            state,
            command: Command { typ: CommandType::Put, key: "k".into(), value: value.into() },
        }
    }
    use InstanceState::*;

    #[test]
    fn merge_rule() {
        let mut m = Slots::new();
        // 1. an empty slot is filled
        assert_eq!(insert_into(&mut m, inst(1, 0x101, InProgress, "a")), InsertOutcome::Stored);
        // 3. a higher ballot replaces an in-progress slot, whatever its command
        assert_eq!(insert_into(&mut m, inst(1, 0x202, InProgress, "b")), InsertOutcome::Stored);
        assert_eq!(m[&1].command.value, "b");
        // 4. a lower in-progress ballot is ignored, whatever its command (never chosen)
        assert_eq!(insert_into(&mut m, inst(1, 0x101, InProgress, "c")), InsertOutcome::Kept);
        assert_eq!(m[&1].ballot, 0x202);
        // ... but a lower ballot that was chosen with another command is a violation
        assert_eq!(insert_into(&mut m, inst(1, 0x101, Committed, "c")), InsertOutcome::Violation);
        assert_eq!(insert_into(&mut m, inst(1, 0x101, Executed, "b")), InsertOutcome::Kept);
        // 4. equal ballots: same command kept, different command is a violation
        assert_eq!(insert_into(&mut m, inst(1, 0x202, InProgress, "b")), InsertOutcome::Kept);
        assert_eq!(insert_into(&mut m, inst(1, 0x202, InProgress, "x")), InsertOutcome::Violation);
        assert_eq!(m[&1].command.value, "b");
        // 2. a chosen slot is never replaced, even by a higher ballot
        m.get_mut(&1).unwrap().state = Committed;
        assert_eq!(insert_into(&mut m, inst(1, 0x303, InProgress, "b")), InsertOutcome::Kept);
        // a higher ballot must carry the chosen command
        assert_eq!(insert_into(&mut m, inst(1, 0x303, InProgress, "y")), InsertOutcome::Violation);
        assert_eq!(insert_into(&mut m, inst(1, 0x202, InProgress, "y")), InsertOutcome::Violation);
        // a stale in-progress instance of a lower ballot may differ: kept, no violation
        assert_eq!(insert_into(&mut m, inst(1, 0x101, InProgress, "stale")), InsertOutcome::Kept);
        // two chosen commands that differ, whatever the ballots
        m.get_mut(&1).unwrap().state = Executed;
        assert_eq!(insert_into(&mut m, inst(1, 0x101, Committed, "z")), InsertOutcome::Violation);
        assert_eq!(insert_into(&mut m, inst(1, 0x101, Executed, "b")), InsertOutcome::Kept);
        assert_eq!(m[&1], inst(1, 0x202, Executed, "b"));
    }

    #[test]
    fn append_ignores_trimmed_indices_and_raises_last_index() {
        let mut log = Log::new();
        let mut out = Vec::new();
        log.append(inst(5, 0x101, InProgress, "a"), &mut out);
        assert_eq!(log.last_index(), 5);
        assert_eq!(out, vec![LogChange { kind: LogChangeKind::Stored, index: 5, ballot: 0x101, state: InProgress, reason: "" }]);
        out.clear();
        log.append(inst(5, 0x101, InProgress, "b"), &mut out);
        assert_eq!(out[0].kind, LogChangeKind::Violation);
        assert_eq!(out[0].reason, REASON_COMMAND_MISMATCH);
        // execute 1..=2 and trim them; appends at or below gle vanish
        out.clear();
        for i in 1..=2 {
            log.append(inst(i, 0x101, InProgress, "a"), &mut out);
            log.commit(i, &mut out);
            assert!(log.next_executable().is_some());
            log.mark_executed();
        }
        assert!(log.trim_until(2));
        out.clear();
        log.append(inst(2, 0x202, InProgress, "late"), &mut out);
        assert!(out.is_empty());
        assert!(log.get(2).is_none());
        assert_eq!(log.last_index(), 5);
    }

    #[test]
    fn commit_until_stops_at_gaps_and_reports_stale_instances() {
        let mut log = Log::new();
        let mut out = Vec::new();
        log.append(inst(1, 0x202, InProgress, "a"), &mut out);
        log.append(inst(2, 0x101, InProgress, "b"), &mut out); // written under an older leader
        log.append(inst(3, 0x202, InProgress, "c"), &mut out);
        log.append(inst(5, 0x202, InProgress, "e"), &mut out); // 4 is a gap
        out.clear();
        log.commit_until(10, 0x202, &mut out);
        let kinds: Vec<_> = out.iter().map(|c| (c.kind, c.index)).collect();
        assert_eq!(
            kinds,
            vec![(LogChangeKind::Stored, 1), (LogChangeKind::Stale, 2), (LogChangeKind::Stored, 3)]
        );
        assert_eq!(log.get(2).unwrap().state, InProgress);
        assert_eq!(log.get(5).unwrap().state, InProgress);
        // a higher ballot than the leader's stops the loop as a violation
        let mut log = Log::new();
        log.append(inst(1, 0x303, InProgress, "a"), &mut out);
        log.append(inst(2, 0x202, InProgress, "b"), &mut out);
        out.clear();
        log.commit_until(2, 0x202, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].kind, out[0].reason), (LogChangeKind::Violation, REASON_HIGHER_BALLOT));
        assert_eq!(log.get(2).unwrap().state, InProgress);
        // commit_until only looks from last_executed + 1 up to the leader's last_executed
        out.clear();
        log.commit_until(0, 0x303, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn trim_clamps_to_last_executed() {
        let mut log = Log::new();
        let mut out = Vec::new();
        // a freshly restarted node: empty log, cannot claim anything executed
        assert!(!log.trim_until(10));
        assert_eq!(log.global_last_executed(), 0);
        for i in 1..=4 {
            log.append(inst(i, 0x101, InProgress, "a"), &mut out);
        }
        for i in 1..=3 {
            log.commit(i, &mut out);
            log.mark_executed();
        }
        assert!(log.trim_until(100)); // clamped to last_executed = 3
        assert_eq!(log.global_last_executed(), 3);
        assert_eq!(log.len(), 1);
        assert_eq!(log.instances().map(|i| i.index).collect::<Vec<_>>(), vec![4]);
        assert!(!log.trim_until(2)); // never goes back
        assert_eq!(log.global_last_executed(), 3);
        assert!(!log.trim_until(3));
    }

    #[test]
    fn commit_only_changes_in_progress_slots() {
        let mut log = Log::new();
        let mut out = Vec::new();
        log.commit(1, &mut out);
        assert!(out.is_empty());
        log.append(inst(1, 0x101, InProgress, "a"), &mut out);
        out.clear();
        log.commit(1, &mut out);
        assert_eq!(out.len(), 1);
        log.commit(1, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(log.next_executable().map(|i| i.index), Some(1));
        log.mark_executed();
        assert_eq!(log.get(1).unwrap().state, Executed);
        assert!(log.next_executable().is_none());
    }
}
