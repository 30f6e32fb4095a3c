package replicant.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;

import org.junit.jupiter.api.Test;

import replicant.core.Messages.Event;
import replicant.core.Messages.TimerName;

/**
 * The invariant check must be able to fail: a node whose state breaks an invariant throws on its
 * next step, naming the invariant. Mirrors engines/go-wasm/core/invariants_test.go.
 */
class InvariantsTest {
    static {
        Node.checkInvariants = true;
    }

    /** A started node that has run one election timer (a candidate). */
    private static Node candidate() {
        Config c = Config.defaults();
        c.id = 0;
        c.numPeers = 3;
        c.seed = 1;
        Node n = new Node(c);
        n.step(Event.start());
        n.step(Event.timer(TimerName.ELECTION));
        return n;
    }

    /** Breaks the log on purpose: its counters are private, so the test reaches them by reflection. */
    private static void setLogField(Node n, String name, long value) throws ReflectiveOperationException {
        Field f = Log.class.getDeclaredField(name);
        f.setAccessible(true);
        f.setLong(n.log, value);
    }

    private static void expectCaught(Node n, String want) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> n.step(Event.timer(TimerName.ELECTION)));
        assertTrue(e.getMessage().contains("invariant: node 0: " + want), e.getMessage());
    }

    @Test
    void gleAboveLastExecutedIsCaught() throws ReflectiveOperationException {
        Node n = candidate();
        setLogField(n, "globalLastExecuted", n.log.lastExecuted() + 1);
        expectCaught(n, "gle > last_executed");
    }

    @Test
    void lastExecutedAboveLastIndexIsCaught() throws ReflectiveOperationException {
        Node n = candidate();
        setLogField(n, "lastExecuted", n.log.lastIndex() + 1);
        expectCaught(n, "last_executed > last_index");
    }

    @Test
    void soundNodeStepsOn() {
        candidate().step(Event.timer(TimerName.ELECTION));
    }
}
