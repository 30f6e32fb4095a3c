package replicant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import replicant.core.Config;
import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;
import replicant.core.Messages.MessageType;
import replicant.core.Messages.TimerName;
import replicant.core.Node;

/**
 * How timers and events share the core lock (docs/protocol.md, "Steady leadership"), on a clock
 * the test moves by hand; no timer thread runs.
 */
class CoreDriverTest {
    private static final long MS = 1_000_000;
    private static final long BALLOT_1_1 = 257; // round 1, leader 1

    private long now;
    private final List<Effect> seen = new ArrayList<>();

    private CoreDriver driver(int id) {
        Config c = Config.defaults();
        c.id = id;
        c.numPeers = 3;
        c.seed = id + 1;
        c.commitIntervalUs = 150_000;
        c.trace = true;
        CoreDriver d = new CoreDriver(new Node(c), () -> now, new Status.DriverCounters());
        d.setEffects(seen::addAll);
        d.step(Event.start(), now);
        return d;
    }

    private static Event heartbeat(long to) {
        Message m = new Message(MessageType.COMMIT_REQUEST);
        m.from = 1;
        m.to = to;
        m.channelId = 2;
        m.ballot = BALLOT_1_1;
        return Event.message(m);
    }

    private boolean sent(MessageType type) {
        return seen.stream().anyMatch(e -> e.type == EffectType.SEND && e.message.type == type);
    }

    @Test
    void aHeartbeatReadBeforeTheElectionDeadlineGoesFirstEvenIfItReachesTheLockAfter() {
        CoreDriver d = driver(0);
        now = 10 * MS;
        d.step(heartbeat(0), now); // follows n1 from now on
        long first = d.deadlineOf(TimerName.ELECTION);
        now = first;
        d.deliverDue(); // heard a heartbeat: the timer re-arms
        long second = d.deadlineOf(TimerName.ELECTION);
        assertTrue(second > first);
        seen.clear();
        // The next heartbeat was read 1 ms before the deadline but waited 40 ms for the lock.
        now = second + 40 * MS;
        d.step(heartbeat(0), second - MS);
        assertFalse(sent(MessageType.PREPARE_REQUEST), "a follower that heard its leader in time must not start an election");
        assertTrue(d.deadlineOf(TimerName.ELECTION) > second, "the election timer is re-armed");
    }

    @Test
    void aTimerThatCameDueBeforeTheEventArrivedGoesFirst() {
        CoreDriver d = driver(0);
        long deadline = d.deadlineOf(TimerName.ELECTION);
        seen.clear();
        now = deadline + 50 * MS;
        d.step(heartbeat(0), deadline + 10 * MS); // nothing heard before the deadline
        assertTrue(sent(MessageType.PREPARE_REQUEST), "the election timer fired first");
    }

    @Test
    void aDueHeartbeatLeavesWithTheNextStepOfAnyThread() {
        CoreDriver d = driver(0);
        now = d.deadlineOf(TimerName.ELECTION);
        d.deliverDue(); // n0 stands for election
        Effect prepare = seen.stream().filter(e -> e.type == EffectType.SEND && e.message.type == MessageType.PREPARE_REQUEST)
                .findFirst().orElseThrow();
        for (long from = 1; from <= 2; from++) {
            Message m = new Message(MessageType.PREPARE_RESPONSE);
            m.from = from;
            m.to = 0;
            m.channelId = prepare.message.channelId;
            m.ok = true;
            m.ballot = prepare.message.ballot;
            d.step(Event.message(m), now);
        }
        long commitDeadline = d.deadlineOf(TimerName.COMMIT);
        assertTrue(commitDeadline > 0, "n0 leads and has armed its heartbeat");
        seen.clear();
        // The heartbeat is due; the timer thread has not won the lock, a client thread has.
        now = commitDeadline + 5 * MS;
        d.step(Event.client(3, 1, "put a 1"), now);
        assertTrue(sent(MessageType.COMMIT_REQUEST), "the due heartbeat went out with the client's step");
        assertEquals(EffectType.SEND, seen.get(0).type);
        assertEquals(MessageType.COMMIT_REQUEST, seen.get(0).message.type, "and before the client's accept");
    }
}
