package replicant.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A strict JSON reader (RFC 8259 plus the rules of docs/protocol.md: non-negative integers below
 * 2^53 only, no duplicate keys, nesting at most {@link #MAX_DEPTH}) and helpers for the
 * canonical writer. Hand-written, like the Go reference's json.go, so that every engine accepts
 * and rejects exactly the same inputs.
 *
 * <p>The reader works on bytes. A decoded string holds one byte per char (0..255), as Go's
 * strings hold bytes: a raw non-ASCII byte stays one char above 0x7f, an escape of a code point
 * at or above 0x80 becomes a two-char non-ASCII marker, and every field of ours rejects both.
 */
public final class Json {
    public static final int MAX_DEPTH = 16;
    public static final long MAX_SAFE_INT = (1L << 53) - 1;

    private Json() {}

    public enum Kind { NULL, BOOL, NUMBER, STRING, ARRAY, OBJECT }

    /** One parsed value; which fields matter depends on kind. */
    public static final class Value {
        public final Kind kind;
        public boolean bool;
        public long number;
        public String string;
        public List<Value> items;
        public List<Field> fields;

        Value(Kind kind) {
            this.kind = kind;
        }

        /** The value of the field with this name, or null. */
        public Value field(String name) {
            for (Field f : fields) {
                if (f.name.equals(name)) return f.value;
            }
            return null;
        }
    }

    public static final class Field {
        public final String name;
        public final Value value;

        Field(String name, Value value) {
            this.name = name;
            this.value = value;
        }
    }

    /** Reads exactly one JSON value (surrounded by optional whitespace); null if invalid. */
    public static Value parse(byte[] in) {
        Reader r = new Reader(in);
        Value v = r.value();
        if (v == null) return null;
        r.skipSpace();
        return r.pos == in.length ? v : null;
    }

    private static final class Reader {
        final byte[] in;
        int pos;
        int depth;

        Reader(byte[] in) {
            this.in = in;
        }

        void skipSpace() {
            while (pos < in.length) {
                byte c = in[pos];
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
                else return;
            }
        }

        boolean literal(String word) {
            if (in.length - pos < word.length()) return false;
            for (int i = 0; i < word.length(); i++) {
                if (in[pos + i] != word.charAt(i)) return false;
            }
            pos += word.length();
            return true;
        }

        Value value() {
            skipSpace();
            if (pos >= in.length) return null;
            byte c = in[pos];
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') {
                String s = str();
                if (s == null) return null;
                Value v = new Value(Kind.STRING);
                v.string = s;
                return v;
            }
            if (c == 't' && literal("true")) {
                Value v = new Value(Kind.BOOL);
                v.bool = true;
                return v;
            }
            if (c == 'f' && literal("false")) return new Value(Kind.BOOL);
            if (c == 'n' && literal("null")) return new Value(Kind.NULL);
            if (c >= '0' && c <= '9') return number();
            return null;
        }

        /**
         * Accepts only what our schemas allow: a non-negative integer below 2^53 written
         * without fraction or exponent. Any other JSON number is rejected here.
         */
        Value number() {
            int start = pos;
            while (pos < in.length && in[pos] >= '0' && in[pos] <= '9') pos++;
            int len = pos - start;
            if (len > 1 && in[start] == '0') return null;
            if (pos < in.length) {
                byte c = in[pos];
                if (c == '.' || c == 'e' || c == 'E') return null;
            }
            if (len > 16) return null;
            long n = 0;
            for (int i = start; i < pos; i++) n = n * 10 + (in[i] - '0');
            if (n > MAX_SAFE_INT) return null;
            Value v = new Value(Kind.NUMBER);
            v.number = n;
            return v;
        }

        static int hexDigit(byte c) {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }

        /** Reads a string starting at its opening quote; null if invalid. */
        String str() {
            pos++; // opening quote
            StringBuilder out = new StringBuilder();
            for (;;) {
                if (pos >= in.length) return null;
                int c = in[pos] & 0xff;
                if (c == '"') {
                    pos++;
                    return out.toString();
                }
                if (c < 0x20) return null;
                if (c != '\\') {
                    out.append((char) c);
                    pos++;
                    continue;
                }
                if (pos + 1 >= in.length) return null;
                byte e = in[pos + 1];
                pos += 2;
                switch (e) {
                    case '"':
                    case '\\':
                    case '/':
                        out.append((char) e);
                        break;
                    case 'b':
                        out.append('\b');
                        break;
                    case 'f':
                        out.append('\f');
                        break;
                    case 'n':
                        out.append('\n');
                        break;
                    case 'r':
                        out.append('\r');
                        break;
                    case 't':
                        out.append('\t');
                        break;
                    case 'u': {
                        if (pos + 4 > in.length) return null;
                        int cp = 0;
                        for (int i = 0; i < 4; i++) {
                            int d = hexDigit(in[pos + i]);
                            if (d < 0) return null;
                            cp = (cp << 4) | d;
                        }
                        pos += 4;
                        if (cp < 0x80) {
                            out.append((char) cp);
                        } else { // the non-ASCII marker: two bytes, as Go writes them
                            out.append((char) (0xc0 | ((cp >> 6) & 0x1f)));
                            out.append((char) (0x80 | (cp & 0x3f)));
                        }
                        break;
                    }
                    default:
                        return null;
                }
            }
        }

        boolean enter() {
            depth++;
            return depth <= MAX_DEPTH;
        }

        /**
         * Steps into a list (an array or an object) at its opening bracket: whether an item
         * follows (false: the list closed at once), null past the depth limit.
         */
        Boolean openList(byte close) {
            if (!enter()) return null;
            pos++;
            skipSpace();
            if (pos < in.length && in[pos] == close) {
                pos++;
                depth--;
                return false;
            }
            return true;
        }

        /**
         * Steps over what follows an item of a list: a comma (true: another item follows), the
         * list's closing bracket (false), or null for anything else.
         */
        Boolean nextItem(byte close) {
            skipSpace();
            if (pos >= in.length) return null;
            byte c = in[pos];
            if (c == ',') {
                pos++;
                return true;
            }
            if (c != close) return null;
            pos++;
            depth--;
            return false;
        }

        Value array() {
            Boolean more = openList((byte) ']');
            Value v = new Value(Kind.ARRAY);
            v.items = new ArrayList<>();
            while (Boolean.TRUE.equals(more)) {
                Value item = value();
                if (item == null) return null;
                v.items.add(item);
                more = nextItem((byte) ']');
            }
            return more == null ? null : v;
        }

        Value object() {
            Boolean more = openList((byte) '}');
            Value v = new Value(Kind.OBJECT);
            v.fields = new ArrayList<>();
            while (Boolean.TRUE.equals(more)) {
                skipSpace();
                if (pos >= in.length || in[pos] != '"') return null;
                String name = str();
                if (name == null) return null;
                for (Field f : v.fields) {
                    if (f.name.equals(name)) return null; // duplicate key
                }
                skipSpace();
                if (pos >= in.length || in[pos] != ':') return null;
                pos++;
                Value item = value();
                if (item == null) return null;
                v.fields.add(new Field(name, item));
                more = nextItem((byte) '}');
            }
            return more == null ? null : v;
        }
    }

    // --- the canonical writer ---

    /** n as an unsigned decimal (without Long.toUnsignedString, for the TeaVM builds). */
    public static String formatUint(long n) {
        return appendUint(new StringBuilder(20), n).toString();
    }

    public static StringBuilder appendUint(StringBuilder b, long n) {
        if (n >= 0) return b.append(n);
        long q = (n >>> 1) / 5; // n / 10, unsigned
        long r = n - q * 10;
        return b.append(q).append((char) ('0' + r));
    }

    public static StringBuilder appendString(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') b.append('\\');
            b.append(c);
        }
        return b.append('"');
    }

    /** Writes {@code "name":} preceded by a comma unless it is the first field. */
    public static StringBuilder appendField(StringBuilder b, String name, boolean first) {
        if (!first) b.append(',');
        return b.append('"').append(name).append("\":");
    }

    public static StringBuilder appendUintField(StringBuilder b, String name, long n, boolean first) {
        return appendUint(appendField(b, name, first), n);
    }

    public static StringBuilder appendStringField(StringBuilder b, String name, String s, boolean first) {
        return appendString(appendField(b, name, first), s);
    }

    public static StringBuilder appendBoolField(StringBuilder b, String name, boolean v, boolean first) {
        return appendField(b, name, first).append(v ? "true" : "false");
    }

    /** 16 lowercase hex digits. */
    public static String hex16(long v) {
        final String digits = "0123456789abcdef";
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = digits.charAt((int) (v & 0xf));
            v >>>= 4;
        }
        return new String(out);
    }

    /** A string of one char per byte (the core's string convention), for output as bytes. */
    public static byte[] toBytes(CharSequence s) {
        byte[] out = new byte[s.length()];
        for (int i = 0; i < out.length; i++) out[i] = (byte) s.charAt(i);
        return out;
    }

    /** Bytes as a string of one char per byte. */
    public static String fromBytes(byte[] b, int off, int len) {
        char[] out = new char[len];
        for (int i = 0; i < len; i++) out[i] = (char) (b[off + i] & 0xff);
        return new String(out);
    }
}
