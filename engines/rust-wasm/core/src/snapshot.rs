//! State transfer (docs/protocol.md, "State transfer"): a follower that needs entries the
//! leader has already trimmed (a restarted empty node, a wiped one, one partitioned for long)
//! gets the leader's KV store at its last_executed instead, and the leader's repair sends the
//! entries after it. Part of repair: only with repair_batch > 0. Mirrors
//! engines/go-wasm/core/snapshot.go.

use crate::command::{Command, CommandType, Result, ResultType};
use crate::kvstore::{KVEntries, KVStore};
use crate::types::Record;
use crate::messages::{Message, MessageType, Trace, TraceKind};
use crate::node::Node;

impl Node {
    /// Sends `peer` the leader's whole KV store, at the leader's last_executed.
    pub(crate) fn send_snapshot(&mut self, peer: u64) {
        let last_executed = self.log.last_executed();
        self.trace(Trace { kind: TraceKind::SnapshotSent, leader: peer, index: last_executed, ..Trace::default() });
        self.next_channel_id += 1;
        let kv: KVEntries =
            self.kv.first_entries(self.kv.size()).into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let m = Message {
            typ: MessageType::Snapshot,
            from: self.cfg.id,
            to: peer,
            channel_id: self.next_channel_id,
            ballot: self.ballot,
            last_executed,
            kv,
            ..Message::default()
        };
        self.send(m);
    }

    /// Installs a leader's snapshot that is ahead of this node: the KV store is replaced,
    /// every slot up to its last_executed dropped, and last_executed and gle set to it. A
    /// request that waited for a dropped slot is told to retry: its slot's command may differ.
    pub(crate) fn on_snapshot(&mut self, m: Message) {
        // The snapshot's ballot does not matter to a node that does not lead: it is chosen
        // state, and a node that followed a higher ballot than its sender's would otherwise
        // stay behind the trim point for good (issue 20; docs/protocol.md, "State transfer").
        if m.last_executed <= self.log.last_executed() || (m.ballot < self.ballot && self.is_leader()) {
            self.counters.stale_responses += 1;
            return;
        }
        if m.ballot > self.ballot {
            self.become_follower(m.ballot);
        }
        self.install_snapshot(m.last_executed, &m.kv);
        self.trace(Trace { kind: TraceKind::SnapshotInstalled, index: m.last_executed, ..Trace::default() });
        if self.durable() {
            self.dur.records.push(Record::Snapshot { last_executed: m.last_executed, kv: m.kv });
        }
        let dropped: Vec<u64> = self.awaiting.range(..=m.last_executed).map(|(&i, _)| i).collect();
        for index in dropped {
            if let Some(c) = self.awaiting.remove(&index) {
                self.reply(c, Result::of(ResultType::Retry));
            }
        }
        self.execute();
    }

    pub(crate) fn install_snapshot(&mut self, last_executed: u64, kv: &[(String, String)]) {
        self.kv = KVStore::new();
        for (key, value) in kv {
            self.kv.apply(&Command { typ: CommandType::Put, key: key.clone(), value: value.clone() });
        }
        self.log.install_snapshot(last_executed);
    }
}
