package replicant.core;

import java.util.ArrayList;
import java.util.List;

import replicant.core.Messages.Message;
import replicant.core.Messages.MessageType;
import replicant.core.Messages.Trace;
import replicant.core.Messages.TraceKind;
import replicant.core.Node.ClientRequest;

/**
 * State transfer (docs/protocol.md, "State transfer"): a follower that needs entries the leader
 * has already trimmed (a restarted empty node, a wiped one, one partitioned for long) gets the
 * leader's KV store at its last_executed instead, and the leader's repair sends the entries after
 * it. Part of repair: only with repair_batch > 0. Mirrors engines/go-wasm/core/snapshot.go.
 */
final class Snapshot {
    private Snapshot() {}

    /** Keys and values valid, keys strictly ascending (one canonical form). */
    static boolean validKvEntries(List<String[]> kv) {
        for (int i = 0; i < kv.size(); i++) {
            String[] e = kv.get(i);
            if (!Command.validKey(e[0]) || !Command.validValue(e[1])) return false;
            if (i > 0 && kv.get(i - 1)[0].compareTo(e[0]) >= 0) return false;
        }
        return true;
    }

    /** Sends peer the leader's whole KV store, at the leader's last_executed. */
    static void send(Node n, long peer) {
        Trace t = new Trace(TraceKind.SNAPSHOT_SENT);
        t.leader = peer;
        t.index = n.log.lastExecuted();
        n.trace(t);
        n.nextChannelId++;
        Message m = new Message(MessageType.SNAPSHOT);
        m.from = n.cfg.id;
        m.to = peer;
        m.channelId = n.nextChannelId;
        m.ballot = n.ballot;
        m.lastExecuted = n.log.lastExecuted();
        m.kv = n.kv.firstEntries(n.kv.size());
        n.send(m);
    }

    /**
     * Installs a leader's snapshot that is ahead of this node: the KV store is replaced, every slot
     * up to its last_executed dropped, and last_executed and gle set to it. A request that waited
     * for a dropped slot is told to retry: its slot's command may differ.
     */
    static void onSnapshot(Node n, Message m) {
        // The snapshot's ballot does not matter to a node that does not lead: it is chosen
        // state, and a node that followed a higher ballot than its sender's would otherwise
        // stay behind the trim point for good (issue 20; docs/protocol.md, "State transfer").
        if (m.lastExecuted <= n.log.lastExecuted() || (m.ballot < n.ballot && n.isLeader())) {
            n.counters.staleResponses++;
            return;
        }
        if (m.ballot > n.ballot) MultiPaxos.becomeFollower(n, m.ballot);
        install(n, m.lastExecuted, m.kv);
        Trace t = new Trace(TraceKind.SNAPSHOT_INSTALLED);
        t.index = m.lastExecuted;
        n.trace(t);
        if (Durability.durable(n)) n.dur.records.add(Durability.Record.snapshot(m.lastExecuted, m.kv));
        List<Long> dropped = new ArrayList<>();
        for (long index : n.awaiting.keySet()) {
            if (index <= m.lastExecuted) dropped.add(index);
        }
        dropped.sort(null);
        for (long index : dropped) {
            ClientRequest c = n.awaiting.remove(index);
            n.reply(c, Command.Result.RETRY);
        }
        MultiPaxos.execute(n);
    }

    static void install(Node n, long lastExecuted, List<String[]> kv) {
        n.kv.clear();
        for (String[] e : kv) n.kv.apply(new Command(Command.Type.PUT, e[0], e[1]));
        n.log.installSnapshot(lastExecuted);
    }
}
