package replicant.core;

import java.util.ArrayList;
import java.util.List;

import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.TimerName;
import replicant.core.Messages.Trace;
import replicant.core.Messages.TraceKind;

/**
 * Durability (docs/protocol.md, "Durability"): in {@code log} mode the core names what must be on
 * disk (persist effects) and keeps every message and reply back until the driver reports that
 * everything persisted so far is there. The core never touches a disk; a restarted node is handed
 * its records in a {@code restart} event. Mirrors engines/go-wasm/core/durability.go.
 */
public final class Durability {
    private Durability() {}

    public enum Mode {
        /** The paper's design: nothing survives a restart. */
        NONE("none"),
        /** Promises and accepted instances are persisted before anything reveals them. */
        LOG("log");

        public final String wire;

        Mode(String wire) {
            this.wire = wire;
        }
    }

    public enum RecordKind {
        /** The node's ballot: it accepts nothing below. */
        PROMISE("promise"),
        /** A log slot as stored (in progress or committed). */
        INSTANCE("instance"),
        /** An installed snapshot: the KV store at last_executed. */
        SNAPSHOT("snapshot"),
        /**
         * The node's own snapshot, first in a batch that also holds every slot after last_executed:
         * with its ballot, the batch supersedes every record written before it.
         */
        CHECKPOINT("checkpoint");

        public final String wire;

        RecordKind(String wire) {
            this.wire = wire;
        }
    }

    /** One durable record: what a persist effect asks for and a restart hands back. */
    public static final class Record {
        public final RecordKind kind;
        /** promise, checkpoint. */
        public final long ballot;
        /** instance. */
        public final Instance instance;
        /** snapshot, checkpoint. */
        public final long lastExecuted;
        public final List<String[]> kv;

        private Record(RecordKind kind, long ballot, Instance instance, long lastExecuted, List<String[]> kv) {
            this.kind = kind;
            this.ballot = ballot;
            this.instance = instance;
            this.lastExecuted = lastExecuted;
            this.kv = kv;
        }

        public static Record promise(long ballot) {
            return new Record(RecordKind.PROMISE, ballot, null, 0, null);
        }

        public static Record instance(Instance inst) {
            return new Record(RecordKind.INSTANCE, 0, inst, 0, null);
        }

        public static Record snapshot(long lastExecuted, List<String[]> kv) {
            return new Record(RecordKind.SNAPSHOT, 0, null, lastExecuted, kv);
        }

        public static Record checkpoint(long ballot, long lastExecuted, List<String[]> kv) {
            return new Record(RecordKind.CHECKPOINT, ballot, null, lastExecuted, kv);
        }
    }

    /** A send or reply that waits for persist {@code persistId} to complete. */
    static final class Held {
        final long persistId;
        final Effect effect;

        Held(long persistId, Effect effect) {
            this.persistId = persistId;
            this.effect = effect;
        }
    }

    /** The node's bookkeeping for persist effects (all zero in durability none). */
    static final class State {
        /** A start or restart event was seen; a later restart is bad. */
        boolean started;
        /** The last persist id handed out. */
        long issuedId;
        /** The driver reported every persist up to this one done. */
        long doneId;
        /** The ballot of the last promise record. */
        long recordedBallot = Ballot.INITIAL_BALLOT;
        /** last_executed at the last checkpoint (or at the restart). */
        long checkpointedAt;
        /** This step's records, emitted as one persist effect. */
        ArrayList<Record> records = new ArrayList<>();
        final ArrayList<Held> held = new ArrayList<>();
    }

    static boolean durable(Node n) {
        return n.cfg.durability == Mode.LOG;
    }

    /**
     * Notes a stored slot for this step's persist effect. A slot stored and then committed in the
     * same step is written once, as its later form.
     */
    static void recordInstance(Node n, Instance inst) {
        if (!durable(n)) return;
        ArrayList<Record> rs = n.dur.records;
        int k = rs.size() - 1;
        if (k >= 0 && rs.get(k).kind == RecordKind.INSTANCE && rs.get(k).instance.index == inst.index) {
            rs.set(k, Record.instance(inst));
            return;
        }
        rs.add(Record.instance(inst));
    }

    /**
     * Ends a step in log mode: a changed ballot becomes a promise record (first in the batch), the
     * records become one persist effect, and while any persist is outstanding every send and reply
     * of the step waits for the newest one.
     */
    static void finishStep(Node n) {
        State d = n.dur;
        if (checkpointDue(n)) {
            takeCheckpoint(n);
        } else if (n.ballot != d.recordedBallot) {
            d.records.add(0, Record.promise(n.ballot));
            d.recordedBallot = n.ballot;
        }
        if (!d.records.isEmpty()) d.issuedId++;
        if (d.issuedId > d.doneId) {
            List<Effect> kept = new ArrayList<>(n.effects.size());
            for (Effect e : n.effects) {
                if (e.type == EffectType.SEND || e.type == EffectType.REPLY) d.held.add(new Held(d.issuedId, e));
                else kept.add(e);
            }
            n.effects.clear();
            n.effects.addAll(kept);
        }
        if (!d.records.isEmpty()) {
            Effect e = new Effect(EffectType.PERSIST);
            e.persistId = d.issuedId;
            e.records = d.records;
            d.records = new ArrayList<>();
            n.effects.add(e);
        }
    }

    /** snapshot_every instances were executed since the last checkpoint. */
    static boolean checkpointDue(Node n) {
        long every = n.cfg.snapshotEvery;
        return every > 0 && n.log.lastExecuted() >= n.dur.checkpointedAt + every;
    }

    /**
     * Replaces this step's records by a checkpoint: the ballot and the KV store at last_executed,
     * then every slot after it as stored. Everything the step recorded is in it, and so is
     * everything recorded before, so a driver may drop every earlier record once it is written.
     */
    static void takeCheckpoint(Node n) {
        State d = n.dur;
        long le = n.log.lastExecuted();
        d.records.clear();
        d.records.add(Record.checkpoint(n.ballot, le, n.kv.firstEntries(n.kv.size())));
        for (Instance inst : n.log.instances()) {
            if (inst.index > le) d.records.add(Record.instance(inst));
        }
        d.recordedBallot = n.ballot;
        d.checkpointedAt = le;
    }

    /**
     * Releases, in their original order, the effects that waited for persists up to id. Persists
     * complete in the order they were issued, so one id covers all before it.
     */
    static void onPersisted(Node n, long id) {
        State d = n.dur;
        if (id == 0 || id > d.issuedId) {
            n.badEvent();
            return;
        }
        if (id <= d.doneId) return; // already reported
        d.doneId = id;
        int released = 0;
        while (released < d.held.size() && d.held.get(released).persistId <= id) {
            n.effects.add(d.held.get(released).effect);
            released++;
        }
        d.held.subList(0, released).clear();
    }

    /** The semantic checks of a peer message, applied to a record read back from disk. */
    static boolean validRecord(Node n, Record r) {
        long num = n.cfg.numPeers;
        if (r.kind == RecordKind.PROMISE) {
            return Ballot.leaderOf(r.ballot) < num || Ballot.leaderOf(r.ballot) == Ballot.NO_LEADER;
        }
        if (r.kind == RecordKind.SNAPSHOT) return Snapshot.validKvEntries(r.kv);
        if (r.kind == RecordKind.CHECKPOINT) {
            return (Ballot.leaderOf(r.ballot) < num || Ballot.leaderOf(r.ballot) == Ballot.NO_LEADER)
                    && Snapshot.validKvEntries(r.kv);
        }
        Instance inst = r.instance;
        return inst.index >= 1 && Ballot.leaderOf(inst.ballot) < num && inst.state != Instance.State.EXECUTED;
    }

    /**
     * Boots the node from its persisted records: the highest promise, the slots as last stored (a
     * later record of a slot replaces an earlier one), then the executor replays the committed
     * prefix into the KV store. A node that led comes back leading nobody, at its round, so it
     * cannot send under a ballot it may have used before the crash.
     */
    static void onRestart(Node n, List<Record> records) {
        if (n.dur.started) {
            n.badEvent();
            return;
        }
        for (Record r : records) {
            if (!validRecord(n, r)) {
                n.badEvent();
                return;
            }
        }
        n.dur.started = true;
        long ballot = n.ballot;
        for (Record r : records) {
            if (r.kind == RecordKind.PROMISE) {
                ballot = Math.max(ballot, r.ballot);
            } else if (r.kind == RecordKind.INSTANCE) {
                if (r.instance.index > n.log.globalLastExecuted()) n.log.restore(r.instance); // not inside a snapshot
                ballot = Math.max(ballot, r.instance.ballot);
            } else {
                if (r.lastExecuted > n.log.lastExecuted()) Snapshot.install(n, r.lastExecuted, r.kv);
                if (r.kind == RecordKind.CHECKPOINT) ballot = Math.max(ballot, r.ballot);
            }
        }
        if (Ballot.leaderOf(ballot) == n.cfg.id) ballot = (ballot & ~0xffL) | Ballot.NO_LEADER; // above the recorded one
        n.ballot = ballot;
        n.dur.recordedBallot = ballot;
        Trace t = new Trace(TraceKind.RECOVERED);
        t.ballot = ballot;
        t.lastIndex = n.log.lastIndex();
        t.count = records.size();
        n.trace(t);
        MultiPaxos.execute(n);
        n.dur.checkpointedAt = n.log.lastExecuted();
        n.setTimer(TimerName.ELECTION, n.electionDelayUs());
    }

    /** The first broken durability invariant, or null. */
    static String invariantError(Node n) {
        State d = n.dur;
        if (d.doneId > d.issuedId) return "persist done beyond the last issued";
        if (!d.held.isEmpty()
                && (d.held.get(0).persistId <= d.doneId || d.held.get(d.held.size() - 1).persistId > d.issuedId)) {
            return "a held effect waits for a persist already done or never issued";
        }
        if (!durable(n) && (d.issuedId != 0 || !d.held.isEmpty())) return "persist state in durability none";
        if (durable(n) && d.recordedBallot != n.ballot) return "the ballot is not recorded";
        return null;
    }
}
