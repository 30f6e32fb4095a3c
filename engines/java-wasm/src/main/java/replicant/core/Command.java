package replicant.core;

/** A client command ({@code get}, {@code put}, {@code del}), its parsing, and its result. */
public final class Command {
    public enum Type {
        GET("get"), PUT("put"), DEL("del"),
        /** Fills a log slot no promise covered when a leader takes over (docs/protocol.md, Replay);
         *  it changes nothing and no client line parses to it. */
        NOOP("noop");

        public final String wire;

        Type(String wire) {
            this.wire = wire;
        }
    }

    /** Limits on what a client may store; longer input is a bad command. */
    public static final int MAX_KEY_BYTES = 256;
    public static final int MAX_VALUE_BYTES = 65536;

    public final Type type;
    public final String key;
    /** Only for put; "" otherwise. */
    public final String value;

    public Command(Type type, String key, String value) {
        this.type = type;
        this.key = key;
        this.value = value;
    }

    public static Command get(String key) {
        return new Command(Type.GET, key, "");
    }

    public static Command put(String key, String value) {
        return new Command(Type.PUT, key, value);
    }

    public static Command del(String key) {
        return new Command(Type.DEL, key, "");
    }

    public static Command noop() {
        return new Command(Type.NOOP, "", "");
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Command)) return false;
        Command c = (Command) o;
        return type == c.type && key.equals(c.key) && value.equals(c.value);
    }

    @Override
    public int hashCode() {
        return (type.ordinal() * 31 + key.hashCode()) * 31 + value.hashCode();
    }

    @Override
    public String toString() {
        return type == Type.PUT ? "put " + key + " " + value : type.wire + " " + key;
    }

    /** What a client is told. */
    public enum ResultType {
        OK("ok"), NOT_FOUND("not_found"), RETRY("retry"), LEADER_IS("leader_is"), BAD_COMMAND("bad_command"),
        /** GC mitigation (MITMEM): retry at another replica now. */
        BUSY("busy");

        public final String wire;

        ResultType(String wire) {
            this.wire = wire;
        }
    }

    public static final class Result {
        public final ResultType type;
        /** For ok. */
        public final String value;
        /** For leader_is. */
        public final long leader;
        /** For busy: the predicted pause. */
        public final long pauseUs;

        public Result(ResultType type, String value, long leader) {
            this(type, value, leader, 0);
        }

        private Result(ResultType type, String value, long leader, long pauseUs) {
            this.type = type;
            this.value = value;
            this.leader = leader;
            this.pauseUs = pauseUs;
        }

        public static Result busy(long pauseUs) {
            return new Result(ResultType.BUSY, "", 0, pauseUs);
        }

        public static final Result NOT_FOUND = new Result(ResultType.NOT_FOUND, "", 0);
        public static final Result RETRY = new Result(ResultType.RETRY, "", 0);
        public static final Result BAD_COMMAND = new Result(ResultType.BAD_COMMAND, "", 0);
        public static final Result OK_EMPTY = new Result(ResultType.OK, "", 0);

        public static Result ok(String value) {
            return new Result(ResultType.OK, value, 0);
        }

        public static Result leaderIs(long leader) {
            return new Result(ResultType.LEADER_IS, "", leader);
        }
    }

    /** Renders a result as the client text protocol's reply line (without "\n"). */
    public static String replyLine(Result r) {
        switch (r.type) {
            case OK:
                return r.value;
            case NOT_FOUND:
                return "key not found";
            case RETRY:
                return "retry";
            case LEADER_IS:
                return "leader is " + Json.formatUint(r.leader);
            case BUSY:
                return "busy " + Json.formatUint(r.pauseUs);
            default:
                return "bad command";
        }
    }

    private static boolean isKeyByte(char c) {
        return c >= 0x21 && c <= 0x7e;
    }

    private static boolean isValueByte(char c) {
        return c >= 0x20 && c <= 0x7e;
    }

    /**
     * Whether k may be stored: 1..MAX_KEY_BYTES printable bytes, no space. Strings in the core
     * hold one byte per char (see {@link Json}), so length counts bytes.
     */
    public static boolean validKey(String k) {
        if (k.isEmpty() || k.length() > MAX_KEY_BYTES) return false;
        for (int i = 0; i < k.length(); i++) {
            if (!isKeyByte(k.charAt(i))) return false;
        }
        return true;
    }

    /** Whether v may be stored: 0..MAX_VALUE_BYTES printable bytes. */
    public static boolean validValue(String v) {
        if (v.length() > MAX_VALUE_BYTES) return false;
        for (int i = 0; i < v.length(); i++) {
            if (!isValueByte(v.charAt(i))) return false;
        }
        return true;
    }

    /**
     * Reads one client line ("get k", "put k v", "del k"); null if it is malformed. The value of
     * a put is the rest of the line after the key and one space; it may hold spaces or be empty.
     */
    public static Command parse(String line) {
        int space = line.indexOf(' ');
        if (space < 0) return null;
        String verb = line.substring(0, space);
        String rest = line.substring(space + 1);
        switch (verb) {
            case "get":
                return validKey(rest) ? get(rest) : null;
            case "del":
                return validKey(rest) ? del(rest) : null;
            case "put": {
                int sp = rest.indexOf(' ');
                if (sp < 0) return null;
                String key = rest.substring(0, sp);
                String value = rest.substring(sp + 1);
                if (!validKey(key) || !validValue(value)) return null;
                return put(key, value);
            }
            default:
                return null;
        }
    }
}
