package replicant.core;

import java.util.List;

import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;
import replicant.core.Messages.MessageType;

/**
 * Events and effects to and from the binary step's encoding (docs/protocol.md, "Binary step");
 * the mirror of engines/loader/binary-codec.ts and the Rust core's binary_codec.rs. Only the
 * per-operation events and effects have a binary form; everything else is canonical JSON behind
 * tag 0 ({@link Codec} reads and writes it). Strings follow the core's one-char-per-byte
 * convention ({@link Json}), so a binary string reads exactly as the same bytes inside JSON.
 */
public final class BinaryCodec {
    private BinaryCodec() {}

    static final int EVENT_JSON = 0x00;
    static final int EVENT_CLIENT = 0x01;
    static final int EVENT_MESSAGE = 0x02;

    static final int EFFECT_JSON = 0x00;
    static final int EFFECT_REPLY = 0x01;
    static final int EFFECT_SEND = 0x02;

    static final int MESSAGE_ACCEPT_REQUEST = 1;
    static final int MESSAGE_ACCEPT_RESPONSE = 2;
    static final int MESSAGE_COMMIT_REQUEST = 3;
    static final int MESSAGE_COMMIT_RESPONSE = 4;

    private static final int MAX_UINT_BYTES = 8;
    /** The longest LEB128 of any unsigned 64-bit value a writer may be handed. */
    private static final int U64_BYTES = 10;
    private static final int SMALL_UINT_BYTES = 4;
    private static final long UINT_LIMIT = 1L << 53;

    /** The wire order of the enumerations (docs/protocol.md): an enum's ordinal is its byte. */
    private static final Instance.State[] STATES = Instance.State.values();
    private static final Command.Type[] COMMAND_TYPES = Command.Type.values();

    /** Thrown on bytes the encoding does not allow; the step turns it into a bad event. */
    static final class BadBytes extends Exception {
        BadBytes() {
            super("bad binary event");
        }
    }

    private static final BadBytes BAD = new BadBytes();

    /** A cursor over one event's bytes. */
    private static final class Reader {
        final byte[] in;
        final int end;
        int pos;

        Reader(byte[] in, int length) {
            this.in = in;
            this.end = length;
        }

        int u8() throws BadBytes {
            if (pos >= end) throw BAD;
            return in[pos++] & 0xff;
        }

        /** Unsigned LEB128, shortest form, below 2^53. */
        long uint() throws BadBytes {
            // The first four bytes (28 bits, every value an operation carries in practice) in
            // int arithmetic: TeaVM's JavaScript build allocates for every long operation.
            int small = 0;
            for (int i = 0; i < SMALL_UINT_BYTES; i++) {
                int b = u8();
                small |= (b & 0x7f) << (7 * i);
                if ((b & 0x80) == 0) {
                    if (b == 0 && i > 0) throw BAD;
                    return small;
                }
            }
            long value = small;
            for (int i = SMALL_UINT_BYTES; i < MAX_UINT_BYTES; i++) {
                int b = u8();
                value |= (long) (b & 0x7f) << (7 * i);
                if ((b & 0x80) == 0) {
                    if ((b == 0 && i > 0) || value >= UINT_LIMIT) throw BAD;
                    return value;
                }
            }
            throw BAD;
        }

        boolean bool() throws BadBytes {
            int b = u8();
            if (b > 1) throw BAD;
            return b == 1;
        }

        String string() throws BadBytes {
            long n = uint();
            if (n > end - pos) throw BAD;
            String s = Json.fromBytes(in, pos, (int) n);
            pos += (int) n;
            return s;
        }

        void finished() throws BadBytes {
            if (pos != end) throw BAD;
        }
    }

    /** Reads the first length bytes of in as one event; null when they are not one. */
    /**
     * The end of the batch frame (docs/protocol.md, "Batch step") whose length starts at
     * {@code pos} of the first {@code length} bytes of {@code in}, its body ending there and
     * starting at {@link #frameBodyStart} of the same position; -1 when the frame's length is
     * not a valid integer or runs past the end.
     */
    public static int batchFrameEnd(byte[] in, int length, int pos) {
        try {
            Reader r = new Reader(in, length);
            r.pos = pos;
            long n = r.uint();
            return n > length - r.pos ? -1 : r.pos + (int) n;
        } catch (BadBytes e) {
            return -1;
        }
    }

    /** Where the body of the frame at {@code pos} starts (its framing checked already). */
    public static int frameBodyStart(byte[] in, int pos) {
        while ((in[pos] & 0x80) != 0) pos++;
        return pos + 1;
    }

    /** Whether the first {@code length} bytes of {@code in} are whole frames. */
    public static boolean validBatchFraming(byte[] in, int length) {
        for (int pos = 0; pos < length; ) {
            pos = batchFrameEnd(in, length, pos);
            if (pos < 0) return false;
        }
        return true;
    }

    public static Event decodeEvent(byte[] in, int length) {
        try {
            Reader r = new Reader(in, length);
            Event ev;
            switch (r.u8()) {
                case EVENT_JSON: {
                    byte[] json = new byte[length - 1];
                    System.arraycopy(in, 1, json, 0, json.length);
                    return Codec.decodeEvent(json);
                }
                case EVENT_CLIENT: {
                    long clientId = r.uint();
                    long requestId = r.uint();
                    ev = Event.client(clientId, requestId, r.string());
                    break;
                }
                case EVENT_MESSAGE:
                    ev = Event.message(readMessage(r));
                    break;
                default:
                    return null;
            }
            r.finished();
            return ev;
        } catch (BadBytes e) {
            return null;
        }
    }

    private static Command readCommand(Reader r) throws BadBytes {
        int t = r.u8();
        if (t >= COMMAND_TYPES.length) throw BAD;
        Command.Type type = COMMAND_TYPES[t];
        if (type == Command.Type.NOOP) return Command.noop();
        String key = r.string();
        if (!Command.validKey(key)) throw BAD;
        if (type != Command.Type.PUT) return new Command(type, key, "");
        String value = r.string();
        if (!Command.validValue(value)) throw BAD;
        return Command.put(key, value);
    }

    private static Message readMessage(Reader r) throws BadBytes {
        int kind = r.u8();
        MessageType type;
        switch (kind) {
            case MESSAGE_ACCEPT_REQUEST: type = MessageType.ACCEPT_REQUEST; break;
            case MESSAGE_ACCEPT_RESPONSE: type = MessageType.ACCEPT_RESPONSE; break;
            case MESSAGE_COMMIT_REQUEST: type = MessageType.COMMIT_REQUEST; break;
            case MESSAGE_COMMIT_RESPONSE: type = MessageType.COMMIT_RESPONSE; break;
            default: throw BAD;
        }
        Message m = new Message(type);
        m.from = r.uint();
        m.to = r.uint();
        m.channelId = r.uint();
        switch (kind) {
            case MESSAGE_ACCEPT_REQUEST: {
                long ballot = r.uint();
                long index = r.uint();
                long clientId = r.uint();
                long requestId = r.uint();
                int s = r.u8();
                if (s >= STATES.length) throw BAD;
                m.instance = new Instance(ballot, index, clientId, requestId, STATES[s], readCommand(r));
                break;
            }
            case MESSAGE_ACCEPT_RESPONSE:
                m.ok = r.bool();
                m.ballot = r.uint();
                break;
            case MESSAGE_COMMIT_REQUEST:
                m.ballot = r.uint();
                m.lastExecuted = r.uint();
                m.globalLastExecuted = r.uint();
                break;
            default:
                m.ok = r.bool();
                m.ballot = r.uint();
                m.lastExecuted = r.uint();
                break;
        }
        return m;
    }

    /** A growing byte buffer, reused from step to step. */
    public static final class Output {
        byte[] bytes = new byte[256];
        int length;
        /** Scratch for the JSON of tag-0 records. */
        private final StringBuilder json = new StringBuilder(256);

        public int length() {
            return length;
        }

        /** The buffer the output is written into: its first length() bytes are the output. */
        public byte[] buffer() {
            return bytes;
        }

        /** The output's first length() bytes as an array of their own. */
        public byte[] toArray() {
            byte[] out = new byte[length];
            System.arraycopy(bytes, 0, out, 0, length);
            return out;
        }

        /** Empties the output (a batch's frames are appended to it). */
        public void clear() {
            length = 0;
        }

        /** Appends one batch frame (docs/protocol.md, "Batch step"): body's length, then body. */
        public void frame(Output body) {
            uint(body.length);
            room(body.length);
            System.arraycopy(body.bytes, 0, bytes, length, body.length);
            length += body.length;
        }

        private void room(int n) {
            if (length + n <= bytes.length) return;
            byte[] grown = new byte[Math.max(bytes.length * 2, length + n)];
            System.arraycopy(bytes, 0, grown, 0, length);
            bytes = grown;
        }

        void u8(int b) {
            room(1);
            bytes[length++] = (byte) b;
        }

        void uint(long v) {
            if (v >= 0 && v <= Integer.MAX_VALUE) {
                uint((int) v);
                return;
            }
            // v is an unsigned 64-bit value: one at 2^63 or above is negative as a long, so
            // the loop tests for bits above the low seven, not for v >= 0x80 (as Rust's u64 and
            // Go's uint64 loops do); such a value takes ten bytes.
            room(U64_BYTES);
            while ((v & ~0x7fL) != 0) {
                bytes[length++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            bytes[length++] = (byte) v;
        }

        /** uint for a value in 0..2^31-1, in int arithmetic (see Reader.uint). */
        void uint(int v) {
            room(MAX_UINT_BYTES + 1);
            while (v >= 0x80) {
                bytes[length++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            bytes[length++] = (byte) v;
        }

        /** Takes a String, not a CharSequence: String.charAt is a direct call in TeaVM's output. */
        void string(String s) {
            int n = s.length();
            uint(n);
            room(n);
            for (int i = 0; i < n; i++) bytes[length++] = (byte) s.charAt(i);
        }

        /** Moves the bytes written since start behind their LEB128 length. */
        void prefixLength(int start) {
            int body = length - start;
            int prefix = 1;
            for (int v = body; v >= 0x80; v >>>= 7) prefix++;
            room(prefix);
            System.arraycopy(bytes, start, bytes, start + prefix, body);
            int end = length + prefix;
            length = start;
            uint(body);
            length = end;
        }
    }

    /** The message's type byte, or 0 when it has no binary form. */
    private static int binaryType(Message m) {
        switch (m.type) {
            case ACCEPT_REQUEST: return MESSAGE_ACCEPT_REQUEST;
            case ACCEPT_RESPONSE: return MESSAGE_ACCEPT_RESPONSE;
            case COMMIT_REQUEST: return MESSAGE_COMMIT_REQUEST;
            case COMMIT_RESPONSE: return MESSAGE_COMMIT_RESPONSE;
            default: return 0;
        }
    }

    static void writeMessage(Output out, int kind, Message m) {
        out.u8(kind);
        out.uint(m.from);
        out.uint(m.to);
        out.uint(m.channelId);
        switch (kind) {
            case MESSAGE_ACCEPT_REQUEST: {
                Instance inst = m.instance;
                out.uint(inst.ballot);
                out.uint(inst.index);
                out.uint(inst.clientId);
                out.uint(inst.requestId);
                out.u8(inst.state.ordinal());
                Command c = inst.command;
                out.u8(c.type.ordinal());
                if (c.type != Command.Type.NOOP) out.string(c.key);
                if (c.type == Command.Type.PUT) out.string(c.value);
                break;
            }
            case MESSAGE_ACCEPT_RESPONSE:
                out.u8(m.ok ? 1 : 0);
                out.uint(m.ballot);
                break;
            case MESSAGE_COMMIT_REQUEST:
                out.uint(m.ballot);
                out.uint(m.lastExecuted);
                out.uint(m.globalLastExecuted);
                break;
            default:
                out.u8(m.ok ? 1 : 0);
                out.uint(m.ballot);
                out.uint(m.lastExecuted);
                break;
        }
    }

    private static void writeReply(Output out, Effect e) {
        out.u8(EFFECT_REPLY);
        out.uint(e.clientId);
        out.uint(e.requestId);
        Command.Result result = e.result;
        out.u8(result.type.ordinal());
        switch (result.type) {
            case OK: out.string(result.value); break;
            case LEADER_IS: out.uint(result.leader); break;
            case BUSY: out.uint(result.pauseUs); break;
            default: break;
        }
    }

    /** Writes effects in the binary encoding into out (cleared first). */
    public static void encodeEffects(List<Effect> effects, Output out) {
        out.length = 0;
        for (int i = 0; i < effects.size(); i++) {
            Effect e = effects.get(i);
            int kind = e.type == EffectType.SEND ? binaryType(e.message) : 0;
            if (e.type == EffectType.REPLY) {
                writeReply(out, e);
            } else if (kind != 0) {
                out.u8(EFFECT_SEND);
                int start = out.length;
                writeMessage(out, kind, e.message);
                out.prefixLength(start);
            } else {
                out.u8(EFFECT_JSON);
                StringBuilder json = out.json;
                json.setLength(0);
                Codec.appendEffect(json, e);
                out.string(json.toString()); // tag 0 is off the per-operation path
            }
        }
    }
}
