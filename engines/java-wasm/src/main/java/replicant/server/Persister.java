package replicant.server;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import replicant.core.Durability;

/**
 * The persister: a group commit for the write-ahead log (docs/protocol.md, "Write-ahead log"), as
 * the Go server's (engines/go-wasm/server/persister.go). A step's persist effect only queues its
 * frames, under the core lock; one thread takes every batch queued since its last write, writes
 * them in one write and syncs once (by the fsync policy) with the core lock released, then reports
 * the newest persist id done. Meanwhile the core keeps stepping, and what it holds for a persist
 * (sends and replies) stays held until that report: N requests that arrive during one fsync share
 * the next one instead of queueing N fsyncs behind the lock.
 */
final class Persister {
    /** Writes a group's frames in one write, synced by policy; checkpoint: the last batch's frames when it is a checkpoint, else null. */
    interface WriteGroup {
        void write(byte[] frames, byte[] checkpoint) throws IOException;
    }

    /** Hears a group's newest persist id and how many batches it carried (the status line's WAL counters). */
    interface Done {
        void done(long persistId, int batches);
    }

    private static final class Batch {
        final long id;
        final byte[] frames;
        final boolean checkpoint; // supersedes every record before it

        Batch(long id, byte[] frames, boolean checkpoint) {
            this.id = id;
            this.frames = frames;
            this.checkpoint = checkpoint;
        }
    }

    private final ArrayDeque<Batch> queue = new ArrayDeque<>();
    private boolean stopping;

    /** Queues one persist effect's records; never waits for a write. */
    void queue(long persistId, List<Durability.Record> records) {
        Batch b = new Batch(persistId, Wal.frames(records), Wal.startsWithCheckpoint(records));
        synchronized (this) {
            queue.add(b);
            notifyAll();
        }
    }

    /** Ends run once a write in progress (and its done) is over; what is still queued was never reported done. */
    synchronized void stop() {
        stopping = true;
        notifyAll();
    }

    /** The persister's loop, on its own thread: returns when stopped, throws a write's error. */
    void run(WriteGroup write, Done done) throws IOException, InterruptedException {
        for (;;) {
            List<Batch> group = new ArrayList<>();
            synchronized (this) {
                while (queue.isEmpty() && !stopping) wait();
                if (stopping) return;
                // Every batch queued, or those up to and including the first checkpoint: the log
                // is compacted right after a checkpoint is written, so a batch after it goes into
                // the emptied log.
                while (!queue.isEmpty()) {
                    Batch b = queue.poll();
                    group.add(b);
                    if (b.checkpoint) break;
                }
            }
            int size = 0;
            for (Batch b : group) size += b.frames.length;
            byte[] frames = new byte[size];
            int at = 0;
            for (Batch b : group) {
                System.arraycopy(b.frames, 0, frames, at, b.frames.length);
                at += b.frames.length;
            }
            Batch last = group.get(group.size() - 1);
            write.write(frames, last.checkpoint ? last.frames : null);
            done.done(last.id, group.size());
        }
    }
}
