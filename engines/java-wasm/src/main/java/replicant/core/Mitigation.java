package replicant.core;

import java.util.ArrayList;
import java.util.Arrays;

import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Message;
import replicant.core.Messages.MessageType;
import replicant.core.Messages.TimerName;
import replicant.core.Messages.Trace;
import replicant.core.Messages.TraceKind;
import replicant.core.Node.ClientRequest;

/**
 * GC mitigation (docs/protocol.md, "GC mitigation"): what a node does when its runtime says a
 * collection is coming. BLADE asks before collecting (at most f nodes at once) and moves the
 * leadership away first; MITMEM answers busy to requests it would hold past their deadline. The
 * core never collects: it tells the driver when (a collect effect), and hears gc_done. Mirrors
 * engines/go-wasm/core/mitigation.go.
 */
public final class Mitigation {
    private Mitigation() {}

    public enum Mode {
        /** Collect at once, the paper's behaviour. */
        NONE("none"), BLADE("blade"), MITMEM("mitmem"), BOTH("both");

        public final String wire;

        Mode(String wire) {
            this.wire = wire;
        }

        public static Mode parse(String s) {
            for (Mode m : values()) {
                if (m.wire.equals(s)) return m;
            }
            return null;
        }

        boolean blade() {
            return this == BLADE || this == BOTH;
        }

        boolean mitmem() {
            return this == MITMEM || this == BOTH;
        }
    }

    enum Phase {
        IDLE,
        /** A follower that wants permission (asked, or waits for a leader). */
        WAITING,
        /** A leader waiting for its successor's election. */
        HANDING_OFF,
        /** The driver was told to collect. */
        COLLECTING
    }

    /** Heartbeats a handing-off leader waits for its successor before it collects as leader. */
    static final long HANDOFF_TIMEOUT_TICKS = 2;
    /** Heartbeats a grant may outlive its predicted pause before it expires. */
    static final long GC_GRANT_SLACK_TICKS = 2;

    static final class Grant {
        long peer, channelId, ticks, allowedTicks;
    }

    static final class Ask {
        final long peer, channelId, pauseUs;

        Ask(long peer, long channelId, long pauseUs) {
            this.peer = peer;
            this.channelId = channelId;
            this.pauseUs = pauseUs;
        }
    }

    /** One node's part in the mitigation. */
    static final class State {
        Phase phase = Phase.IDLE;
        long pauseUs;
        /** This node's ask; 0: not sent yet. */
        long channelId;
        /** The collection runs under a grant, to be released at gc_done. */
        boolean granted;
        long grantLeader, grantBallot, grantChannel;
        long handoffTicks;
        /** The last handoff heard: its successor's prepare passes the lease. */
        long handoffBallot, handoffTarget;
        // the grants the last handoff passed on (a bit per peer) and the most heartbeats any of
        // them may still be held; the target keeps them as its own when it wins
        long inheritedCollecting, inheritedTicks;
        // leader state
        final ArrayList<Grant> grants = new ArrayList<>();
        final ArrayList<Ask> queue = new ArrayList<>();
        /** Each peer's last_executed, from its latest commit_response. */
        final long[] peerExecuted;
        /** Grant order: higher collected more recently. */
        final long[] collectedSeq;
        long nextCollected;

        State(int numPeers) {
            peerExecuted = new long[numPeers];
            collectedSeq = new long[numPeers];
        }
    }

    private static void tracePeer(Node n, TraceKind kind, long peer) {
        if (!n.cfg.trace) return;
        Trace t = new Trace(kind);
        t.leader = peer;
        n.trace(t);
    }

    /** f: with at most this many nodes collecting, a majority still answers. */
    static long maxCollecting(Node n) {
        return (n.cfg.numPeers - 1) / 2;
    }

    static void onGcPending(Node n, long pauseUs) {
        State g = n.gc;
        if (g.phase != Phase.IDLE) return;
        g.pauseUs = pauseUs;
        if (!n.cfg.mitigation.blade() || n.cfg.numPeers == 1) {
            collect(n);
            return;
        }
        if (n.isLeader()) {
            handOff(n);
            return;
        }
        g.phase = Phase.WAITING;
        g.channelId = 0;
        if (Ballot.leaderOf(n.ballot) != Ballot.NO_LEADER) askToCollect(n);
    }

    static void collect(Node n) {
        n.gc.phase = Phase.COLLECTING;
        Effect e = new Effect(EffectType.COLLECT);
        e.pauseUs = n.gc.pauseUs;
        n.effects.add(e);
    }

    static void askToCollect(Node n) {
        n.gc.channelId = ++n.nextChannelId;
        tracePeer(n, TraceKind.GC_ASK, Ballot.leaderOf(n.ballot));
        sendAsk(n);
    }

    static void sendAsk(Node n) {
        Message m = new Message(MessageType.GC_REQUEST);
        m.from = n.cfg.id;
        m.to = Ballot.leaderOf(n.ballot);
        m.channelId = n.gc.channelId;
        m.ballot = n.ballot;
        m.pauseUs = n.gc.pauseUs;
        n.send(m);
    }

    /**
     * Asks the most up-to-date peer without a grant (then the one that collected most recently,
     * then the lowest id) to take over; with none, the leader collects where it is.
     */
    static void handOff(Node n) {
        State g = n.gc;
        long target = -1;
        for (long p = 0; p < n.cfg.numPeers; p++) {
            if (p == n.cfg.id || grantIndex(n, p) >= 0 || queuedIndex(n, p) >= 0) continue;
            int pi = (int) p;
            if (target < 0 || g.peerExecuted[pi] > g.peerExecuted[(int) target]
                    || (g.peerExecuted[pi] == g.peerExecuted[(int) target]
                            && g.collectedSeq[pi] > g.collectedSeq[(int) target])) {
                target = p;
            }
        }
        if (target < 0) {
            collect(n);
            return;
        }
        g.phase = Phase.HANDING_OFF;
        g.handoffTicks = 0;
        g.handoffBallot = n.ballot;
        g.handoffTarget = target;
        long collecting = 0, collectingTicks = 0;
        for (Grant gr : g.grants) {
            collecting |= 1L << gr.peer;
            collectingTicks = Math.max(collectingTicks, gr.allowedTicks - gr.ticks);
        }
        tracePeer(n, TraceKind.HANDOFF, target);
        Message m = new Message(MessageType.HANDOFF);
        m.ballot = n.ballot;
        m.target = target;
        m.collecting = collecting;
        m.collectingTicks = collectingTicks;
        m.lastExecuted = n.log.lastExecuted();
        n.broadcast(m);
    }

    static void onHandoff(Node n, Message m) {
        if (m.ballot != n.ballot) {
            n.counters.staleResponses++;
            return;
        }
        n.gc.handoffBallot = m.ballot;
        n.gc.handoffTarget = m.target;
        n.gc.inheritedCollecting = m.collecting;
        n.gc.inheritedTicks = m.collectingTicks;
        // the old leader's commit point, committed as its heartbeat would: only entries stored at
        // its ballot (each holds the value chosen there), so the target asks from above it
        n.log.commitUntil(m.lastExecuted, m.ballot, n.changes);
        n.applyChanges();
        MultiPaxos.execute(n);
        if (m.target == n.cfg.id) MultiPaxos.startElection(n);
    }

    /**
     * A prepare from the successor a leader named, at a node still under that leader's ballot, is
     * not refused by the lease (the leader asked for this election).
     */
    static boolean handoffPrepare(Node n, Message m) {
        State g = n.gc;
        return g.handoffBallot != 0 && n.ballot == g.handoffBallot && m.from == g.handoffTarget;
    }

    /**
     * Drops the leader's grants and queue; a leader that was handing off now waits for its
     * successor's first heartbeat to ask for permission.
     */
    static void leaveLeadership(Node n) {
        State g = n.gc;
        g.grants.clear();
        g.queue.clear();
        if (g.phase == Phase.HANDING_OFF) {
            g.phase = Phase.WAITING;
            g.channelId = 0;
        }
    }

    /** This node is winning the election a handoff asked it to start. */
    static boolean takesOverFromHandoff(Node n) {
        State g = n.gc;
        return g.handoffBallot != 0 && g.handoffTarget == n.cfg.id && n.ballot > g.handoffBallot;
    }

    /**
     * Starts the leader state afresh, except that a handoff's target keeps the grants its
     * predecessor passed on (their holders may still be collecting: granting others at once
     * would let more than f collect together right after the handoff).
     */
    static void becomeLeader(Node n) {
        State g = n.gc;
        Arrays.fill(g.peerExecuted, 0);
        Arrays.fill(g.collectedSeq, 0);
        g.grants.clear();
        g.queue.clear();
        if (takesOverFromHandoff(n)) {
            for (long p = 0; p < n.cfg.numPeers; p++) {
                if ((g.inheritedCollecting & (1L << p)) != 0 && p != n.cfg.id && g.grants.size() < maxCollecting(n)) {
                    Grant gr = new Grant();
                    gr.peer = p;
                    gr.allowedTicks = g.inheritedTicks;
                    g.grants.add(gr);
                }
            }
        }
        g.inheritedCollecting = 0;
        g.inheritedTicks = 0;
    }

    /** A waiting node that had no leader to ask asks the one it now hears. */
    static void afterCommitRequest(Node n) {
        State g = n.gc;
        if (g.phase == Phase.WAITING && g.channelId == 0 && Ballot.leaderOf(n.ballot) != Ballot.NO_LEADER
                && !n.isLeader()) {
            askToCollect(n);
        }
    }

    /** Runs at a follower's election timer; true means the step is done. */
    static boolean onElectionTimer(Node n) {
        State g = n.gc;
        if (g.phase != Phase.WAITING) return false;
        if (n.commitReceived && Ballot.leaderOf(n.ballot) != Ballot.NO_LEADER) {
            if (g.channelId == 0) {
                askToCollect(n);
            } else {
                sendAsk(n);
            }
            return false;
        }
        // a whole election delay without a heartbeat: nobody will answer the ask
        if (n.cfg.trace) n.trace(new Trace(TraceKind.GC_TIMEOUT));
        collect(n);
        n.setTimer(TimerName.ELECTION, n.electionDelayUs());
        return true;
    }

    /**
     * Runs at a leader's heartbeat, after check-quorum. A node that won while it waited to collect
     * (a handoff's target) hands off here, not as it wins: by now the asks of peers about to
     * collect hold grants or queue places, so it does not hand the leadership straight back to one
     * of them (two nodes would pass it to and fro and serve nothing).
     */
    static void handoffTick(Node n) {
        State g = n.gc;
        if (g.phase == Phase.WAITING) {
            g.phase = Phase.IDLE;
            handOff(n);
            return;
        }
        if (g.phase != Phase.HANDING_OFF) return;
        g.handoffTicks++;
        if (g.handoffTicks >= HANDOFF_TIMEOUT_TICKS) {
            if (n.cfg.trace) n.trace(new Trace(TraceKind.GC_TIMEOUT));
            collect(n);
        }
    }

    static void grantTicks(Node n) {
        State g = n.gc;
        ArrayList<Grant> kept = new ArrayList<>();
        for (Grant gr : g.grants) {
            gr.ticks++;
            if (gr.ticks >= gr.allowedTicks) {
                tracePeer(n, TraceKind.GC_GRANT_EXPIRED, gr.peer);
                continue;
            }
            kept.add(gr);
        }
        g.grants.clear();
        g.grants.addAll(kept);
        grantFromQueue(n);
    }

    static int grantIndex(Node n, long peer) {
        for (int i = 0; i < n.gc.grants.size(); i++) {
            if (n.gc.grants.get(i).peer == peer) return i;
        }
        return -1;
    }

    static int queuedIndex(Node n, long peer) {
        for (int i = 0; i < n.gc.queue.size(); i++) {
            if (n.gc.queue.get(i).peer == peer) return i;
        }
        return -1;
    }

    static void onGcRequest(Node n, Message m) {
        State g = n.gc;
        if (!n.isLeader() || m.ballot != n.ballot) {
            n.counters.staleResponses++;
            return;
        }
        int i = grantIndex(n, m.from);
        if (i >= 0) {
            g.grants.get(i).channelId = m.channelId;
            Message r = new Message(MessageType.GC_GRANT);
            r.ballot = n.ballot;
            n.respond(m, r);
            return;
        }
        if (queuedIndex(n, m.from) >= 0) return;
        Ask ask = new Ask(m.from, m.channelId, m.pauseUs);
        if (g.grants.size() < maxCollecting(n)) {
            grant(n, ask);
            return;
        }
        g.queue.add(ask);
        if (n.cfg.trace) {
            Trace t = new Trace(TraceKind.GC_QUEUED);
            t.leader = m.from;
            t.count = g.queue.size();
            n.trace(t);
        }
    }

    static void grant(Node n, Ask a) {
        State g = n.gc;
        g.collectedSeq[(int) a.peer] = ++g.nextCollected;
        long ci = n.cfg.commitIntervalUs;
        Grant gr = new Grant();
        gr.peer = a.peer;
        gr.channelId = a.channelId;
        gr.allowedTicks = (a.pauseUs + ci - 1) / ci + GC_GRANT_SLACK_TICKS;
        g.grants.add(gr);
        tracePeer(n, TraceKind.GC_GRANT, a.peer);
        Message m = new Message(MessageType.GC_GRANT);
        m.from = n.cfg.id;
        m.to = a.peer;
        m.channelId = a.channelId;
        m.ballot = n.ballot;
        n.send(m);
    }

    static void grantFromQueue(Node n) {
        State g = n.gc;
        while (g.grants.size() < maxCollecting(n) && !g.queue.isEmpty()) {
            grant(n, g.queue.remove(0));
        }
    }

    static void onGcGrant(Node n, Message m) {
        State g = n.gc;
        if (m.ballot != n.ballot) {
            n.counters.staleResponses++;
            return;
        }
        if (g.phase != Phase.WAITING || m.channelId != g.channelId) {
            // not needed any more (it timed out and collected, or finished): free the slot
            n.counters.staleResponses++;
            Message r = new Message(MessageType.GC_RELEASE);
            r.ballot = m.ballot;
            n.respond(m, r);
            return;
        }
        g.granted = true;
        g.grantLeader = m.from;
        g.grantBallot = m.ballot;
        g.grantChannel = m.channelId;
        collect(n);
    }

    static void onGcDone(Node n) {
        State g = n.gc;
        if (g.phase != Phase.COLLECTING) return;
        g.phase = Phase.IDLE;
        if (n.cfg.trace) n.trace(new Trace(TraceKind.GC_DONE));
        if (g.granted) {
            g.granted = false;
            Message m = new Message(MessageType.GC_RELEASE);
            m.from = n.cfg.id;
            m.to = g.grantLeader;
            m.channelId = g.grantChannel;
            m.ballot = g.grantBallot;
            // after a leadership change the grant lives on at the new leader (a handoff passes
            // it on): release it there, or it would hold a slot until it expires
            long leader = Ballot.leaderOf(n.ballot);
            if (n.ballot != g.grantBallot && leader != Ballot.NO_LEADER && leader != n.cfg.id) {
                m.to = leader;
                m.ballot = n.ballot;
            }
            n.send(m);
        }
    }

    static void onGcRelease(Node n, Message m) {
        int i = n.isLeader() && m.ballot == n.ballot ? grantIndex(n, m.from) : -1;
        if (i < 0) {
            n.counters.staleResponses++;
            return;
        }
        n.gc.grants.remove(i);
        tracePeer(n, TraceKind.GC_RELEASE, m.from);
        grantFromQueue(n);
    }

    /**
     * Answers c if the mitigation decides its reply: MITMEM's busy when the request would wait
     * out a pause longer than its deadline; retry at a handing-off leader (its successor is
     * taking over).
     */
    static boolean clientReply(Node n, ClientRequest c) {
        State g = n.gc;
        if (n.cfg.mitigation.mitmem() && g.phase == Phase.COLLECTING && g.pauseUs > n.cfg.mitmemDeadlineUs) {
            n.reply(c, Command.Result.busy(g.pauseUs));
            return true;
        }
        if (g.phase == Phase.HANDING_OFF && n.isLeader()) {
            n.reply(c, Command.Result.RETRY);
            return true;
        }
        return false;
    }

    static String invariantError(Node n) {
        State g = n.gc;
        if (g.grants.size() > maxCollecting(n)) return "more grants held than f";
        if (!n.isLeader() && (!g.grants.isEmpty() || !g.queue.isEmpty() || g.phase == Phase.HANDING_OFF)) {
            return "a follower holds GC leader state";
        }
        return null;
    }
}
