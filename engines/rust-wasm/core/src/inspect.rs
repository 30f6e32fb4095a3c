//! `Node::inspect`: the node's whole state as canonical JSON (docs/protocol.md, "Inspect");
//! `Node::status_fields`: the few of its fields a server's status line reports.

use crate::ballot::{leader_of, NO_LEADER};
use crate::codec::{append_hex16, append_instance, append_kv_entries};
use crate::json::{append_bool_field, append_field, append_string_field, append_uint, append_uint_field};
use crate::node::Node;

/// How many KV entries (in ascending key order) `inspect` lists.
pub const INSPECT_KV_ENTRIES: usize = 64;

impl Node {
    /// The few figures a server's status line reports, in inspect's spelling, without the log,
    /// the KV entries or anything else that grows with the state: the server builds a status
    /// line while holding the core's lock (ten times a second in the reset tests), and the whole
    /// inspect view made that hold grow with the log and walk the store.
    pub fn status_fields(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(192);
        b.push(b'{');
        self.append_role_ballot_leader(&mut b, true);
        append_uint_field(&mut b, "last_index", self.log.last_index(), false);
        append_uint_field(&mut b, "last_executed", self.log.last_executed(), false);
        append_uint_field(&mut b, "global_last_executed", self.log.global_last_executed(), false);
        append_uint_field(&mut b, "replay_remaining", self.replay_queue.len() as u64, false);
        append_uint_field(&mut b, "elections", self.counters.elections, false);
        b.push(b'}');
        b
    }

    /// "role", "ballot" and "leader" (null while there is none), as inspect spells them.
    fn append_role_ballot_leader(&self, b: &mut Vec<u8>, first: bool) {
        let role = if self.is_leader() {
            "leader"
        } else if self.prepare.is_some() {
            "candidate"
        } else {
            "follower"
        };
        append_string_field(b, "role", role, first);
        append_uint_field(b, "ballot", self.ballot, false);
        append_field(b, "leader", false);
        match leader_of(self.ballot) {
            NO_LEADER => b.extend_from_slice(b"null"),
            l => append_uint(b, l),
        }
    }

    /// The node's whole state as one canonical JSON object.
    pub fn inspect(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(1024);
        b.push(b'{');
        append_uint_field(&mut b, "id", self.cfg.id, true);
        append_uint_field(&mut b, "num_peers", self.cfg.num_peers, false);
        self.append_role_ballot_leader(&mut b, false);
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

#[cfg(test)]
mod tests {
    use crate::json::{parse_json, JsonValue};
    use crate::messages::{Event, TimerName};
    use crate::node::tests::{client, TestCluster};
    use crate::node::Node;

    /// The scalar at `key` of a JSON object as text (a number, a string or null), "absent" when
    /// there is none, so that null leaders compare too.
    fn scalar(object: &JsonValue<'_>, key: &str) -> String {
        let JsonValue::Object(fields) = object else { panic!("not an object: {object:?}") };
        match fields.iter().find(|(name, _)| name.as_ref() == key.as_bytes()).map(|(_, v)| v) {
            None => "absent".into(),
            Some(JsonValue::Null) => "null".into(),
            Some(JsonValue::Number(n)) => n.to_string(),
            Some(JsonValue::String(s)) => format!("\"{}\"", String::from_utf8_lossy(s)),
            Some(other) => panic!("{key} is not a scalar: {other:?}"),
        }
    }

    fn assert_agrees_with_inspect(n: &Node) {
        let (inspect, status) = (n.inspect(), n.status_fields());
        let whole = parse_json(&inspect).expect("inspect parses");
        let fields = parse_json(&status).expect("status fields parse");
        for key in ["role", "ballot", "leader", "last_index", "last_executed", "global_last_executed", "replay_remaining"] {
            assert_eq!(scalar(&whole, key), scalar(&fields, key), "n{} {key}", n.cfg.id);
        }
        let JsonValue::Object(top) = &whole else { unreachable!() };
        let counters = &top.iter().find(|(name, _)| name.as_ref() == b"counters").expect("counters").1;
        assert_eq!(scalar(counters, "elections"), scalar(&fields, "elections"), "n{} elections", n.cfg.id);
    }

    #[test]
    fn status_fields_agree_with_inspect_as_follower_candidate_and_leader() {
        let mut c = TestCluster::new(3);
        c.nodes.iter().for_each(assert_agrees_with_inspect); // no leader yet
        c.nodes[1].step(Event::Timer(TimerName::Election)); // its prepare never delivered
        assert!(c.nodes[1].prepare.is_some() && !c.nodes[1].is_leader());
        assert_agrees_with_inspect(&c.nodes[1]);
        c.run(1, Event::Timer(TimerName::Election));
        assert!(c.nodes[1].is_leader());
        for i in 1..=40 {
            c.nodes[1].step(client(7, &format!("put k{i} v{i}"))); // accepts left in flight
        }
        c.nodes.iter().for_each(assert_agrees_with_inspect);
        c.run(1, Event::Timer(TimerName::Commit));
        for i in 1..=40 {
            c.run(1, client(8, &format!("put j{i} v{i}")));
        }
        c.run(1, Event::Timer(TimerName::Commit));
        c.nodes.iter().for_each(assert_agrees_with_inspect);
    }

    #[test]
    fn status_fields_stay_the_same_size_while_inspect_grows_with_the_log() {
        let mut c = TestCluster::new(3);
        c.run(0, Event::Timer(TimerName::Election));
        let before = c.nodes[0].status_fields().len();
        // entries no follower hears of: the leader's log holds all of them
        for i in 1..=2_000 {
            c.nodes[0].step(client(7, &format!("put key{} value{i}", i % 64)));
        }
        let (status, inspect) = (c.nodes[0].status_fields(), c.nodes[0].inspect());
        assert!(status.len() <= before + 8, "{}", String::from_utf8_lossy(&status));
        assert!(inspect.len() > 100 * status.len(), "inspect {} bytes, status fields {}", inspect.len(), status.len());
        assert_agrees_with_inspect(&c.nodes[0]);
    }
}
