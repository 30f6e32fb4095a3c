package replicant.server;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

import replicant.core.Messages;

/**
 * GC mitigation hooks (docs/protocol.md, "GC mitigation"; docs/mitigation.md). The "collection
 * coming" signal is a usage-threshold notification on the heap pool that fills until G1 must
 * run a mixed or full collection (G1 Old Gen): at THRESHOLD_SHARE of its maximum the server
 * sends the core gc_pending with the predicted pause (the longest of the last few collections'
 * durations, from GarbageCollectorMXBean notifications). When the core says collect (at once,
 * after the handoff, or after the leader's grant) a thread of its own runs System.gc() and
 * reports gc_done. G1's young collections still run on their own: the JVM cannot hold them off.
 */
final class GcWatch {
    /** Share of the old generation's maximum at which a collection is announced. */
    static final double THRESHOLD_SHARE = 0.6;
    static final int PAUSE_HISTORY = 8;

    private final Server server;
    private final MemoryPoolMXBean pool;
    private final ArrayDeque<Long> recentPausesUs = new ArrayDeque<>();
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long announcedAtNanos;
    final AtomicLong announced = new AtomicLong();
    final AtomicLong collected = new AtomicLong();

    private GcWatch(Server server, MemoryPoolMXBean pool) {
        this.server = server;
        this.pool = pool;
    }

    /** Starts watching, or returns null (and says why) when no pool can announce collections. */
    static GcWatch start(Server server) {
        MemoryPoolMXBean old = null;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.isUsageThresholdSupported() && p.getUsage().getMax() > 0
                    && (old == null || p.getName().contains("Old") || p.getName().contains("Tenured"))) {
                old = p;
            }
        }
        if (old == null) {
            server.log("gc: no heap pool with a usage threshold and a maximum: the GC mitigation cannot watch (set -Xmx)");
            return null;
        }
        GcWatch w = new GcWatch(server, old);
        old.setUsageThreshold((long) (old.getUsage().getMax() * THRESHOLD_SHARE));
        NotificationEmitter memory = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
        memory.addNotificationListener((n, hb) -> {
            if (MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(n.getType())) w.announce();
        }, null, null);
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((n, hb) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) return;
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                w.notePause(info.getGcInfo().getDuration() * 1000);
            }, null, null);
        }
        server.log("gc: watching " + old.getName() + ", announcing at " + ((long) (old.getUsage().getMax() * THRESHOLD_SHARE) >> 20) + " MiB");
        return w;
    }

    private synchronized void notePause(long us) {
        recentPausesUs.addLast(us);
        if (recentPausesUs.size() > PAUSE_HISTORY) recentPausesUs.removeFirst();
    }

    /** The longest of the recent collections, at least 1 µs. */
    synchronized long predictedPauseUs() {
        long longest = 1;
        for (long p : recentPausesUs) longest = Math.max(longest, p);
        return longest;
    }

    private void announce() {
        if (!pending.compareAndSet(false, true)) return;
        announced.incrementAndGet();
        announcedAtNanos = System.nanoTime();
        Messages.Event ev = new Messages.Event(Messages.EventType.GC_PENDING);
        ev.pauseUs = predictedPauseUs();
        server.step(ev);
    }

    /** The core said collect: a thread of its own runs the collection, outside the core's lock. */
    void onCollect() {
        Thread t = new Thread(this::collect, "gc-collect");
        t.setDaemon(true);
        t.start();
    }

    private void collect() {
        long start = System.nanoTime();
        System.gc();
        long end = System.nanoTime();
        collected.incrementAndGet();
        pending.set(false);
        server.log(String.format("gc: collected %.1f ms after the announcement, System.gc() %.1f ms, old gen now %d MiB (announced %d, collected %d)",
                (start - announcedAtNanos) / 1e6, (end - start) / 1e6, pool.getUsage().getUsed() >> 20, announced.get(), collected.get()));
        server.step(new Messages.Event(Messages.EventType.GC_DONE));
        // a pool still above the threshold after the collection will not notify again
        if (pool.isUsageThresholdExceeded()) announce();
    }
}
