package replicant.core;

import java.util.Collections;
import java.util.List;

/** Events go into {@link Node#step}; effects come out. Messages travel between nodes. */
public final class Messages {
    private Messages() {}

    public enum MessageType {
        PREPARE_REQUEST("prepare_request"),
        PREPARE_RESPONSE("prepare_response"),
        ACCEPT_REQUEST("accept_request"),
        ACCEPT_RESPONSE("accept_response"),
        COMMIT_REQUEST("commit_request"),
        COMMIT_RESPONSE("commit_response"),
        /** State transfer: the leader's KV store at its last_executed. */
        SNAPSHOT("snapshot"),
        /** GC mitigation ({@link Mitigation}): a follower asks its leader for permission to collect. */
        GC_REQUEST("gc_request"),
        /** The leader lets it. */
        GC_GRANT("gc_grant"),
        /** The collection ended, the grant is free. */
        GC_RELEASE("gc_release"),
        /** A leader about to collect asks a peer to take over. */
        HANDOFF("handoff");

        public final String wire;

        MessageType(String wire) {
            this.wire = wire;
        }
    }

    /** One peer message; which fields matter depends on type (docs/protocol.md). */
    public static final class Message {
        public MessageType type;
        public long from;
        public long to;
        public long channelId;
        public boolean ok;
        public long ballot;
        public long lastExecuted;
        public long globalLastExecuted;
        /** accept_request. */
        public Instance instance;
        /** prepare_response; never null. */
        public List<Instance> instances = Collections.emptyList();
        /** prepare_request/response with bounded elections (>= 1). */
        public long fromIndex;
        /** prepare_response with bounded elections: 0 when the promise is whole. */
        public long nextIndex;
        /** snapshot: every entry as {key, value}, ascending keys; never null. */
        public List<String[]> kv = Collections.emptyList();
        /** gc_request: the predicted pause. */
        public long pauseUs;
        /** handoff: the peer asked to take over. */
        public long target;
        /** handoff: the peers holding grants, a bit per peer. */
        public long collecting;
        /** handoff: the most heartbeats any of those grants may still be held. */
        public long collectingTicks;

        public Message(MessageType type) {
            this.type = type;
        }

        public Message copy() {
            Message m = new Message(type);
            m.from = from;
            m.to = to;
            m.channelId = channelId;
            m.ok = ok;
            m.ballot = ballot;
            m.lastExecuted = lastExecuted;
            m.globalLastExecuted = globalLastExecuted;
            m.instance = instance;
            m.instances = instances;
            m.fromIndex = fromIndex;
            m.nextIndex = nextIndex;
            m.kv = kv;
            m.pauseUs = pauseUs;
            m.target = target;
            m.collecting = collecting;
            m.collectingTicks = collectingTicks;
            return m;
        }
    }

    public enum TimerName {
        ELECTION("election"), COMMIT("commit");

        public final String wire;

        TimerName(String wire) {
            this.wire = wire;
        }
    }

    public enum EventType {
        START, TIMER, CLIENT, MESSAGE,
        /** The driver wrote every record up to persistId. */
        PERSISTED,
        /** A restarted node's persisted records. */
        RESTART,
        /** The runtime will collect soon (GC mitigation). */
        GC_PENDING,
        /** The collection the core asked for has ended. */
        GC_DONE
    }

    public static final class Event {
        public final EventType type;
        public TimerName timer;
        public long clientId;
        public long requestId;
        public String line;
        public Message message;
        /** persisted. */
        public long persistId;
        /** restart. */
        public List<Durability.Record> records;
        /** gc_pending: the predicted pause. */
        public long pauseUs;

        public Event(EventType type) {
            this.type = type;
        }

        public static Event start() {
            return new Event(EventType.START);
        }

        public static Event timer(TimerName t) {
            Event e = new Event(EventType.TIMER);
            e.timer = t;
            return e;
        }

        public static Event client(long clientId, long requestId, String line) {
            Event e = new Event(EventType.CLIENT);
            e.clientId = clientId;
            e.requestId = requestId;
            e.line = line;
            return e;
        }

        public static Event message(Message m) {
            Event e = new Event(EventType.MESSAGE);
            e.message = m;
            return e;
        }
    }

    /** COLLECT: GC mitigation, run the announced collection now. */
    public enum EffectType { SEND, REPLY, SET_TIMER, CANCEL_TIMER, TRACE, ERROR, PERSIST, COLLECT }

    public static final class Effect {
        public final EffectType type;
        /** send. */
        public Message message;
        /** reply. */
        public long clientId;
        public long requestId;
        public Command.Result result;
        /** set_timer, cancel_timer. */
        public TimerName timer;
        public long delayUs;
        /** trace. */
        public Trace trace;
        /** persist: the records the driver must write before the held sends and replies leave. */
        public long persistId;
        public List<Durability.Record> records;
        /** collect: the predicted pause. */
        public long pauseUs;

        public Effect(EffectType type) {
            this.type = type;
        }
    }

    public enum TraceKind {
        FOLLOWER("follower"),
        LEADER("leader"),
        ELECTION("election"),
        ELECTION_ABANDONED("election_abandoned"),
        REPLAY("replay"),
        INSTANCE("instance"),
        EXECUTE("execute"),
        STALE("stale"),
        ACCEPT_TIMEOUT("accept_timeout"),
        TRIM("trim"),
        COMMIT_GLE("commit_gle"),
        VIOLATION("violation"),
        STEP_DOWN("step_down"),
        REPAIR("repair"),
        RECOVERED("recovered"),
        FILL("fill"),
        SNAPSHOT_SENT("snapshot_sent"),
        SNAPSHOT_INSTALLED("snapshot_installed"),
        GC_ASK("gc_ask"),
        GC_GRANT("gc_grant"),
        GC_QUEUED("gc_queued"),
        GC_RELEASE("gc_release"),
        GC_GRANT_EXPIRED("gc_grant_expired"),
        HANDOFF("handoff"),
        GC_TIMEOUT("gc_timeout"),
        GC_DONE("gc_done");

        public final String wire;

        TraceKind(String wire) {
            this.wire = wire;
        }
    }

    /** A record of a state change; which fields matter depends on kind. */
    public static final class Trace {
        public final TraceKind kind;
        public long ballot;
        /** follower: the new leader; repair, gc_*: the peer; handoff: the target. */
        public long leader;
        public long lastIndex;
        public long index;
        public Instance.State state;
        public Command.ResultType result;
        /** replay: entries; step_down: nodes heard (itself included); recovered: records. */
        public long count;
        public long fromIndex;
        public long toIndex;
        /** trim: the new gle; commit_gle: the learned gle; step_down: the window. */
        public long value;
        public String reason;

        public Trace(TraceKind kind) {
            this.kind = kind;
        }
    }
}
