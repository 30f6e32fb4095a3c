package replicant.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;

/** The MultiPaxos log: slots by index and the three counters of the protocol. */
public final class Log {
    /** What happened to a slot during a log operation, so the protocol can trace it. */
    public enum ChangeKind {
        /** A slot was filled, replaced or committed. */
        STORED,
        /** commit_until met an instance of an older ballot. */
        STALE,
        /** A safety check failed. */
        VIOLATION
    }

    /** Violation reasons, as they appear in trace records. */
    public static final String REASON_COMMAND_MISMATCH = "command_mismatch";
    public static final String REASON_HIGHER_BALLOT = "higher_ballot";

    public static final class Change {
        public final ChangeKind kind;
        /** The slot after the change (for STALE: the stale instance). */
        public final Instance instance;
        /** For VIOLATION. */
        public final String reason;

        public Change(ChangeKind kind, Instance instance, String reason) {
            this.kind = kind;
            this.instance = instance;
            this.reason = reason;
        }
    }

    /** The result of the merge rule. */
    enum InsertOutcome { KEPT, STORED, VIOLATION }

    /**
     * Applies the merge rule of docs/protocol.md to one slot of m. Differing commands are a
     * violation only where Paxos forbids them: both chosen (committed or executed), equal
     * ballots, or a chosen instance against one of a higher ballot. A stale in-progress instance
     * of a lower ballot may differ (it was never chosen) and is simply not taken.
     */
    static InsertOutcome insertInto(HashMap<Long, Instance> m, Instance inst) {
        Instance stored = m.get(inst.index);
        if (stored == null) {
            m.put(inst.index, inst);
            return InsertOutcome.STORED;
        }
        boolean same = stored.command.equals(inst.command);
        boolean incomingChosen = inst.state == Instance.State.COMMITTED || inst.state == Instance.State.EXECUTED;
        if (stored.state == Instance.State.COMMITTED || stored.state == Instance.State.EXECUTED) {
            return !same && (incomingChosen || inst.ballot >= stored.ballot) ? InsertOutcome.VIOLATION
                    : InsertOutcome.KEPT;
        }
        if (inst.ballot > stored.ballot) {
            m.put(inst.index, inst);
            return InsertOutcome.STORED;
        }
        if (inst.ballot == stored.ballot && !same) return InsertOutcome.VIOLATION;
        if (inst.ballot < stored.ballot && incomingChosen && !same) return InsertOutcome.VIOLATION;
        return InsertOutcome.KEPT;
    }

    private final HashMap<Long, Instance> instances = new HashMap<>();
    private long lastIndex;
    private long lastExecuted;
    private long globalLastExecuted;

    public long lastIndex() {
        return lastIndex;
    }

    /** The first broken log invariant, or null. */
    String invariantError() {
        if (lastExecuted > lastIndex) return "last_executed > last_index";
        if (globalLastExecuted > lastExecuted) return "gle > last_executed";
        for (var e : instances.entrySet()) {
            long index = e.getKey();
            if (index <= globalLastExecuted) return "index " + index + " stored at or below gle";
            if (e.getValue().state == Instance.State.EXECUTED && index > lastExecuted) {
                return "index " + index + " executed beyond last_executed";
            }
        }
        return null;
    }

    public long lastExecuted() {
        return lastExecuted;
    }

    public long globalLastExecuted() {
        return globalLastExecuted;
    }

    public int size() {
        return instances.size();
    }

    /** Raises last_index (a new leader keeps the maximum it has seen). */
    /** Drops every slot up to lastExecuted and moves the counters there (see Snapshot). */
    void installSnapshot(long upTo) {
        instances.keySet().removeIf(index -> index <= upTo);
        lastExecuted = upTo;
        globalLastExecuted = upTo;
        setLastIndexAtLeast(upTo);
    }

    /** Puts a slot back exactly as a durable record holds it (restart only; see Durability). */
    void restore(Instance inst) {
        setLastIndexAtLeast(inst.index);
        instances.put(inst.index, inst);
    }

    public void setLastIndexAtLeast(long i) {
        if (i > lastIndex) lastIndex = i;
    }

    /** Reserves the next index for a new command. */
    public long advanceLastIndex() {
        return ++lastIndex;
    }

    /** Stores inst by the merge rule; indices already trimmed are ignored. */
    public void append(Instance inst, List<Change> out) {
        if (inst.index <= globalLastExecuted) return;
        switch (insertInto(instances, inst)) {
            case STORED:
                setLastIndexAtLeast(inst.index);
                out.add(new Change(ChangeKind.STORED, inst, null));
                break;
            case VIOLATION:
                out.add(new Change(ChangeKind.VIOLATION, inst, REASON_COMMAND_MISMATCH));
                break;
            default:
                break;
        }
    }

    /** Marks an in-progress slot committed. */
    public void commit(long index, List<Change> out) {
        Instance inst = instances.get(index);
        if (inst == null || inst.state != Instance.State.IN_PROGRESS) return;
        inst = inst.withState(Instance.State.COMMITTED);
        instances.put(index, inst);
        out.add(new Change(ChangeKind.STORED, inst, null));
    }

    /**
     * Commits, up to the leader's last_executed, the slots written under the leader's ballot;
     * it stops at the first gap.
     */
    public void commitUntil(long leaderLastExecuted, long ballot, List<Change> out) {
        for (long i = lastExecuted + 1; i <= leaderLastExecuted; i++) {
            Instance inst = instances.get(i);
            if (inst == null) return;
            if (inst.ballot > ballot) {
                out.add(new Change(ChangeKind.VIOLATION, inst, REASON_HIGHER_BALLOT));
                return;
            }
            if (inst.ballot < ballot) {
                out.add(new Change(ChangeKind.STALE, inst, null));
                continue;
            }
            if (inst.state == Instance.State.IN_PROGRESS) {
                inst = inst.withState(Instance.State.COMMITTED);
                instances.put(i, inst);
                out.add(new Change(ChangeKind.STORED, inst, null));
            }
        }
    }

    /** The slot after last_executed if it is committed, else null. */
    public Instance nextExecutable() {
        Instance inst = instances.get(lastExecuted + 1);
        return inst != null && inst.state == Instance.State.COMMITTED ? inst : null;
    }

    /** Records that the slot after last_executed was applied. */
    public Instance markExecuted() {
        Instance inst = instances.get(lastExecuted + 1).withState(Instance.State.EXECUTED);
        lastExecuted++;
        instances.put(lastExecuted, inst);
        return inst;
    }

    /** Drops executed slots up to min(g, last_executed); reports whether gle moved. */
    public boolean trimUntil(long g) {
        long t = Math.min(g, lastExecuted);
        if (t <= globalLastExecuted) return false;
        for (long i = globalLastExecuted + 1; i <= t; i++) instances.remove(i);
        globalLastExecuted = t;
        return true;
    }

    /** The slot at index, or null. */
    public Instance get(long index) {
        return instances.get(index);
    }

    /** Every stored slot in ascending index order. */
    public List<Instance> instances() {
        return sortedInstances(instances.values());
    }

    /** A copy of the slots (a candidate's merged log starts from its own). */
    public HashMap<Long, Instance> copy() {
        return new HashMap<>(instances);
    }

    static List<Instance> sortedInstances(Collection<Instance> values) {
        ArrayList<Instance> out = new ArrayList<>(values);
        out.sort((a, b) -> Long.compare(a.index, b.index));
        return out;
    }
}
