package replicant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import replicant.core.Config;
import replicant.core.Durability;
import replicant.core.Messages;
import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.TimerName;
import replicant.core.Node;

/**
 * A one-node cluster in durability log driven as the server drives it (persist effects to the
 * persister, persisted back from its thread), with a write that can be held at a gate.
 */
class PersisterTest {
    private final Object state = new Object();
    private int replies;
    private int held;
    private boolean shut;
    private final List<Integer> groupRecords = new ArrayList<>();
    private Node node;
    private final Persister persister = new Persister();
    /** the status line's WAL counters, as the server keeps them */
    private final Status.DriverCounters counters = new Status.DriverCounters();

    private void step(Event ev) {
        synchronized (node) {
            for (Effect e : node.step(ev)) {
                if (e.type == EffectType.PERSIST) persister.queue(e.persistId, e.records);
                if (e.type == EffectType.REPLY) {
                    synchronized (state) {
                        replies++;
                        state.notifyAll();
                    }
                }
            }
        }
    }

    private void put(long requestId) {
        step(Event.client(1, requestId, "put k" + requestId + " v"));
    }

    /** Waits (on state, up to 10 s) until cond holds. */
    private void await(String what, BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        synchronized (state) {
            while (!cond.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                assertTrue(left > 0, "timed out waiting for " + what);
                state.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private void write(byte[] frames, byte[] checkpoint) {
        Wal.Read parsed = new Wal.Read();
        try {
            Wal.readFrames("group", frames, parsed);
        } catch (ServerConfig.BadConfig e) {
            throw new AssertionError(e);
        }
        synchronized (state) {
            groupRecords.add(parsed.records.size());
            held++;
            state.notifyAll();
            while (shut) {
                try {
                    state.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            held--;
        }
    }

    private void setShut(boolean s) {
        synchronized (state) {
            shut = s;
            state.notifyAll();
        }
    }

    // While a write is held: the core keeps stepping, no reply leaves, and the persists that
    // queued meanwhile go out in one write afterwards (a group commit).
    @Test
    void nothingLeavesBeforeItsWriteAndWaitingBatchesShareOne() throws Exception {
        Config c = Config.defaults();
        c.id = 0;
        c.numPeers = 1;
        c.seed = 1;
        c.durability = Durability.Mode.LOG;
        node = new Node(c);
        Thread runner = new Thread(() -> {
            try {
                persister.run(this::write, (id, batches) -> {
                    counters.noteWalGroup(batches);
                    Event done = new Event(Messages.EventType.PERSISTED);
                    done.persistId = id;
                    step(done);
                });
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        runner.start();
        step(Event.start());
        step(Event.timer(TimerName.ELECTION));
        put(1);
        await("the first reply", () -> replies == 1);
        setShut(true);
        put(2);
        await("a held write", () -> held == 1);
        int before;
        synchronized (state) {
            before = groupRecords.size();
        }
        for (long r = 3; r <= 6; r++) put(r); // the core takes them while the write is held
        synchronized (state) {
            assertEquals(1, replies, "a reply left while its write was held");
        }
        setShut(false);
        await("every reply", () -> replies == 6);
        await("the next write", () -> groupRecords.size() > before);
        synchronized (state) {
            // puts 3..6 queued one persist each behind the held write: they share the next one
            assertTrue(groupRecords.get(before) >= 4, groupRecords.toString());
        }
        persister.stop();
        runner.join(10_000);
        // The status line's WAL counters: one per group written, and the batches they carried,
        // more than the groups (puts 3..6 shared a write).
        long groups = counters.walGroups.get();
        long batches = counters.walBatches.get();
        synchronized (state) {
            assertEquals(groupRecords.size(), groups);
        }
        assertTrue(batches >= groups + 3, batches + " batches in " + groups + " groups");
        String line = Status.statusLine(Status.readCoreView("{}"), counters, Status.groupMean(groups, batches));
        String tail = ",\"wal_groups\":" + groups + ",\"wal_batches\":" + batches + ",\"wal_group_mean\":"
                + Status.groupMean(groups, batches) + "}";
        assertTrue(line.endsWith(tail), line);
    }

    @Test
    void groupMeanIsBatchesPerGroupWithTwoDecimals() {
        assertEquals("0.00", Status.groupMean(0, 0));
        assertEquals("1.00", Status.groupMean(1, 1));
        assertEquals("2.50", Status.groupMean(4, 10));
        assertEquals("3.33", Status.groupMean(3, 10));
    }
}
