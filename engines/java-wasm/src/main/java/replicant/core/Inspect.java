package replicant.core;

import java.util.List;

import replicant.core.Node.AcceptPhase;

/** The node's whole state as one canonical object (docs/protocol.md, "Inspect"). */
final class Inspect {
    /** How many KV entries (in ascending key order) inspect lists. */
    static final int INSPECT_KV_ENTRIES = 64;

    private Inspect() {}

    /**
     * The few figures a server's status line reports, in inspect's spelling, without the log,
     * the KV digest or anything else that grows with the state: the JVM server logs a status line
     * up to ten times a second under the core's lock, and need not serialise the log for it
     * (issue 20's 180 s runs, docs/reliability.md).
     */
    static String statusFields(Node n) {
        StringBuilder b = new StringBuilder(192);
        b.append('{');
        appendRoleBallotLeader(b, n, true);
        Json.appendUintField(b, "last_index", n.log.lastIndex(), false);
        Json.appendUintField(b, "last_executed", n.log.lastExecuted(), false);
        Json.appendUintField(b, "global_last_executed", n.log.globalLastExecuted(), false);
        Json.appendUintField(b, "replay_remaining", n.replayQueue.size(), false);
        Json.appendUintField(b, "elections", n.counters.elections, false);
        return b.append('}').toString();
    }

    /** "role", "ballot" and "leader" (null while there is none), as inspect spells them. */
    private static void appendRoleBallotLeader(StringBuilder b, Node n, boolean first) {
        String role = n.isLeader() ? "leader" : n.prepare != null ? "candidate" : "follower";
        Json.appendStringField(b, "role", role, first);
        Json.appendUintField(b, "ballot", n.ballot, false);
        Json.appendField(b, "leader", false);
        long leader = Ballot.leaderOf(n.ballot);
        if (leader == Ballot.NO_LEADER) b.append("null");
        else Json.appendUint(b, leader);
    }

    static String inspect(Node n) {
        StringBuilder b = new StringBuilder(1024);
        b.append('{');
        Json.appendUintField(b, "id", n.cfg.id, true);
        Json.appendUintField(b, "num_peers", n.cfg.numPeers, false);
        appendRoleBallotLeader(b, n, false);
        Json.appendBoolField(b, "commit_received", n.commitReceived, false);
        Json.appendUintField(b, "last_index", n.log.lastIndex(), false);
        Json.appendUintField(b, "last_executed", n.log.lastExecuted(), false);
        Json.appendUintField(b, "global_last_executed", n.log.globalLastExecuted(), false);

        Json.appendField(b, "log", false);
        b.append('[');
        List<Instance> log = n.log.instances();
        for (int i = 0; i < log.size(); i++) {
            if (i > 0) b.append(',');
            Codec.appendInstance(b, log.get(i));
        }
        b.append(']');

        Json.appendField(b, "kv", false);
        b.append('{');
        Json.appendUintField(b, "size", n.kv.size(), true);
        Json.appendStringField(b, "digest", Json.hex16(n.kv.digest()), false);
        Json.appendField(b, "entries", false);
        Codec.appendKvEntries(b, n.kv.firstEntries(INSPECT_KV_ENTRIES));
        b.append('}');

        Json.appendField(b, "prepare", false);
        Node.PreparePhase p = n.prepare;
        if (p == null) {
            b.append("null");
        } else {
            b.append('{');
            Json.appendUintField(b, "ballot", p.ballot, true);
            Json.appendUintField(b, "channel_id", p.channelId, false);
            Json.appendUintField(b, "promises", p.promises, false);
            b.append('}');
        }

        Json.appendField(b, "accepts", false);
        b.append('[');
        boolean first = true;
        for (AcceptPhase ph : n.accepts.values()) {
            if (!first) b.append(',');
            first = false;
            b.append('{');
            Json.appendUintField(b, "channel_id", ph.channelId, true);
            Json.appendUintField(b, "index", ph.instance.index, false);
            Json.appendUintField(b, "votes", ph.votes, false);
            Json.appendUintField(b, "ticks", ph.ticks, false);
            Json.appendBoolField(b, "client", ph.client != null, false);
            b.append('}');
        }
        b.append(']');

        Json.appendUintField(b, "replay_remaining", n.replayQueue.size(), false);
        Json.appendField(b, "commit_round", false);
        Node.CommitRound r = n.commitRound;
        if (r == null) {
            b.append("null");
        } else {
            b.append('{');
            Json.appendUintField(b, "channel_id", r.channelId, true);
            Json.appendUintField(b, "answered", r.answeredCount, false);
            b.append('}');
        }
        Json.appendUintField(b, "commit_gle", n.commitGle, false);

        Node.Counters c = n.counters;
        Json.appendField(b, "counters", false);
        b.append('{');
        Json.appendUintField(b, "events", c.events, true);
        Json.appendUintField(b, "messages_in", c.messagesIn, false);
        Json.appendUintField(b, "messages_out", c.messagesOut, false);
        Json.appendUintField(b, "client_commands", c.clientCommands, false);
        Json.appendUintField(b, "replies", c.replies, false);
        Json.appendUintField(b, "executed", c.executed, false);
        Json.appendUintField(b, "elections", c.elections, false);
        Json.appendUintField(b, "bad_events", c.badEvents, false);
        Json.appendUintField(b, "stale_responses", c.staleResponses, false);
        Json.appendUintField(b, "accept_timeouts", c.acceptTimeouts, false);
        Json.appendUintField(b, "violations", c.violations, false);
        return b.append("}}").toString();
    }
}
