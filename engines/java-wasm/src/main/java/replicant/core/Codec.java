package replicant.core;

import java.util.ArrayList;
import java.util.List;

import replicant.core.Json.Field;
import replicant.core.Json.Kind;
import replicant.core.Json.Value;
import replicant.core.Messages.Effect;
import replicant.core.Messages.Event;
import replicant.core.Messages.EventType;
import replicant.core.Messages.Message;
import replicant.core.Messages.MessageType;
import replicant.core.Messages.TimerName;
import replicant.core.Messages.Trace;

/** Events, messages and effects to and from canonical JSON (docs/protocol.md, "Canonical encoding"). */
public final class Codec {
    private Codec() {}

    /**
     * Checks that v is an object with exactly the given fields (in any order) and returns their
     * values in the order asked for; null otherwise.
     */
    static Value[] objectFields(Value v, String... names) {
        if (v == null || v.kind != Kind.OBJECT || v.fields.size() != names.length) return null;
        Value[] out = new Value[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = v.field(names[i]);
            if (out[i] == null) return null;
        }
        return out;
    }

    /** The string in an object's "type" field, or null. */
    static String typeOf(Value v) {
        if (v == null || v.kind != Kind.OBJECT) return null;
        Value t = v.field("type");
        return t == null ? null : asString(t);
    }

    static String asString(Value v) {
        return v.kind == Kind.STRING ? v.string : null;
    }

    /** Reads several integer fields at once; null if any is not a number. */
    static long[] uints(Value... vs) {
        long[] out = new long[vs.length];
        for (int i = 0; i < vs.length; i++) {
            if (vs[i].kind != Kind.NUMBER) return null;
            out[i] = vs[i].number;
        }
        return out;
    }

    static Command decodeCommand(Value v) {
        String t = typeOf(v);
        if (t == null) return null;
        switch (t) {
            case "noop":
                return objectFields(v, "type") == null ? null : Command.noop();
            case "get":
            case "del": {
                Value[] f = objectFields(v, "type", "key");
                if (f == null) return null;
                String key = asString(f[1]);
                if (key == null || !Command.validKey(key)) return null;
                return t.equals("get") ? Command.get(key) : Command.del(key);
            }
            case "put": {
                Value[] f = objectFields(v, "type", "key", "value");
                if (f == null) return null;
                String key = asString(f[1]);
                String value = asString(f[2]);
                if (key == null || value == null || !Command.validKey(key) || !Command.validValue(value)) return null;
                return Command.put(key, value);
            }
            default:
                return null;
        }
    }

    static Instance.State decodeState(Value v) {
        String s = asString(v);
        if (s == null) return null;
        for (Instance.State st : Instance.State.values()) {
            if (st.wire.equals(s)) return st;
        }
        return null;
    }

    static Instance decodeInstance(Value v) {
        Value[] f = objectFields(v, "ballot", "index", "client_id", "request_id", "state", "command");
        if (f == null) return null;
        long[] n = uints(f[0], f[1], f[2], f[3]);
        if (n == null) return null;
        Instance.State state = decodeState(f[4]);
        if (state == null) return null;
        Command cmd = decodeCommand(f[5]);
        if (cmd == null) return null;
        return new Instance(n[0], n[1], n[2], n[3], state, cmd);
    }

    /** The bool of v, as 0 (false) / 1 (true), or -1 if v is not a bool. */
    private static int asBool(Value v) {
        return v.kind == Kind.BOOL ? (v.bool ? 1 : 0) : -1;
    }

    static Message decodeMessageValue(Value v) {
        String t = typeOf(v);
        if (t == null) return null;
        Message m;
        switch (t) {
            case "prepare_request": {
                // bounded elections add from_index (>= 1); without it, the paper's request
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ballot", "from_index");
                if (f == null) f = objectFields(v, "type", "from", "to", "channel_id", "ballot");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3], f[4]);
                if (n == null) return null;
                m = header(MessageType.PREPARE_REQUEST, n);
                m.ballot = n[3];
                if (f.length == 6) {
                    long[] c = uints(f[5]);
                    if (c == null || c[0] == 0) return null;
                    m.fromIndex = c[0];
                }
                return m;
            }
            case "prepare_response": {
                // bounded elections add from_index (>= 1, echoed) and next_index (0: the promise is whole)
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot", "instances",
                        "from_index", "next_index");
                if (f == null) f = objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot", "instances");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3], f[5]);
                int ok = asBool(f[4]);
                if (n == null || ok < 0 || f[6].kind != Kind.ARRAY) return null;
                m = header(MessageType.PREPARE_RESPONSE, n);
                if (f.length == 9) {
                    long[] c = uints(f[7], f[8]);
                    if (c == null || c[0] == 0 || (c[1] != 0 && c[1] <= c[0])) return null;
                    m.fromIndex = c[0];
                    m.nextIndex = c[1];
                }
                m.ok = ok == 1;
                m.ballot = n[3];
                List<Instance> instances = new ArrayList<>(f[6].items.size());
                for (Value item : f[6].items) {
                    Instance inst = decodeInstance(item);
                    if (inst == null) return null;
                    instances.add(inst);
                }
                m.instances = instances;
                return m;
            }
            case "accept_request": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "instance");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3]);
                Instance inst = decodeInstance(f[4]);
                if (n == null || inst == null) return null;
                m = header(MessageType.ACCEPT_REQUEST, n);
                m.instance = inst;
                return m;
            }
            case "accept_response": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3], f[5]);
                int ok = asBool(f[4]);
                if (n == null || ok < 0) return null;
                m = header(MessageType.ACCEPT_RESPONSE, n);
                m.ok = ok == 1;
                m.ballot = n[3];
                return m;
            }
            case "commit_request": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ballot", "last_executed",
                        "global_last_executed");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3], f[4], f[5], f[6]);
                if (n == null) return null;
                m = header(MessageType.COMMIT_REQUEST, n);
                m.ballot = n[3];
                m.lastExecuted = n[4];
                m.globalLastExecuted = n[5];
                return m;
            }
            case "commit_response": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ok", "ballot", "last_executed");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3], f[5], f[6]);
                int ok = asBool(f[4]);
                if (n == null || ok < 0) return null;
                m = header(MessageType.COMMIT_RESPONSE, n);
                m.ok = ok == 1;
                m.ballot = n[3];
                m.lastExecuted = n[4];
                return m;
            }
            case "snapshot": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ballot", "last_executed", "kv");
                if (f == null) return null;
                long[] n = uints(f[1], f[2], f[3], f[4], f[5]);
                List<String[]> kv = decodeKvEntries(f[6]);
                if (n == null || kv == null) return null;
                m = header(MessageType.SNAPSHOT, n);
                m.ballot = n[3];
                m.lastExecuted = n[4];
                m.kv = kv;
                return m;
            }
            case "gc_request": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ballot", "pause_us");
                long[] n = f == null ? null : uints(f[1], f[2], f[3], f[4], f[5]);
                if (n == null) return null;
                m = header(MessageType.GC_REQUEST, n);
                m.ballot = n[3];
                m.pauseUs = n[4];
                return m;
            }
            case "gc_grant":
            case "gc_release": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ballot");
                long[] n = f == null ? null : uints(f[1], f[2], f[3], f[4]);
                if (n == null) return null;
                m = header(t.equals("gc_grant") ? MessageType.GC_GRANT : MessageType.GC_RELEASE, n);
                m.ballot = n[3];
                return m;
            }
            case "handoff": {
                Value[] f = objectFields(v, "type", "from", "to", "channel_id", "ballot", "target", "collecting", "collecting_ticks",
                        "last_executed");
                long[] n = f == null ? null : uints(f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
                if (n == null) return null;
                m = header(MessageType.HANDOFF, n);
                m.ballot = n[3];
                m.target = n[4];
                m.collecting = n[5];
                m.collectingTicks = n[6];
                m.lastExecuted = n[7];
                return m;
            }
            default:
                return null;
        }
    }

    private static Message header(MessageType type, long[] n) {
        Message m = new Message(type);
        m.from = n[0];
        m.to = n[1];
        m.channelId = n[2];
        return m;
    }

    /** Reads one peer message (a line of the native peer protocol); null if it is invalid. */
    public static Message decodeMessage(byte[] in) {
        Value v = Json.parse(in);
        return v == null ? null : decodeMessageValue(v);
    }

    /** Reads one event; null if it is invalid. */
    public static Event decodeEvent(byte[] in) {
        Value v = Json.parse(in);
        if (v == null) return null;
        String t = typeOf(v);
        if (t == null) return null;
        switch (t) {
            case "start":
                return objectFields(v, "type") != null ? Event.start() : null;
            case "timer": {
                Value[] f = objectFields(v, "type", "timer");
                if (f == null) return null;
                String s = asString(f[1]);
                if ("election".equals(s)) return Event.timer(TimerName.ELECTION);
                if ("commit".equals(s)) return Event.timer(TimerName.COMMIT);
                return null;
            }
            case "client": {
                Value[] f = objectFields(v, "type", "client_id", "request_id", "line");
                if (f == null) return null;
                long[] n = uints(f[1], f[2]);
                String line = asString(f[3]);
                if (n == null || line == null) return null;
                return Event.client(n[0], n[1], line);
            }
            case "message": {
                Value[] f = objectFields(v, "type", "msg");
                if (f == null) return null;
                Message m = decodeMessageValue(f[1]);
                return m == null ? null : Event.message(m);
            }
            case "gc_pending": {
                Value[] f = objectFields(v, "type", "pause_us");
                long[] n = f == null ? null : uints(f[1]);
                if (n == null) return null;
                Event e = new Event(Messages.EventType.GC_PENDING);
                e.pauseUs = n[0];
                return e;
            }
            case "gc_done":
                return objectFields(v, "type") != null ? new Event(Messages.EventType.GC_DONE) : null;
            case "persisted": {
                Value[] f = objectFields(v, "type", "persist_id");
                long[] n = f == null ? null : uints(f[1]);
                if (n == null) return null;
                Event e = new Event(Messages.EventType.PERSISTED);
                e.persistId = n[0];
                return e;
            }
            case "restart": {
                Value[] f = objectFields(v, "type", "records");
                if (f == null || f[1].kind != Kind.ARRAY) return null;
                List<Durability.Record> records = new ArrayList<>(f[1].items.size());
                for (Value item : f[1].items) {
                    Durability.Record r = decodeRecord(item);
                    if (r == null) return null;
                    records.add(r);
                }
                Event e = new Event(Messages.EventType.RESTART);
                e.records = records;
                return e;
            }
            default:
                return null;
        }
    }

    /** Reads one durable record from its JSON (a frame of a write-ahead log); null if it is not one. */
    public static Durability.Record decodeRecordJson(byte[] in) {
        Value v = Json.parse(in);
        return v == null ? null : decodeRecord(v);
    }

    /** Reads one durable record (docs/protocol.md, "Durability"); null if it is not one. */
    static Durability.Record decodeRecord(Value v) {
        if (v == null || v.kind != Kind.OBJECT) return null;
        Value kind = v.field("kind");
        String k = kind == null ? null : asString(kind);
        if ("promise".equals(k)) {
            Value[] f = objectFields(v, "kind", "ballot");
            long[] n = f == null ? null : uints(f[1]);
            return n == null ? null : Durability.Record.promise(n[0]);
        }
        if ("instance".equals(k)) {
            Value[] f = objectFields(v, "kind", "instance");
            Instance inst = f == null ? null : decodeInstance(f[1]);
            return inst == null ? null : Durability.Record.instance(inst);
        }
        if ("snapshot".equals(k)) {
            Value[] f = objectFields(v, "kind", "last_executed", "kv");
            long[] n = f == null ? null : uints(f[1]);
            List<String[]> kv = f == null ? null : decodeKvEntries(f[2]);
            return n == null || kv == null ? null : Durability.Record.snapshot(n[0], kv);
        }
        if ("checkpoint".equals(k)) {
            Value[] f = objectFields(v, "kind", "ballot", "last_executed", "kv");
            long[] n = f == null ? null : uints(f[1], f[2]);
            List<String[]> kv = f == null ? null : decodeKvEntries(f[3]);
            return n == null || kv == null ? null : Durability.Record.checkpoint(n[0], n[1], kv);
        }
        return null;
    }

    /** Reads [[key,value],…]; null if it is not that shape (the content rules are the protocol's). */
    static List<String[]> decodeKvEntries(Value v) {
        if (v.kind != Kind.ARRAY) return null;
        List<String[]> out = new ArrayList<>(v.items.size());
        for (Value item : v.items) {
            if (item.kind != Kind.ARRAY || item.items.size() != 2) return null;
            String k = asString(item.items.get(0));
            String val = asString(item.items.get(1));
            if (k == null || val == null) return null;
            out.add(new String[] {k, val});
        }
        return out;
    }

    static StringBuilder appendKvEntries(StringBuilder b, List<String[]> kv) {
        b.append('[');
        for (int i = 0; i < kv.size(); i++) {
            if (i > 0) b.append(',');
            b.append('[');
            Json.appendString(b, kv.get(i)[0]);
            b.append(',');
            Json.appendString(b, kv.get(i)[1]);
            b.append(']');
        }
        return b.append(']');
    }

    /** Writes r in canonical form (a frame of a native server's write-ahead log). */
    public static StringBuilder appendRecord(StringBuilder b, Durability.Record r) {
        b.append('{');
        Json.appendStringField(b, "kind", r.kind.wire, true);
        if (r.kind == Durability.RecordKind.PROMISE) {
            Json.appendUintField(b, "ballot", r.ballot, false);
        } else if (r.kind == Durability.RecordKind.INSTANCE) {
            Json.appendField(b, "instance", false);
            appendInstance(b, r.instance);
        } else {
            if (r.kind == Durability.RecordKind.CHECKPOINT) Json.appendUintField(b, "ballot", r.ballot, false);
            Json.appendUintField(b, "last_executed", r.lastExecuted, false);
            Json.appendField(b, "kv", false);
            appendKvEntries(b, r.kv);
        }
        return b.append('}');
    }

    // --- writing ---

    static StringBuilder appendCommand(StringBuilder b, Command c) {
        b.append('{');
        Json.appendStringField(b, "type", c.type.wire, true);
        if (c.type != Command.Type.NOOP) Json.appendStringField(b, "key", c.key, false);
        if (c.type == Command.Type.PUT) Json.appendStringField(b, "value", c.value, false);
        return b.append('}');
    }

    static StringBuilder appendInstance(StringBuilder b, Instance inst) {
        b.append('{');
        Json.appendUintField(b, "ballot", inst.ballot, true);
        Json.appendUintField(b, "index", inst.index, false);
        Json.appendUintField(b, "client_id", inst.clientId, false);
        Json.appendUintField(b, "request_id", inst.requestId, false);
        Json.appendStringField(b, "state", inst.state.wire, false);
        Json.appendField(b, "command", false);
        appendCommand(b, inst.command);
        return b.append('}');
    }

    /** Writes m in canonical form. */
    public static StringBuilder appendMessage(StringBuilder b, Message m) {
        b.append('{');
        Json.appendStringField(b, "type", m.type.wire, true);
        Json.appendUintField(b, "from", m.from, false);
        Json.appendUintField(b, "to", m.to, false);
        Json.appendUintField(b, "channel_id", m.channelId, false);
        switch (m.type) {
            case PREPARE_REQUEST:
                Json.appendUintField(b, "ballot", m.ballot, false);
                if (m.fromIndex > 0) Json.appendUintField(b, "from_index", m.fromIndex, false);
                break;
            case PREPARE_RESPONSE:
                Json.appendBoolField(b, "ok", m.ok, false);
                Json.appendUintField(b, "ballot", m.ballot, false);
                Json.appendField(b, "instances", false);
                b.append('[');
                for (int i = 0; i < m.instances.size(); i++) {
                    if (i > 0) b.append(',');
                    appendInstance(b, m.instances.get(i));
                }
                b.append(']');
                if (m.fromIndex > 0) {
                    Json.appendUintField(b, "from_index", m.fromIndex, false);
                    Json.appendUintField(b, "next_index", m.nextIndex, false);
                }
                break;
            case ACCEPT_REQUEST:
                Json.appendField(b, "instance", false);
                appendInstance(b, m.instance);
                break;
            case ACCEPT_RESPONSE:
                Json.appendBoolField(b, "ok", m.ok, false);
                Json.appendUintField(b, "ballot", m.ballot, false);
                break;
            case COMMIT_REQUEST:
                Json.appendUintField(b, "ballot", m.ballot, false);
                Json.appendUintField(b, "last_executed", m.lastExecuted, false);
                Json.appendUintField(b, "global_last_executed", m.globalLastExecuted, false);
                break;
            case COMMIT_RESPONSE:
                Json.appendBoolField(b, "ok", m.ok, false);
                Json.appendUintField(b, "ballot", m.ballot, false);
                Json.appendUintField(b, "last_executed", m.lastExecuted, false);
                break;
            case SNAPSHOT:
                Json.appendUintField(b, "ballot", m.ballot, false);
                Json.appendUintField(b, "last_executed", m.lastExecuted, false);
                Json.appendField(b, "kv", false);
                appendKvEntries(b, m.kv);
                break;
            case GC_REQUEST:
                Json.appendUintField(b, "ballot", m.ballot, false);
                Json.appendUintField(b, "pause_us", m.pauseUs, false);
                break;
            case GC_GRANT:
            case GC_RELEASE:
                Json.appendUintField(b, "ballot", m.ballot, false);
                break;
            case HANDOFF:
                Json.appendUintField(b, "ballot", m.ballot, false);
                Json.appendUintField(b, "target", m.target, false);
                Json.appendUintField(b, "collecting", m.collecting, false);
                Json.appendUintField(b, "collecting_ticks", m.collectingTicks, false);
                Json.appendUintField(b, "last_executed", m.lastExecuted, false);
                break;
        }
        return b.append('}');
    }

    /** m in canonical form. */
    public static String encodeMessage(Message m) {
        return appendMessage(new StringBuilder(128), m).toString();
    }

    static StringBuilder appendTrace(StringBuilder b, Trace t) {
        Json.appendStringField(b, "kind", t.kind.wire, false);
        switch (t.kind) {
            case FOLLOWER:
                Json.appendUintField(b, "ballot", t.ballot, false);
                Json.appendUintField(b, "leader", t.leader, false);
                break;
            case LEADER:
                Json.appendUintField(b, "ballot", t.ballot, false);
                Json.appendUintField(b, "last_index", t.lastIndex, false);
                break;
            case ELECTION:
            case ELECTION_ABANDONED:
                Json.appendUintField(b, "ballot", t.ballot, false);
                break;
            case REPLAY:
            case FILL:
                Json.appendUintField(b, "count", t.count, false);
                Json.appendUintField(b, "from_index", t.fromIndex, false);
                Json.appendUintField(b, "to_index", t.toIndex, false);
                break;
            case INSTANCE:
                Json.appendUintField(b, "index", t.index, false);
                Json.appendUintField(b, "ballot", t.ballot, false);
                Json.appendStringField(b, "state", t.state.wire, false);
                break;
            case EXECUTE:
                Json.appendUintField(b, "index", t.index, false);
                Json.appendStringField(b, "result", t.result.wire, false);
                break;
            case STALE:
            case ACCEPT_TIMEOUT:
                Json.appendUintField(b, "index", t.index, false);
                Json.appendUintField(b, "ballot", t.ballot, false);
                break;
            case TRIM:
                Json.appendUintField(b, "global_last_executed", t.value, false);
                break;
            case COMMIT_GLE:
                Json.appendUintField(b, "value", t.value, false);
                break;
            case REPAIR:
                Json.appendUintField(b, "peer", t.leader, false);
                Json.appendUintField(b, "from_index", t.fromIndex, false);
                Json.appendUintField(b, "to_index", t.toIndex, false);
                break;
            case STEP_DOWN:
                Json.appendUintField(b, "ballot", t.ballot, false);
                Json.appendUintField(b, "heard", t.count, false);
                Json.appendUintField(b, "window_us", t.value, false);
                break;
            case VIOLATION:
                Json.appendUintField(b, "index", t.index, false);
                Json.appendStringField(b, "reason", t.reason, false);
                break;
            case SNAPSHOT_SENT:
                Json.appendUintField(b, "peer", t.leader, false);
                Json.appendUintField(b, "last_executed", t.index, false);
                break;
            case SNAPSHOT_INSTALLED:
                Json.appendUintField(b, "last_executed", t.index, false);
                break;
            case RECOVERED:
                Json.appendUintField(b, "ballot", t.ballot, false);
                Json.appendUintField(b, "last_index", t.lastIndex, false);
                Json.appendUintField(b, "records", t.count, false);
                break;
            case GC_ASK:
                Json.appendUintField(b, "leader", t.leader, false);
                break;
            case GC_GRANT:
            case GC_RELEASE:
            case GC_GRANT_EXPIRED:
                Json.appendUintField(b, "peer", t.leader, false);
                break;
            case GC_QUEUED:
                Json.appendUintField(b, "peer", t.leader, false);
                Json.appendUintField(b, "waiting", t.count, false);
                break;
            case HANDOFF:
                Json.appendUintField(b, "target", t.leader, false);
                break;
            case GC_TIMEOUT:
            case GC_DONE:
                break;
        }
        return b;
    }

    /** Writes e in canonical form (without the line feed). */
    public static StringBuilder appendEffect(StringBuilder b, Effect e) {
        b.append('{');
        switch (e.type) {
            case SEND:
                Json.appendStringField(b, "type", "send", true);
                Json.appendField(b, "msg", false);
                appendMessage(b, e.message);
                break;
            case REPLY:
                Json.appendStringField(b, "type", "reply", true);
                Json.appendUintField(b, "client_id", e.clientId, false);
                Json.appendUintField(b, "request_id", e.requestId, false);
                Json.appendStringField(b, "result", e.result.type.wire, false);
                if (e.result.type == Command.ResultType.OK) {
                    Json.appendStringField(b, "value", e.result.value, false);
                } else if (e.result.type == Command.ResultType.LEADER_IS) {
                    Json.appendUintField(b, "leader", e.result.leader, false);
                } else if (e.result.type == Command.ResultType.BUSY) {
                    Json.appendUintField(b, "pause_us", e.result.pauseUs, false);
                }
                break;
            case SET_TIMER:
                Json.appendStringField(b, "type", "set_timer", true);
                Json.appendStringField(b, "timer", e.timer.wire, false);
                Json.appendUintField(b, "delay_us", e.delayUs, false);
                break;
            case CANCEL_TIMER:
                Json.appendStringField(b, "type", "cancel_timer", true);
                Json.appendStringField(b, "timer", e.timer.wire, false);
                break;
            case TRACE:
                Json.appendStringField(b, "type", "trace", true);
                appendTrace(b, e.trace);
                break;
            case COLLECT:
                Json.appendStringField(b, "type", "collect", true);
                Json.appendUintField(b, "pause_us", e.pauseUs, false);
                break;
            case ERROR:
                Json.appendStringField(b, "type", "error", true);
                Json.appendStringField(b, "error", "bad_event", false);
                break;
            case PERSIST:
                Json.appendStringField(b, "type", "persist", true);
                Json.appendUintField(b, "persist_id", e.persistId, false);
                Json.appendField(b, "records", false);
                b.append('[');
                for (int i = 0; i < e.records.size(); i++) {
                    if (i > 0) b.append(',');
                    appendRecord(b, e.records.get(i));
                }
                b.append(']');
                break;
        }
        return b.append('}');
    }

    /** Writes effects as JSON Lines. */
    public static String encodeEffects(List<Effect> effects) {
        if (effects.isEmpty()) return "";
        StringBuilder b = new StringBuilder(256 * effects.size());
        for (Effect e : effects) appendEffect(b, e).append('\n');
        return b.toString();
    }

    /** Reads a node configuration; unknown fields and out-of-range values are errors. */
    public static Config decodeConfig(byte[] in) throws Config.ConfigException {
        Value v = Json.parse(in);
        if (v == null) throw new Config.ConfigException("config: not valid JSON");
        if (v.kind != Kind.OBJECT) throw new Config.ConfigException("config: not a JSON object");
        Config cfg = Config.defaults();
        boolean seenId = false;
        boolean seenNumPeers = false;
        boolean seenSeed = false;
        for (Field f : v.fields) {
            if (f.name.equals("durability")) {
                if (f.value.kind == Kind.STRING && f.value.string.equals("none")) {
                    cfg.durability = Durability.Mode.NONE;
                } else if (f.value.kind == Kind.STRING && f.value.string.equals("log")) {
                    cfg.durability = Durability.Mode.LOG;
                } else {
                    throw new Config.ConfigException("config: durability must be \"none\" or \"log\"");
                }
                continue;
            }
            if (f.name.equals("mitigation")) {
                Mitigation.Mode m = f.value.kind == Kind.STRING ? Mitigation.Mode.parse(f.value.string) : null;
                if (m == null) {
                    throw new Config.ConfigException(
                            "config: mitigation must be \"none\", \"blade\", \"mitmem\" or \"both\"");
                }
                cfg.mitigation = m;
                continue;
            }
            if (f.name.equals("trace")) {
                if (f.value.kind != Kind.BOOL) throw new Config.ConfigException("config: trace must be true or false");
                cfg.trace = f.value.bool;
                continue;
            }
            if (f.name.equals("check_quorum")) {
                if (f.value.kind != Kind.BOOL) {
                    throw new Config.ConfigException("config: check_quorum must be true or false");
                }
                cfg.checkQuorum = f.value.bool;
                continue;
            }
            if (f.value.kind != Kind.NUMBER) {
                throw new Config.ConfigException(
                        "config: " + f.name + " must be a non-negative integer below 2^53");
            }
            long n = f.value.number;
            switch (f.name) {
                case "id":
                    cfg.id = n;
                    seenId = true;
                    break;
                case "num_peers":
                    cfg.numPeers = n;
                    seenNumPeers = true;
                    break;
                case "seed":
                    cfg.seed = n;
                    seenSeed = true;
                    break;
                case "commit_interval_us":
                    cfg.commitIntervalUs = n;
                    break;
                case "accept_timeout_ticks":
                    cfg.acceptTimeoutTicks = n;
                    break;
                case "max_pending_accepts":
                    cfg.maxPendingAccepts = n;
                    break;
                case "repair_batch":
                    cfg.repairBatch = n;
                    break;
                case "election_batch":
                    cfg.electionBatch = n;
                    break;
                case "log_bound":
                    cfg.logBound = n;
                    break;
                case "mitmem_deadline_us":
                    cfg.mitmemDeadlineUs = n;
                    break;
                case "snapshot_every":
                    cfg.snapshotEvery = n;
                    break;
                default:
                    throw new Config.ConfigException("config: unknown field " + quote(f.name));
            }
        }
        if (!seenId || !seenNumPeers || !seenSeed) {
            throw new Config.ConfigException("config: id, num_peers and seed are required");
        }
        cfg.validate();
        return cfg;
    }

    /** A field name quoted for an error message (non-printable bytes as \xNN). */
    private static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else {
                b.append("\\x").append(Json.hex16(c).substring(14));
            }
        }
        return b.append('"').toString();
    }
}
