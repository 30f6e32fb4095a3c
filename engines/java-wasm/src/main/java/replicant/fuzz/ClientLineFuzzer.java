package replicant.fuzz;

import java.util.List;

import replicant.core.Command;
import replicant.core.Config;
import replicant.core.Json;
import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.TimerName;
import replicant.core.Node;

/**
 * Jazzer target for the client-line parser (engines/java-wasm/fuzz.sh). A line is bytes as
 * the server reads them off a socket. Checked: the parser never throws; what it accepts obeys
 * the key/value rules and renders back to the same line; and a single-node leader answers
 * every line with exactly one reply, bad_command exactly when the parser refused the line.
 */
public final class ClientLineFuzzer {
    private ClientLineFuzzer() {}

    private static Node leader;
    private static long requestId;

    public static void fuzzerInitialize() {
        Config c = Config.defaults();
        c.numPeers = 1;
        c.trace = false;
        leader = new Node(c);
        leader.step(Event.start());
        leader.step(Event.timer(TimerName.ELECTION));
    }

    public static void fuzzerTestOneInput(byte[] data) {
        if (leader == null) fuzzerInitialize();
        String line = Json.fromBytes(data, 0, data.length);
        Command c = Command.parse(line);
        if (c != null) {
            check(Command.validKey(c.key), "accepted an invalid key", line);
            check(Command.validValue(c.value), "accepted an invalid value", line);
            check(c.toString().equals(line), "accepted a line that does not render back", line);
            check(c.equals(Command.parse(c.toString())), "parse(render(c)) != c", line);
        }
        List<Effect> effects = leader.step(Event.client(1, ++requestId, line));
        int replies = 0;
        for (Effect e : effects) {
            if (e.type != EffectType.REPLY) continue;
            replies++;
            boolean bad = e.result.type == Command.ResultType.BAD_COMMAND;
            check(bad == (c == null), "reply " + e.result.type.wire + " disagrees with the parser", line);
        }
        check(replies == 1, replies + " replies to one line", line);
        if (requestId % 4096 == 0) fuzzerInitialize(); // keep the store small
    }

    static void check(boolean ok, String what, String input) {
        if (!ok) {
            String shown = input.length() > 200 ? input.substring(0, 200) + "..." : input;
            throw new IllegalStateException(what + ": " + Fuzz.quote(shown));
        }
    }
}
