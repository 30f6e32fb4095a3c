package replicant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import replicant.core.Codec;
import replicant.core.Config;
import replicant.core.Durability;
import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.EventType;
import replicant.core.Messages.TimerName;
import replicant.core.Node;

/** Compaction: a bounded log under load, restart from snapshot + log, crashes between steps, corrupt snapshots. */
class WalCompactionTest {
    @TempDir
    Path dir;

    private static Node durableNode(long snapshotEvery) throws Exception {
        Config c = Config.defaults();
        c.numPeers = 1;
        c.seed = 1;
        c.durability = Durability.Mode.LOG;
        c.snapshotEvery = snapshotEvery;
        // checkpoints need both batches (validate), as the server runs them
        c.repairBatch = Config.SERVER_REPAIR_BATCH;
        c.electionBatch = Config.SERVER_ELECTION_BATCH;
        c.validate();
        return new Node(c);
    }

    /** Steps the node as the server does: every persist effect appended, then `persisted`. */
    private static void stepOnWal(Node n, Wal w, Event ev) throws Exception {
        ArrayDeque<Event> next = new ArrayDeque<>(List.of(ev));
        while (!next.isEmpty()) {
            for (Effect e : new ArrayList<>(n.step(next.pop()))) {
                if (e.type != EffectType.PERSIST) continue;
                w.append(e.records);
                Event done = new Event(EventType.PERSISTED);
                done.persistId = e.persistId;
                next.push(done);
            }
        }
    }

    private static String kvOf(String inspect) {
        return inspect.substring(inspect.indexOf("\"kv\":"), inspect.indexOf("\"prepare\":"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String checkpoint(long lastExecuted) {
        return "{\"kind\":\"checkpoint\",\"ballot\":257,\"last_executed\":" + lastExecuted + ",\"kv\":[[\"k\",\"" + lastExecuted + "\"]]}";
    }

    private static String committedPut(long index) {
        return "{\"kind\":\"instance\",\"instance\":{\"ballot\":257,\"index\":" + index + ",\"client_id\":1,\"request_id\":" + index
                + ",\"state\":\"committed\",\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"" + index + "\"}}}";
    }

    private static byte[] frames(String... records) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (String r : records) {
            byte[] p = bytes(r);
            java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            h.putInt(p.length).putInt((int) Wal.crc32c(p, 0, p.length));
            out.writeBytes(h.array());
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * Under 2,000 puts with snapshot_every 64 the log stays bounded (without compaction it ends above
     * 2,000 × 150 bytes), and a node restarted from the snapshot and the log has the same KV store.
     */
    @Test
    void theLogStaysBoundedAndARestartEqualsTheNodeBefore() throws Exception {
        Wal w = Wal.open(dir, Wal.Fsync.NEVER, new Wal.Read());
        Node n = durableNode(64);
        stepOnWal(n, w, new Event(EventType.START));
        Event elect = new Event(EventType.TIMER);
        elect.timer = TimerName.ELECTION;
        stepOnWal(n, w, elect);
        long maxLog = 0;
        for (int i = 1; i <= 2000; i++) {
            Event put = new Event(EventType.CLIENT);
            put.clientId = 1;
            put.requestId = i;
            put.line = "put k" + (i % 37) + " v" + i;
            stepOnWal(n, w, put);
            maxLog = Math.max(maxLog, w.size());
        }
        assertTrue(maxLog <= 64 * 2 * 250, "the log grew to " + maxLog + " bytes with the load");
        assertTrue(Files.size(dir.resolve(Wal.SNAPSHOT_FILE)) > 0);
        String before = n.inspect();
        w.close();
        Wal.Read read = new Wal.Read();
        Wal.open(dir, Wal.Fsync.NEVER, read).close();
        assertTrue(read.records.size() < 70, "a restart replays " + read.records.size() + " records");
        Event restart = new Event(EventType.RESTART);
        restart.records = new ArrayList<>();
        for (byte[] r : read.records) restart.records.add(Codec.decodeRecordJson(r));
        Node m = durableNode(64);
        m.step(restart);
        String after = m.inspect();
        assertEquals(kvOf(before), kvOf(after));
        assertTrue(after.contains("\"last_executed\":2000,"), after);
    }

    /** A crash between the steps of a compaction loses nothing. */
    @Test
    void aCrashBetweenTheStepsOfACompactionLosesNothing() throws Exception {
        byte[] oldSnapshot = frames(checkpoint(1));
        byte[] batch = frames(checkpoint(3), committedPut(4));
        byte[] log = frames(committedPut(2), committedPut(3), checkpoint(3), committedPut(4));
        byte[][][] cases = {{oldSnapshot, Arrays.copyOf(batch, 9)}, {batch, null}};
        for (int i = 0; i < cases.length; i++) {
            Path d = Files.createDirectory(dir.resolve("crash" + i));
            Files.write(d.resolve(Wal.SNAPSHOT_FILE), cases[i][0]);
            if (cases[i][1] != null) Files.write(d.resolve(Wal.SNAPSHOT_FILE + ".tmp"), cases[i][1]);
            Files.write(d.resolve(Wal.WAL_FILE), log);
            Wal.Read read = new Wal.Read();
            Wal.open(d, Wal.Fsync.NEVER, read).close();
            assertEquals(2, read.records.size());
            assertEquals(checkpoint(3), new String(read.records.get(0), StandardCharsets.US_ASCII));
            assertEquals(committedPut(4), new String(read.records.get(1), StandardCharsets.US_ASCII));
            assertFalse(Files.exists(d.resolve(Wal.SNAPSHOT_FILE + ".tmp")), "the temp file was left behind");
        }
    }

    @Test
    void aCorruptSnapshotIsANamedError() throws Exception {
        byte[] good = frames(checkpoint(3), committedPut(4));
        byte[] flipped = good.clone();
        flipped[12] ^= 0x20;
        byte[][] bad = {flipped, Arrays.copyOf(good, good.length - 3), frames(committedPut(4)), new byte[0]};
        for (int i = 0; i < bad.length; i++) {
            Path d = Files.createDirectory(dir.resolve("corrupt" + i));
            Files.write(d.resolve(Wal.SNAPSHOT_FILE), bad[i]);
            ServerConfig.BadConfig e = assertThrows(ServerConfig.BadConfig.class, () -> Wal.open(d, Wal.Fsync.NEVER, new Wal.Read()));
            assertTrue(e.getMessage().contains("corrupt snapshot") && e.getMessage().contains(d.resolve(Wal.SNAPSHOT_FILE).toString()),
                    e.getMessage());
        }
    }
}
