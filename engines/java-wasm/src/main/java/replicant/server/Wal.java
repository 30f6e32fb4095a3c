package replicant.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import replicant.core.Codec;
import replicant.core.Durability;
import replicant.core.Json;

/**
 * The write-ahead log of a node in durability log (docs/protocol.md, "Write-ahead log"), frame for
 * frame the Go server's (engines/go-wasm/server/wal.go): each record of a persist effect is its
 * length (4 bytes, little endian), its CRC-32C (4 bytes, little endian) and its canonical JSON.
 *
 * <p>Compaction (docs/protocol.md, "Compaction"), as the Go server: a persist whose first record is
 * a checkpoint is appended, then written as DIR/snapshot (temp file, fsync, rename, fsync of the
 * directory) and the log truncated; a restart reads the snapshot, then the log, from the last
 * checkpoint in the two, so a crash between any two steps loses nothing.
 */
final class Wal {
    private static final int FRAME_HEADER = 8;
    /** Bounds one record (a snapshot of the whole store is the largest). */
    private static final long MAX_RECORD = 1L << 30;

    /** What a log held when it was opened. */
    static final class Read {
        final List<byte[]> records = new ArrayList<>();
        /** Set when a torn tail was truncated away. */
        String warning;
        long end;
    }

    static final String WAL_FILE = "wal.log";
    static final String SNAPSHOT_FILE = "snapshot";
    private static final byte[] CHECKPOINT_PREFIX =
            "{\"kind\":\"checkpoint\",".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Path dir;
    private final Path path;
    private final FileChannel file;
    private final Fsync policy;
    /** Fsync.INTERVAL: frames written since the flusher's last sync. */
    private final java.util.concurrent.atomic.AtomicBoolean dirty = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;

    /** When appended frames are forced to the device. */
    enum Fsync {
        /** Before the core hears the persist is done: one fsync per group of batches. */
        ALWAYS,
        /** By a background flush every SYNC_INTERVAL_MS; a machine crash (not a process crash) can lose the last interval. */
        INTERVAL,
        /** Left to the kernel. */
        NEVER
    }

    static final long SYNC_INTERVAL_MS = 10;

    private Wal(Path dir, Path path, FileChannel file, Fsync policy) {
        this.dir = dir;
        this.path = path;
        this.file = file;
        this.policy = policy;
        if (policy == Fsync.INTERVAL) {
            Thread t = new Thread(this::flushLoop, "wal-flusher");
            t.setDaemon(true);
            t.start();
        }
    }

    private void flushLoop() {
        while (!closed) {
            try {
                Thread.sleep(SYNC_INTERVAL_MS);
                if (dirty.getAndSet(false)) file.force(false);
            } catch (InterruptedException | IOException e) {
                return; // closed under it, or the thread stopped: nothing left to flush to
            }
        }
    }

    Path path() {
        return path;
    }

    static Fsync parseFsync(String s) throws ServerConfig.BadConfig {
        switch (s) {
            case "always":
                return Fsync.ALWAYS;
            case "interval":
                return Fsync.INTERVAL;
            case "never":
                return Fsync.NEVER;
            default:
                throw new ServerConfig.BadConfig("--fsync must be always, interval or never, not \"" + s + "\"");
        }
    }

    /**
     * Opens (creating it if need be) DIR/wal.log and reads what it holds into {@code out}. A missing
     * or unusable directory, or a corrupt frame with more frames after it, is an error naming the
     * file and the offset.
     */
    static Wal open(Path dir, Fsync policy, Read out) throws ServerConfig.BadConfig {
        if (!Files.isDirectory(dir)) throw new ServerConfig.BadConfig("data dir " + dir + " is not a directory (or is missing)");
        Path path = dir.resolve(WAL_FILE);
        List<byte[]> snapshot = readSnapshotFile(dir);
        try {
            FileChannel f = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            byte[] data = Files.readAllBytes(path);
            readFrames(path.toString(), data, out);
            if (out.end < data.length) {
                f.truncate(out.end);
                f.force(true);
            }
            f.position(out.end);
            out.records.addAll(0, snapshot);
            fromLastCheckpoint(out.records);
            return new Wal(dir, path, f, policy);
        } catch (IOException e) {
            throw new ServerConfig.BadConfig("data dir " + dir + ": cannot use the write-ahead log: " + e.getMessage());
        }
    }

    /**
     * Reads DIR/snapshot, if there is one (a temp file, a compaction a crash interrupted before its
     * rename, is removed). It was renamed into place whole, so any damage (a frame cut short or
     * failing its checksum, a first record that is not a checkpoint) is an error naming the file.
     */
    private static List<byte[]> readSnapshotFile(Path dir) throws ServerConfig.BadConfig {
        Path path = dir.resolve(SNAPSHOT_FILE);
        byte[] data;
        try {
            Files.deleteIfExists(dir.resolve(SNAPSHOT_FILE + ".tmp"));
            if (!Files.exists(path)) return new ArrayList<>();
            data = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ServerConfig.BadConfig(path + ": " + e.getMessage());
        }
        return readSnapshot(path.toString(), data);
    }

    static List<byte[]> readSnapshot(String path, byte[] data) throws ServerConfig.BadConfig {
        Read r = new Read();
        try {
            readFrames(path, data, r);
        } catch (ServerConfig.BadConfig e) {
            throw new ServerConfig.BadConfig("corrupt snapshot: " + e.getMessage());
        }
        if (r.warning != null) {
            throw new ServerConfig.BadConfig("corrupt snapshot: " + path + ": a frame cut short or failing its checksum at offset "
                    + r.end + "; refusing to start");
        }
        if (r.records.isEmpty() || !isCheckpoint(r.records.get(0))) {
            throw new ServerConfig.BadConfig("corrupt snapshot: " + path + ": does not start with a checkpoint record; refusing to start");
        }
        return r.records;
    }

    static boolean isCheckpoint(byte[] record) {
        if (record.length < CHECKPOINT_PREFIX.length) return false;
        return java.util.Arrays.equals(record, 0, CHECKPOINT_PREFIX.length, CHECKPOINT_PREFIX, 0, CHECKPOINT_PREFIX.length);
    }

    /** Drops every record before the last checkpoint: it supersedes them. */
    static void fromLastCheckpoint(List<byte[]> records) {
        for (int i = records.size() - 1; i >= 0; i--) {
            if (isCheckpoint(records.get(i))) {
                records.subList(0, i).clear();
                return;
            }
        }
    }

    /** The log file's length in bytes (the snapshot not counted). */
    long size() throws IOException {
        return file.position();
    }

    static long crc32c(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return c.getValue();
    }

    static void readFrames(String path, byte[] data, Read out) throws ServerConfig.BadConfig {
        ByteBuffer buf = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        long off = 0;
        long size = data.length;
        while (off < size) {
            if (size - off < FRAME_HEADER) {
                out.warning = path + ": torn tail at offset " + off + " (" + (size - off) + " bytes of a frame header) truncated";
                break;
            }
            long n = Integer.toUnsignedLong(buf.getInt((int) off));
            long sum = Integer.toUnsignedLong(buf.getInt((int) off + 4));
            if (n > MAX_RECORD) {
                if (off + FRAME_HEADER + n >= size) {
                    out.warning = path + ": torn tail at offset " + off + " (a frame length of " + n + ") truncated";
                    break;
                }
                throw new ServerConfig.BadConfig(path + ": corrupt record at offset " + off + ": length " + n);
            }
            if (off + FRAME_HEADER + n > size) {
                out.warning = path + ": torn tail at offset " + off + " (a frame of " + n + " bytes, "
                        + (size - off - FRAME_HEADER) + " written) truncated";
                break;
            }
            if (crc32c(data, (int) off + FRAME_HEADER, (int) n) != sum) {
                if (off + FRAME_HEADER + n == size) {
                    out.warning = path + ": torn tail at offset " + off + " (the last frame's checksum fails) truncated";
                    break;
                }
                throw new ServerConfig.BadConfig(path + ": corrupt record at offset " + off + ": checksum mismatch with "
                        + (size - off - FRAME_HEADER - n) + " bytes after it; refusing to start");
            }
            byte[] payload = new byte[(int) n];
            System.arraycopy(data, (int) off + FRAME_HEADER, payload, 0, (int) n);
            out.records.add(payload);
            off += FRAME_HEADER + n;
        }
        out.end = off;
    }

    /**
     * Writes one persist effect's records as frames, in one write, synced if the policy says so. A
     * batch that starts with a checkpoint then compacts the log.
     */
    void append(List<Durability.Record> records) throws IOException {
        byte[] buf = frames(records);
        appendGroup(buf, startsWithCheckpoint(records) ? buf : null);
    }

    static boolean startsWithCheckpoint(List<Durability.Record> records) {
        return !records.isEmpty() && records.get(0).kind == Durability.RecordKind.CHECKPOINT;
    }

    /**
     * Writes frames (one or more persist effects' frames, in the order issued) in one write, synced
     * once if the policy says so: a group commit (Persister). checkpoint, when not null, is the
     * frames of the group's last batch, a checkpoint: the log is then compacted to it.
     */
    void appendGroup(byte[] frames, byte[] checkpoint) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(frames);
        while (buf.hasRemaining()) file.write(buf);
        if (policy == Fsync.ALWAYS) file.force(false);
        else if (policy == Fsync.INTERVAL) dirty.set(true);
        if (checkpoint != null) compact(ByteBuffer.wrap(checkpoint));
    }

    /** One persist effect's records as frames. */
    static byte[] frames(List<Durability.Record> records) {
        List<byte[]> payloads = new ArrayList<>(records.size());
        int total = 0;
        for (Durability.Record r : records) {
            byte[] p = Json.toBytes(Codec.appendRecord(new StringBuilder(), r));
            payloads.add(p);
            total += FRAME_HEADER + p.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] p : payloads) {
            buf.putInt(p.length);
            buf.putInt((int) crc32c(p, 0, p.length));
            buf.put(p);
        }
        return buf.array();
    }

    /**
     * Writes a checkpoint batch (already in the log) as the snapshot file, atomically, then empties
     * the log: every record in it is superseded.
     */
    private void compact(ByteBuffer frames) throws IOException {
        Path snapshot = dir.resolve(SNAPSHOT_FILE);
        Path tmp = dir.resolve(SNAPSHOT_FILE + ".tmp");
        try (FileChannel t = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (frames.hasRemaining()) t.write(frames);
            t.force(true);
        }
        Files.move(tmp, snapshot, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
        file.truncate(0);
        file.position(0);
        if (policy != Fsync.NEVER) file.force(false);
    }

    void close() throws IOException {
        closed = true;
        file.force(true);
        file.close();
    }
}
