package replicant.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.TreeMap;

import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;
import replicant.core.Messages.TimerName;
import replicant.core.Messages.Trace;
import replicant.core.Messages.TraceKind;

/**
 * One Replicant peer: the sans-IO core. It is advanced only by {@link #step}. The protocol
 * handlers live in {@link MultiPaxos} and the inspect view in {@link Inspect}, as in the Go
 * reference's multipaxos.go and inspect.go; they reach the state below directly.
 *
 * <p>Not thread-safe: a driver serializes every call (the native server holds one lock).
 */
public final class Node {
    final Config cfg;
    long ballot = Ballot.INITIAL_BALLOT;
    final Log log = new Log();
    final KvStore kv = new KvStore();
    final Prng rng;
    boolean commitReceived;
    long lastPrepareBallot;
    long nextChannelId;
    PreparePhase prepare;
    /** Open accept phases by channel id; a TreeMap, so iteration is in ascending channel order. */
    final TreeMap<Long, AcceptPhase> accepts = new TreeMap<>();
    final ArrayDeque<Instance> replayQueue = new ArrayDeque<>();
    CommitRound commitRound;
    /** Per peer: the repair batch in flight (leader). */
    final RepairStream[] repairs = newRepairStreams();
    long commitGle;
    /** Follower: the last_executed + 1 it last asked the leader to repair from. */
    long gapAskedFrom;
    /** Index to the client request its execution answers. */
    final HashMap<Long, ClientRequest> awaiting = new HashMap<>();
    final Counters counters = new Counters();
    /*
     * check-quorum (Config.checkQuorum): heartbeats since this node became leader, the heartbeat
     * count when each peer was last heard, and whether the last election timer found a leader's
     * heartbeat (the follower's lease).
     */
    long quorumTick;
    final long[] heardTick;
    boolean leaseHeld;
    /*
     * Election backoff (docs/protocol.md, "Election backoff"): elections this node lost since it
     * last saw a leader, at most Config.ELECTION_BACKOFF_MAX; every election delay it draws is
     * multiplied by 2 to that power. leaderBackoff keeps the winning phase's value: the leader's
     * accept time-out is stretched by that factor for its term. quorumBackoff stretches its quorum
     * window by the same factor only until a majority has answered within the unstretched window
     * after one full stretched one; then it is 0.
     */
    long electionBackoff;
    long leaderBackoff;
    long quorumBackoff;
    /** Persist bookkeeping ({@link Durability}). */
    final Durability.State dur = new Durability.State();
    /** GC mitigation ({@link Mitigation}). */
    final Mitigation.State gc;

    /**
     * Makes every step verify the node's invariants and throw on a broken one. Test builds (unit
     * tests, the conformance host) turn it on.
     */
    public static volatile boolean checkInvariants = false;

    /** The current step's output. */
    final ArrayList<Effect> effects = new ArrayList<>();
    /** Scratch for log operations. */
    final ArrayList<Log.Change> changes = new ArrayList<>();

    static final class ClientRequest {
        final long clientId;
        final long requestId;

        ClientRequest(long clientId, long requestId) {
            this.clientId = clientId;
            this.requestId = requestId;
        }
    }

    static final class PreparePhase {
        long ballot;
        long channelId;
        long promises;
        /** A bit per peer. */
        int answered;
        HashMap<Long, Instance> merged;
        long maxLastIndex;
        /** Bounded elections: the from_index last asked of each peer. */
        final long[] asked = new long[(int) Ballot.MAX_NUM_PEERS];
        /** Bounded elections: whether any answer came since the election timer last fired. */
        boolean progressed;
        /** electionBackoff when the phase opened: the leader it makes waits that much longer. */
        long backoff;
    }

    static final class AcceptPhase {
        long channelId;
        Instance instance;
        long votes;
        int answered;
        long ticks;
        ClientRequest client;
        boolean replay;
    }

    /**
     * The repair batch a leader has in flight to one peer: when every entry of it is
     * acknowledged, the next batch goes out at once instead of at the next heartbeat, so a
     * follower catches up at the rate the link carries, not repairBatch per heartbeat.
     */
    static final class RepairStream {
        /** 0: none in flight. */
        long channelId;
        /** The batch's last index. */
        long toIndex;
        /** Acknowledgements still to come. */
        long awaiting;
    }

    static RepairStream[] newRepairStreams() {
        RepairStream[] r = new RepairStream[(int) Ballot.MAX_NUM_PEERS];
        for (int i = 0; i < r.length; i++) r[i] = new RepairStream();
        return r;
    }

    static final class CommitRound {
        long channelId;
        /** What the heartbeat told the peers. */
        long lastExecuted;
        int answered;
        long answeredCount;
        long minLastExecuted;
    }

    /** The node's running totals, shown by inspect. */
    public static final class Counters {
        public long events, messagesIn, messagesOut, clientCommands, replies, executed, elections, badEvents,
                staleResponses, acceptTimeouts, violations;
    }

    /** Creates a node; cfg must be valid ({@link Config#validate}). */
    public Node(Config cfg) {
        this.cfg = cfg.copy();
        this.rng = new Prng(cfg.seed);
        this.heardTick = new long[(int) cfg.numPeers];
        this.gc = new Mitigation.State((int) cfg.numPeers);
    }

    public Config config() {
        return cfg.copy();
    }

    /** Advances the node by one event. The returned list is valid until the next step. */
    public List<Effect> step(Event ev) {
        effects.clear();
        counters.events++;
        if (Durability.durable(this) && !dur.started && ev.type != Messages.EventType.START
                && ev.type != Messages.EventType.RESTART) {
            // Before its restart a durable node has not read its disk: a promise from it would
            // carry none of the slots it accepted, so a candidate missing chosen entries could win
            // with it (docs/protocol.md, "Nothing before restart"; nemesis java seed 371). Refused.
            badEvent();
            return effects;
        }
        switch (ev.type) {
            case START:
                dur.started = true;
                setTimer(TimerName.ELECTION, electionDelayUs());
                break;
            case PERSISTED:
                Durability.onPersisted(this, ev.persistId);
                break;
            case GC_PENDING:
                Mitigation.onGcPending(this, ev.pauseUs);
                break;
            case GC_DONE:
                Mitigation.onGcDone(this);
                break;
            case RESTART:
                Durability.onRestart(this, ev.records);
                break;
            case TIMER:
                if (ev.timer == TimerName.ELECTION) MultiPaxos.onElectionTimer(this);
                else MultiPaxos.onCommitTimer(this);
                break;
            case CLIENT:
                MultiPaxos.onClientCommand(this, new ClientRequest(ev.clientId, ev.requestId), ev.line);
                break;
            case MESSAGE:
                if (!validMessage(ev.message)) {
                    badEvent();
                    break;
                }
                counters.messagesIn++;
                heardTick[(int) ev.message.from] = quorumTick;
                MultiPaxos.onMessage(this, ev.message);
                break;
        }
        if (Durability.durable(this) && ev.type != Messages.EventType.PERSISTED) Durability.finishStep(this);
        if (checkInvariants) checkInvariants();
        return effects;
    }

    /** Decodes one canonical event, steps, and returns the effects as JSON Lines. */
    public String stepJson(byte[] in) {
        Event ev = Codec.decodeEvent(in);
        if (ev == null) {
            effects.clear();
            counters.events++;
            badEvent();
            return Codec.encodeEffects(effects);
        }
        return Codec.encodeEffects(step(ev));
    }

    /** The binary step's effects, reused from step to step. */
    private final BinaryCodec.Output binaryOut = new BinaryCodec.Output();

    /**
     * {@link #stepJson} in the binary encoding (docs/protocol.md, "Binary step"): the first
     * length bytes of in are one event; the same step, the effects written in the binary
     * encoding into an output valid until the next step.
     */
    private final BinaryCodec.Output batchOut = new BinaryCodec.Output();
    /** One batch frame's event, copied out of the batch (decodeEvent reads from offset 0). */
    private byte[] batchEvent = new byte[256];

    /**
     * The batch step (docs/protocol.md, "Batch step"): the first {@code length} bytes of
     * {@code in} are frames, each one event in the binary encoding; the output holds one frame
     * per event, the bytes stepBinary gives for it in turn. Null, with nothing stepped, when
     * the framing does not hold. The output is reused by the next batch.
     */
    public BinaryCodec.Output stepBatch(byte[] in, int length) {
        if (!BinaryCodec.validBatchFraming(in, length)) return null;
        batchOut.clear();
        for (int pos = 0; pos < length; ) {
            int end = BinaryCodec.batchFrameEnd(in, length, pos);
            int start = BinaryCodec.frameBodyStart(in, pos);
            int n = end - start;
            if (batchEvent.length < n) batchEvent = new byte[Math.max(n, batchEvent.length * 2)];
            System.arraycopy(in, start, batchEvent, 0, n);
            batchOut.frame(stepBinary(batchEvent, n));
            pos = end;
        }
        return batchOut;
    }

    public BinaryCodec.Output stepBinary(byte[] in, int length) {
        Event ev = BinaryCodec.decodeEvent(in, length);
        if (ev == null) {
            effects.clear();
            counters.events++;
            badEvent();
        } else {
            step(ev);
        }
        BinaryCodec.encodeEffects(effects, binaryOut);
        return binaryOut;
    }

    /** The node's whole state as canonical JSON (docs/protocol.md, "Inspect"). */
    public String inspect() {
        return Inspect.inspect(this);
    }

    /** Role, ballot, leader, log positions, replay backlog and elections: inspect's fields a status line reports, cheap at any log size. */
    public String statusFields() {
        return Inspect.statusFields(this);
    }

    void badEvent() {
        counters.badEvents++;
        effects.add(new Effect(EffectType.ERROR));
    }

    private boolean realBallot(long b) {
        return Ballot.leaderOf(b) < cfg.numPeers;
    }

    /** Applies the semantic checks of docs/protocol.md to a decoded message. */
    boolean validMessage(Message m) {
        long num = cfg.numPeers;
        if (m.to != cfg.id || m.from >= num || m.from == cfg.id) return false;
        switch (m.type) {
            case PREPARE_REQUEST:
            case COMMIT_REQUEST:
                return Ballot.leaderOf(m.ballot) == m.from;
            case SNAPSHOT:
                return Ballot.leaderOf(m.ballot) == m.from && Snapshot.validKvEntries(m.kv);
            case ACCEPT_REQUEST:
                return Ballot.leaderOf(m.instance.ballot) == m.from && m.instance.index >= 1
                        && m.instance.state == Instance.State.IN_PROGRESS;
            case GC_REQUEST:
            case GC_RELEASE:
                return Ballot.leaderOf(m.ballot) == m.to;
            case GC_GRANT:
                return Ballot.leaderOf(m.ballot) == m.from;
            case HANDOFF:
                return Ballot.leaderOf(m.ballot) == m.from && m.target < num && m.target != m.from;
            case PREPARE_RESPONSE:
                for (Instance inst : m.instances) {
                    if (inst.index < 1 || !realBallot(inst.ballot)) return false;
                }
                break;
            default:
                break;
        }
        // A ballot naming no leader: the initial one, or a leader's after it stepped down.
        return realBallot(m.ballot) || Ballot.leaderOf(m.ballot) == Ballot.NO_LEADER;
    }

    /**
     * With check-quorum on, a node that leads or hears a live leader refuses prepares, so a node
     * that cannot hear the others cannot depose a leader a majority still follows.
     */
    boolean inLease() {
        return cfg.checkQuorum && (isLeader() || commitReceived || leaseHeld);
    }

    /** Throws on a broken invariant (docs/protocol.md, "Invariants every engine asserts"). */
    void checkInvariants() {
        String err = log.invariantError();
        for (int p = 0; err == null && p < heardTick.length; p++) {
            if (heardTick[p] > quorumTick) err = "peer " + p + " heard after the current tick";
        }
        if (err == null && !isLeader() && (!accepts.isEmpty() || commitRound != null || !replayQueue.isEmpty())) {
            err = "a follower holds leader state";
        }
        if (err == null && isLeader() && prepare != null) err = "a leader holds a prepare phase";
        if (err == null) err = Durability.invariantError(this);
        if (err == null) err = Mitigation.invariantError(this);
        if (err != null) throw new IllegalStateException("invariant: node " + cfg.id + ": " + err);
    }

    boolean isLeader() {
        return Ballot.leaderOf(ballot) == cfg.id;
    }

    long majority() {
        return cfg.numPeers / 2 + 1;
    }

    long electionDelayUs() {
        long lo = cfg.commitIntervalUs * 3 / 2;
        long hi = cfg.commitIntervalUs * 2;
        return (lo + Long.remainderUnsigned(rng.next(), hi - lo + 1)) << electionBackoff;
    }

    /** Counts a lost election (every election_abandoned): the next waits are twice as long. */
    void loseElection() {
        electionBackoff = Math.min(electionBackoff + 1, Config.ELECTION_BACKOFF_MAX);
    }

    // --- effect helpers ---

    void setTimer(TimerName t, long delayUs) {
        Effect e = new Effect(EffectType.SET_TIMER);
        e.timer = t;
        e.delayUs = delayUs;
        effects.add(e);
    }

    void cancelTimer(TimerName t) {
        Effect e = new Effect(EffectType.CANCEL_TIMER);
        e.timer = t;
        effects.add(e);
    }

    void reply(ClientRequest c, Command.Result r) {
        counters.replies++;
        Effect e = new Effect(EffectType.REPLY);
        e.clientId = c.clientId;
        e.requestId = c.requestId;
        e.result = r;
        effects.add(e);
    }

    void send(Message m) {
        counters.messagesOut++;
        Effect e = new Effect(EffectType.SEND);
        e.message = m;
        effects.add(e);
    }

    /** Sends m to every peer in ascending id order on a fresh channel, returned. */
    long broadcast(Message m) {
        nextChannelId++;
        for (long p = 0; p < cfg.numPeers; p++) {
            if (p == cfg.id) continue;
            Message copy = m.copy();
            copy.from = cfg.id;
            copy.to = p;
            copy.channelId = nextChannelId;
            send(copy);
        }
        return nextChannelId;
    }

    /** Answers request req with m on req's channel. */
    void respond(Message req, Message m) {
        m.from = cfg.id;
        m.to = req.from;
        m.channelId = req.channelId;
        send(m);
    }

    void trace(Trace t) {
        if (cfg.trace) {
            Effect e = new Effect(EffectType.TRACE);
            e.trace = t;
            effects.add(e);
        }
    }

    /** Turns what a log operation did into trace records. */
    void applyChanges() {
        for (Log.Change c : changes) {
            switch (c.kind) {
                case STORED: {
                    Durability.recordInstance(this, c.instance);
                    Trace t = new Trace(TraceKind.INSTANCE);
                    t.index = c.instance.index;
                    t.ballot = c.instance.ballot;
                    t.state = c.instance.state;
                    trace(t);
                    break;
                }
                case STALE: {
                    Trace t = new Trace(TraceKind.STALE);
                    t.index = c.instance.index;
                    t.ballot = c.instance.ballot;
                    trace(t);
                    break;
                }
                case VIOLATION: {
                    counters.violations++;
                    Trace t = new Trace(TraceKind.VIOLATION);
                    t.index = c.instance.index;
                    t.reason = c.reason;
                    trace(t);
                    break;
                }
            }
        }
        changes.clear();
    }

    /** A snapshot of the open accept phases in ascending channel order. */
    List<AcceptPhase> sortedAccepts() {
        return new ArrayList<>(accepts.values());
    }
}
