//! `Node::inspect`: the node's whole state as canonical JSON (docs/protocol.md, "Inspect").

use crate::ballot::{leader_of, NO_LEADER};
use crate::codec::{append_hex16, append_instance, append_kv_entries};
use crate::json::{append_bool_field, append_field, append_string_field, append_uint, append_uint_field};
use crate::node::Node;

/// How many KV entries (in ascending key order) `inspect` lists.
pub const INSPECT_KV_ENTRIES: usize = 64;

impl Node {
    /// The node's whole state as one canonical JSON object.
    pub fn inspect(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(1024);
        b.push(b'{');
        append_uint_field(&mut b, "id", self.cfg.id, true);
        append_uint_field(&mut b, "num_peers", self.cfg.num_peers, false);
        let role = if self.is_leader() {
            "leader"
        } else if self.prepare.is_some() {
            "candidate"
        } else {
            "follower"
        };
        append_string_field(&mut b, "role", role, false);
        append_uint_field(&mut b, "ballot", self.ballot, false);
        append_field(&mut b, "leader", false);
        match leader_of(self.ballot) {
            NO_LEADER => b.extend_from_slice(b"null"),
            l => append_uint(&mut b, l),
        }
        append_bool_field(&mut b, "commit_received", self.commit_received, false);
        append_uint_field(&mut b, "last_index", self.log.last_index(), false);
        append_uint_field(&mut b, "last_executed", self.log.last_executed(), false);
        append_uint_field(&mut b, "global_last_executed", self.log.global_last_executed(), false);

        append_field(&mut b, "log", false);
        b.push(b'[');
        for (i, inst) in self.log.instances().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            append_instance(&mut b, inst);
        }
        b.push(b']');

        append_field(&mut b, "kv", false);
        b.push(b'{');
        append_uint_field(&mut b, "size", self.kv.size() as u64, true);
        append_field(&mut b, "digest", false);
        b.push(b'"');
        append_hex16(&mut b, self.kv.digest());
        b.push(b'"');
        append_field(&mut b, "entries", false);
        append_kv_entries(&mut b, &self.kv.first_entries(INSPECT_KV_ENTRIES));
        b.push(b'}');

        append_field(&mut b, "prepare", false);
        match &self.prepare {
            None => b.extend_from_slice(b"null"),
            Some(p) => {
                b.push(b'{');
                append_uint_field(&mut b, "ballot", p.ballot, true);
                append_uint_field(&mut b, "channel_id", p.channel_id, false);
                append_uint_field(&mut b, "promises", p.promises, false);
                b.push(b'}');
            }
        }

        append_field(&mut b, "accepts", false);
        b.push(b'[');
        for (i, ph) in self.accepts.values().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            b.push(b'{');
            append_uint_field(&mut b, "channel_id", ph.channel_id, true);
            append_uint_field(&mut b, "index", ph.instance.index, false);
            append_uint_field(&mut b, "votes", ph.votes, false);
            append_uint_field(&mut b, "ticks", ph.ticks, false);
            append_bool_field(&mut b, "client", ph.client.is_some(), false);
            b.push(b'}');
        }
        b.push(b']');

        append_uint_field(&mut b, "replay_remaining", self.replay_queue.len() as u64, false);
        append_field(&mut b, "commit_round", false);
        match &self.commit_round {
            None => b.extend_from_slice(b"null"),
            Some(r) => {
                b.push(b'{');
                append_uint_field(&mut b, "channel_id", r.channel_id, true);
                append_uint_field(&mut b, "answered", r.answered_count, false);
                b.push(b'}');
            }
        }
        append_uint_field(&mut b, "commit_gle", self.commit_gle, false);

        let c = &self.counters;
        append_field(&mut b, "counters", false);
        b.push(b'{');
        append_uint_field(&mut b, "events", c.events, true);
        append_uint_field(&mut b, "messages_in", c.messages_in, false);
        append_uint_field(&mut b, "messages_out", c.messages_out, false);
        append_uint_field(&mut b, "client_commands", c.client_commands, false);
        append_uint_field(&mut b, "replies", c.replies, false);
        append_uint_field(&mut b, "executed", c.executed, false);
        append_uint_field(&mut b, "elections", c.elections, false);
        append_uint_field(&mut b, "bad_events", c.bad_events, false);
        append_uint_field(&mut b, "stale_responses", c.stale_responses, false);
        append_uint_field(&mut b, "accept_timeouts", c.accept_timeouts, false);
        append_uint_field(&mut b, "violations", c.violations, false);
        b.extend_from_slice(b"}}");
        b
    }
}
