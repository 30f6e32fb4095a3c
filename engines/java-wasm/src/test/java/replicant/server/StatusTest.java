package replicant.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The status line carries the JVM's committed heap and non-heap memory (the 60 s reset run). */
class StatusTest {
    private static long field(String line, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)[,}]").matcher(line);
        assertTrue(m.find(), line + " lacks " + key);
        return Long.parseLong(m.group(1));
    }

    @Test
    void theStatusLineReportsTheJvmCommittedHeapAndNonHeap() {
        Status.DriverCounters counters = new Status.DriverCounters();
        counters.readJvmMemory();
        String line = Status.statusLine(Status.readCoreView("{}"), counters, "0.00");
        long heap = field(line, "jvm_heap_committed_bytes");
        long nonHeap = field(line, "jvm_nonheap_committed_bytes");
        assertTrue(heap > 0, line);
        // a running JVM has committed code cache and metaspace
        assertTrue(nonHeap > 1 << 20, line);
    }

    @Test
    void theStatusLineReportsHowOftenTheJvmTrimsItsNativeHeap() {
        String line = Status.statusLine(Status.readCoreView("{}"), new Status.DriverCounters(), "0.00");
        // this test's JVM runs without the launcher's options: 0 (never) on JDK 17.0.9 or later, -1 before
        Matcher m = Pattern.compile("\"jvm_native_trim_interval_ms\":(-?\\d+)[,}]").matcher(line);
        assertTrue(m.find(), line);
        long ms = Long.parseLong(m.group(1));
        assertTrue(ms == 0 || ms == -1, line);
    }
}
