package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import org.junit.jupiter.api.Test;

import replicant.core.Instance.State;

class LogTest {
    private static Instance inst(long ballot, long index, State state, Command c) {
        return new Instance(ballot, index, 7, index, state, c);
    }

    private static final Command A = Command.put("k", "a");
    private static final Command B = Command.put("k", "b");

    @Test
    void mergeRuleFillsAnEmptySlot() {
        HashMap<Long, Instance> m = new HashMap<>();
        Instance i = inst(0x101, 1, State.IN_PROGRESS, A);
        assertEquals(Log.InsertOutcome.STORED, Log.insertInto(m, i));
        assertSame(i, m.get(1L));
    }

    @Test
    void mergeRuleKeepsCommittedAndExecutedSlots() {
        for (State s : new State[] {State.COMMITTED, State.EXECUTED}) {
            HashMap<Long, Instance> m = new HashMap<>();
            Instance stored = inst(0x201, 1, s, A);
            m.put(1L, stored);
            assertEquals(Log.InsertOutcome.KEPT, Log.insertInto(m, inst(0x301, 1, State.IN_PROGRESS, A)));
            assertSame(stored, m.get(1L));
            // A chosen command against a higher or equal ballot's different one: Paxos forbids it.
            assertEquals(Log.InsertOutcome.VIOLATION, Log.insertInto(m, inst(0x301, 1, State.IN_PROGRESS, B)));
            assertEquals(Log.InsertOutcome.VIOLATION, Log.insertInto(m, inst(0x201, 1, State.IN_PROGRESS, B)));
            // Two chosen commands that differ, whatever their ballots.
            assertEquals(Log.InsertOutcome.VIOLATION, Log.insertInto(m, inst(0x101, 1, State.COMMITTED, B)));
            assertEquals(Log.InsertOutcome.VIOLATION, Log.insertInto(m, inst(0x101, 1, State.EXECUTED, B)));
            // A stale in-progress instance of a lower ballot was never chosen: it may differ.
            assertEquals(Log.InsertOutcome.KEPT, Log.insertInto(m, inst(0x101, 1, State.IN_PROGRESS, B)));
            assertSame(stored, m.get(1L));
        }
    }

    @Test
    void mergeRuleReplacesAnInProgressSlotOfLowerBallot() {
        HashMap<Long, Instance> m = new HashMap<>();
        m.put(1L, inst(0x101, 1, State.IN_PROGRESS, A));
        Instance higher = inst(0x202, 1, State.IN_PROGRESS, B);
        assertEquals(Log.InsertOutcome.STORED, Log.insertInto(m, higher));
        assertSame(higher, m.get(1L));
    }

    @Test
    void mergeRuleKeepsEqualBallotsAndFlagsDifferentCommands() {
        HashMap<Long, Instance> m = new HashMap<>();
        Instance stored = inst(0x101, 1, State.IN_PROGRESS, A);
        m.put(1L, stored);
        assertEquals(Log.InsertOutcome.KEPT, Log.insertInto(m, inst(0x101, 1, State.IN_PROGRESS, A)));
        assertEquals(Log.InsertOutcome.VIOLATION, Log.insertInto(m, inst(0x101, 1, State.IN_PROGRESS, B)));
        assertSame(stored, m.get(1L));
    }

    @Test
    void mergeRuleKeepsAHigherStoredBallot() {
        HashMap<Long, Instance> m = new HashMap<>();
        Instance stored = inst(0x202, 1, State.IN_PROGRESS, A);
        m.put(1L, stored);
        assertEquals(Log.InsertOutcome.KEPT, Log.insertInto(m, inst(0x101, 1, State.IN_PROGRESS, B)));
        assertSame(stored, m.get(1L));
        // ... but a lower-ballot instance that was chosen with another command is a violation.
        assertEquals(Log.InsertOutcome.VIOLATION, Log.insertInto(m, inst(0x101, 1, State.COMMITTED, B)));
        assertEquals(Log.InsertOutcome.KEPT, Log.insertInto(m, inst(0x101, 1, State.COMMITTED, A)));
        assertSame(stored, m.get(1L));
    }

    @Test
    void appendTracksLastIndexAndIgnoresTrimmedSlots() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        log.append(inst(0x101, 3, State.IN_PROGRESS, A), out);
        assertEquals(3, log.lastIndex());
        assertEquals(1, out.size());
        assertEquals(Log.ChangeKind.STORED, out.get(0).kind);
        // Execute 1..3, trim them, then an append at 2 is ignored.
        for (long i = 1; i <= 2; i++) log.append(inst(0x101, i, State.IN_PROGRESS, A), out);
        for (long i = 1; i <= 3; i++) log.commit(i, out);
        for (int i = 0; i < 3; i++) log.markExecuted();
        assertTrue(log.trimUntil(2));
        out.clear();
        log.append(inst(0x202, 2, State.IN_PROGRESS, B), out);
        assertTrue(out.isEmpty());
        assertNull(log.get(2));
        assertEquals(1, log.size());
    }

    @Test
    void commitOnlyChangesInProgressSlots() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        log.append(inst(0x101, 1, State.IN_PROGRESS, A), out);
        out.clear();
        log.commit(1, out);
        assertEquals(State.COMMITTED, log.get(1).state);
        assertEquals(1, out.size());
        log.commit(1, out);
        log.commit(9, out);
        assertEquals(1, out.size());
    }

    @Test
    void commitUntilStopsAtAGapAndReportsStaleSlots() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        log.append(inst(0x201, 1, State.IN_PROGRESS, A), out);
        log.append(inst(0x101, 2, State.IN_PROGRESS, A), out); // stale: an older leader's
        log.append(inst(0x201, 3, State.IN_PROGRESS, A), out);
        log.append(inst(0x201, 5, State.IN_PROGRESS, A), out); // after the gap at 4
        out.clear();
        log.commitUntil(10, 0x201, out);
        assertEquals(3, out.size());
        assertEquals(Log.ChangeKind.STORED, out.get(0).kind);
        assertEquals(1, out.get(0).instance.index);
        assertEquals(Log.ChangeKind.STALE, out.get(1).kind);
        assertEquals(2, out.get(1).instance.index);
        assertEquals(Log.ChangeKind.STORED, out.get(2).kind);
        assertEquals(3, out.get(2).instance.index);
        assertEquals(State.IN_PROGRESS, log.get(2).state);
        assertEquals(State.IN_PROGRESS, log.get(5).state);
    }

    @Test
    void commitUntilStopsAtAHigherBallot() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        log.append(inst(0x301, 1, State.IN_PROGRESS, A), out);
        log.append(inst(0x201, 2, State.IN_PROGRESS, A), out);
        out.clear();
        log.commitUntil(2, 0x201, out);
        assertEquals(1, out.size());
        assertEquals(Log.ChangeKind.VIOLATION, out.get(0).kind);
        assertEquals(Log.REASON_HIGHER_BALLOT, out.get(0).reason);
        assertEquals(State.IN_PROGRESS, log.get(2).state);
    }

    @Test
    void commitUntilRespectsTheLeadersLastExecuted() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        for (long i = 1; i <= 3; i++) log.append(inst(0x201, i, State.IN_PROGRESS, A), out);
        out.clear();
        log.commitUntil(2, 0x201, out);
        assertEquals(2, out.size());
        assertEquals(State.IN_PROGRESS, log.get(3).state);
    }

    @Test
    void trimIsClampedToLastExecuted() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        for (long i = 1; i <= 4; i++) log.append(inst(0x101, i, State.IN_PROGRESS, A), out);
        for (long i = 1; i <= 4; i++) log.commit(i, out);
        log.markExecuted();
        log.markExecuted();
        assertTrue(log.trimUntil(10)); // only 1..2 were executed here
        assertEquals(2, log.globalLastExecuted());
        assertNull(log.get(1));
        assertNull(log.get(2));
        assertEquals(State.COMMITTED, log.get(3).state);
        assertFalse(log.trimUntil(1)); // gle never goes back
        assertEquals(2, log.globalLastExecuted());
        Log empty = new Log(); // a restarted node cannot claim what it never executed
        assertFalse(empty.trimUntil(5));
        assertEquals(0, empty.globalLastExecuted());
    }

    @Test
    void executorOrderAndInstancesAreSorted() {
        Log log = new Log();
        List<Log.Change> out = new ArrayList<>();
        for (long i : new long[] {9, 3, 1, 2, 40, 17}) log.append(inst(0x101, i, State.IN_PROGRESS, A), out);
        long prev = 0;
        for (Instance i : log.instances()) {
            assertTrue(i.index > prev);
            prev = i.index;
        }
        assertNull(log.nextExecutable()); // 1 is not committed yet
        log.commit(1, out);
        assertEquals(1, log.nextExecutable().index);
        assertEquals(State.EXECUTED, log.markExecuted().state);
        assertEquals(1, log.lastExecuted());
    }
}
