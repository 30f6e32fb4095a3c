package replicant.server;

/**
 * The test hook that resets a peer link from inside the server (docs/protocol.md, "Native
 * servers", "reset-peer"): the cluster tests used to reset links through forwarding proxies,
 * whose event loop stalled under load and held every peer message meanwhile (docs/
 * reliability.md, "Fifth series"). Off unless the server was started with --test-peer-reset.
 */
final class PeerReset {
    private static final String VERB = "reset-peer";

    private PeerReset() {}

    /** The writer's signal that reset-peer asked for its connection to be closed. */
    static final class Requested extends java.io.IOException {
        Requested() {
            super("reset-peer");
        }
    }

    /**
     * The reply to a reset-peer line (without its newline), after asking the link to reset; null
     * when the line is not one (it goes to the core as a client command).
     */
    static String command(String line, boolean on, long self, PeerLink[] links) {
        String arg;
        if (line.equals(VERB)) arg = "";
        else if (line.startsWith(VERB + " ")) arg = line.substring(VERB.length() + 1);
        else return null;
        if (!on) return "error reset-peer is off: start the server with --test-peer-reset";
        int peer = parsePeerId(arg, links.length, self);
        if (peer < 0) {
            return "error reset-peer takes one peer id, 0 to " + (links.length - 1) + " and not this node's own (" + self
                    + "): got " + quoted(arg);
        }
        links[peer].requestReset();
        return "reset peer " + peer;
    }

    /** A peer id in decimal digits only (no sign, no spaces, at most 3 digits), below numPeers and not self; -1 otherwise. */
    private static int parsePeerId(String arg, int numPeers, long self) {
        if (arg.isEmpty() || arg.length() > 3) return -1;
        int n = 0;
        for (int i = 0; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (c < '0' || c > '9') return -1;
            n = n * 10 + (c - '0');
        }
        return n < numPeers && n != self ? n : -1;
    }

    /** arg quoted for an error line (printable ASCII kept, the rest escaped). */
    private static String quoted(String arg) {
        StringBuilder q = new StringBuilder("\"");
        for (int i = 0; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (c == '"' || c == '\\') q.append('\\').append(c);
            else if (c >= 0x20 && c < 0x7f) q.append(c);
            else q.append(String.format("\\x%02x", (int) c & 0xff));
        }
        return q.append('"').toString();
    }
}
