package replicant.host;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

import replicant.core.Json;

/**
 * The JVM's own allocation and GC figures, so the simulator can read real allocation per step.
 * Not part of the byte-identical contract. Allocation is read from HotSpot's per-thread
 * allocated-bytes counter (com.sun.management.ThreadMXBean): JDK 17 has no process-wide total,
 * so the figure is the sum over the threads given (the host passes only its own thread, which
 * runs every core). The JVM does not count allocations, so allocs_total is null.
 */
public final class RuntimeStats {
    private RuntimeStats() {}

    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private static com.sun.management.ThreadMXBean threads() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        if (!(t instanceof com.sun.management.ThreadMXBean)) return null;
        com.sun.management.ThreadMXBean sun = (com.sun.management.ThreadMXBean) t;
        if (!sun.isThreadAllocatedMemorySupported()) return null;
        if (!sun.isThreadAllocatedMemoryEnabled()) sun.setThreadAllocatedMemoryEnabled(true);
        return sun;
    }

    /** Bytes allocated so far by the given threads (-1 where unknown), or -1 if unsupported. */
    public static long allocatedBytes(long[] threadIds) {
        if (THREADS == null) return -1;
        long total = 0;
        for (long v : THREADS.getThreadAllocatedBytes(threadIds)) {
            if (v > 0) total += v;
        }
        return total;
    }

    /** Bytes allocated so far by the calling thread, or -1 if unsupported. */
    public static long currentThreadAllocatedBytes() {
        return THREADS == null ? -1 : THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * The figures as one JSON object.
     *
     * @param allocBytes bytes allocated by the threads running the cores (-1: unknown)
     * @param scope what allocBytes covers, in words
     */
    public static String json(long allocBytes, String scope) {
        StringBuilder b = new StringBuilder(512);
        b.append('{');
        Json.appendStringField(b, "runtime", "java", true);
        Json.appendStringField(b, "version", System.getProperty("java.version", "?"), false);
        Json.appendStringField(b, "vm", System.getProperty("java.vm.name", "?"), false);
        Json.appendField(b, "alloc_bytes_total", false);
        if (allocBytes >= 0) b.append(allocBytes);
        else b.append("null");
        Json.appendField(b, "allocs_total", false).append("null");
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        Json.appendUintField(b, "heap_used_bytes", heap.getUsed(), false);
        Json.appendUintField(b, "heap_committed_bytes", heap.getCommitted(), false);
        Json.appendField(b, "heap_max_bytes", false);
        if (heap.getMax() >= 0) b.append(heap.getMax());
        else b.append("null");
        long gcCount = 0;
        long gcTimeMs = 0;
        StringBuilder collectors = new StringBuilder();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long count = Math.max(0, gc.getCollectionCount());
            long time = Math.max(0, gc.getCollectionTime());
            gcCount += count;
            gcTimeMs += time;
            collectors.append(collectors.length() == 0 ? "" : ",").append('{');
            Json.appendStringField(collectors, "name", gc.getName(), true);
            Json.appendUintField(collectors, "count", count, false);
            Json.appendUintField(collectors, "time_ms", time, false);
            collectors.append('}');
        }
        Json.appendUintField(b, "gc_count", gcCount, false);
        Json.appendUintField(b, "gc_time_ms", gcTimeMs, false);
        Json.appendField(b, "collectors", false).append('[').append(collectors).append(']');
        Json.appendStringField(b, "note", "alloc_bytes_total: HotSpot's allocated-bytes counter of "
                + scope + "; allocs_total: not observable on the JVM (it counts bytes, not objects)", false);
        return b.append('}').toString();
    }
}
