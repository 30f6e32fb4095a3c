package replicant.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a node reports about itself in its log: the once-a-second {@code status {...}} line
 * (docs/protocol.md, "Native servers"). The same keys in all four servers.
 */
final class Status {
    private Status() {}

    /** The server's own running totals and levels. */
    static final class DriverCounters {
        /** client connections open */
        final AtomicLong clients = new AtomicLong();
        /** connections turned away over MAX_CLIENTS */
        final AtomicLong clientsRefused = new AtomicLong();
        /** client requests in the core, not yet answered */
        final AtomicLong inFlight = new AtomicLong();
        /** requests answered retry by the server's limits */
        final AtomicLong shedRetries = new AtomicLong();
        /** times a client's reading paused on its reply backlog */
        final AtomicLong readsPaused = new AtomicLong();
        /** bytes queued for all peers, not yet written */
        final AtomicLong peerQueueBytes = new AtomicLong();
        /** peer messages dropped (link down or queue full) */
        final AtomicLong droppedSends = new AtomicLong();
        /** peer lines that did not decode or were misaddressed */
        final AtomicLong garbageFrames = new AtomicLong();
        /** worst timer lateness since the last status line */
        final AtomicLong timerLateMaxUs = new AtomicLong();
        /** group writes the persister made (one sync each under --fsync always) */
        final AtomicLong walGroups = new AtomicLong();
        /** persist batches those groups carried */
        final AtomicLong walBatches = new AtomicLong();
        /**
         * The JVM's committed heap and committed non-heap memory (code cache, metaspace), read at
         * each status line: with the launcher's fixed, pre-touched heap the first stays put, so a
         * rising RSS beside a rising second is the JIT and class metadata settling, not the server
         * holding more (docs/protocol.md, "Repair", the 60 s reset run).
         */
        final AtomicLong jvmHeapCommittedBytes = new AtomicLong();
        final AtomicLong jvmNonHeapCommittedBytes = new AtomicLong();
        /**
         * How often the JVM returns freed native memory (its JIT compilers' arenas) to the kernel,
         * in ms: 0 never (the JVM's default), -1 a JVM without the option. Fixed for the process;
         * the memory runs print it beside their verdict, since without it RSS keeps the high-water
         * mark of each late compilation (docs/reliability.md, "The Java node beside C++ and Rust").
         */
        final long jvmNativeTrimIntervalMs = nativeTrimIntervalMs();

        private static long nativeTrimIntervalMs() {
            try {
                com.sun.management.HotSpotDiagnosticMXBean hotspot =
                        java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
                return Long.parseLong(hotspot.getVMOption("TrimNativeHeapInterval").getValue());
            } catch (IllegalArgumentException e) { // no such option in this JVM (also a non-numeric value)
                return -1;
            }
        }

        /** Reads the JVM's memory figures into the counters. */
        void readJvmMemory() {
            java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
            jvmHeapCommittedBytes.set(memory.getHeapMemoryUsage().getCommitted());
            jvmNonHeapCommittedBytes.set(memory.getNonHeapMemoryUsage().getCommitted());
        }

        /** Counts one group write that carried {@code batches} persist batches (batches first: a reader that sees the group sees its batches, so a mean is never below 1). */
        void noteWalGroup(int batches) {
            walBatches.addAndGet(batches);
            walGroups.incrementAndGet();
        }

        /** Records how long after its deadline a timer reached the core. */
        void noteTimerLateUs(long lateUs) {
            timerLateMaxUs.accumulateAndGet(lateUs, Math::max);
        }
    }

    /** The core's side of a status line, read from its status fields (inspect's spelling: Node.statusFields). */
    static final class CoreView {
        String role = "?";
        String leader = "null";
        long ballot;
        long elections;
        long lastIndex;
        long lastExecuted;
        long globalLastExecuted;
        long replayRemaining;
    }

    /** The raw text of the first "key":value (value up to , or }); in canonical inspect output the first "ballot" and "leader" keys are the node's own. */
    static String fieldText(String json, String key) {
        String needle = "\"" + key + "\":";
        int at = json.indexOf(needle);
        if (at < 0) return "";
        int start = at + needle.length();
        int end = start;
        while (end < json.length() && json.charAt(end) != ',' && json.charAt(end) != '}') end++;
        return json.substring(start, end);
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static CoreView readCoreView(String inspect) {
        CoreView v = new CoreView();
        String role = fieldText(inspect, "role");
        if (role.length() >= 2 && role.startsWith("\"") && role.endsWith("\"")) v.role = role.substring(1, role.length() - 1);
        String leader = fieldText(inspect, "leader");
        if (!leader.isEmpty()) v.leader = leader;
        v.ballot = parseLong(fieldText(inspect, "ballot"));
        v.elections = parseLong(fieldText(inspect, "elections"));
        v.lastIndex = parseLong(fieldText(inspect, "last_index"));
        v.lastExecuted = parseLong(fieldText(inspect, "last_executed"));
        v.globalLastExecuted = parseLong(fieldText(inspect, "global_last_executed"));
        v.replayRemaining = parseLong(fieldText(inspect, "replay_remaining"));
        return v;
    }

    /** The mean persist batches per group write between two readings of the WAL counters, "0.00" when there was none: above 1, requests shared a sync (the group commit). */
    static String groupMean(long groups, long batches) {
        if (groups == 0) return "0.00";
        return String.format(java.util.Locale.ROOT, "%.2f", (double) batches / groups);
    }

    /** The line; walMean is the mean group size since the previous line (groupMean). */
    static String statusLine(CoreView v, DriverCounters c, String walMean) {
        return "status {\"role\":\"" + v.role + "\",\"leader\":" + v.leader + ",\"ballot\":" + v.ballot
                + ",\"elections\":" + v.elections + ",\"last_index\":" + v.lastIndex + ",\"last_executed\":"
                + v.lastExecuted + ",\"global_last_executed\":" + v.globalLastExecuted + ",\"replay_remaining\":" + v.replayRemaining + ",\"clients\":" + c.clients.get() + ",\"clients_refused\":"
                + c.clientsRefused.get() + ",\"in_flight\":" + c.inFlight.get() + ",\"shed_retries\":"
                + c.shedRetries.get() + ",\"reads_paused\":" + c.readsPaused.get() + ",\"peer_queue_bytes\":"
                + c.peerQueueBytes.get() + ",\"dropped_sends\":" + c.droppedSends.get() + ",\"garbage_frames\":"
                + c.garbageFrames.get() + ",\"timer_late_max_ms\":" + c.timerLateMaxUs.get() / 1000
                + ",\"jvm_heap_committed_bytes\":" + c.jvmHeapCommittedBytes.get()
                + ",\"jvm_nonheap_committed_bytes\":" + c.jvmNonHeapCommittedBytes.get()
                + ",\"jvm_native_trim_interval_ms\":" + c.jvmNativeTrimIntervalMs
                + ",\"wal_groups\":" + c.walGroups.get() + ",\"wal_batches\":" + c.walBatches.get()
                + ",\"wal_group_mean\":" + walMean + "}";
    }
}
