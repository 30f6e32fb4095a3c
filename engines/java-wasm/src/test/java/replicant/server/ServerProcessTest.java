package replicant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The server as a process: its log lines, and what its SIGTERM path still has to load. */
class ServerProcessTest {
    @Test
    void testPortsAreBelowTheEphemeralRangeAndDistinct() throws IOException {
        List<Integer> ports = TestPorts.free(6);
        int lo = TestPorts.ephemeralRange()[0];
        assertTrue(ports.stream().allMatch(p -> p >= TestPorts.LOWEST && p < lo), "ports " + ports + " below " + lo);
        assertEquals(6, ports.stream().distinct().count(), "distinct: " + ports);
    }

    @Test
    void logLinesCarryTheWallClockLikeTheOtherServers() {
        LocalDateTime at = LocalDateTime.of(2026, 11, 27, 0, 12, 28, 123_456_000);
        assertEquals("[java n2] 2026/11/27 00:12:28.123456 status {}", Server.logLine(2, at, "status {}"));
    }

    /**
     * The SIGTERM handler logs the JVM's stats, whose first call loaded java.lang.management and
     * the stream classes — seconds at SIGTERM on a loaded machine, past the nemesis's 3 s grace.
     * The server now runs that path once before its first status line: every class the handler
     * needs is loaded by then (class-load log and server log share stderr, so the order is real).
     * Waits on state (the status line, the exit), never on a fixed delay.
     */
    @Test
    void stopPathIsLoadedBeforeTheFirstStatusLineAndSigtermExitsZero() throws Exception {
        Path dir = Files.createTempDirectory("replicant-java-stop");
        Path cfg = dir.resolve("cluster.json");
        List<Integer> port = TestPorts.free(6);
        Files.writeString(cfg, "{\"peers\":[\"127.0.0.1:" + port.get(0) + "\",\"127.0.0.1:" + port.get(1)
                + "\",\"127.0.0.1:" + port.get(2) + "\"],\"clients\":[\"127.0.0.1:" + port.get(3) + "\",\"127.0.0.1:"
                + port.get(4) + "\",\"127.0.0.1:" + port.get(5) + "\"],\"commit_interval_ms\":50}");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xlog:class+load=info:stderr", "-cp", "target/classes",
                "replicant.server.Main", cfg.toString(), "--id", "0");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> lines = new ArrayList<>();
        int firstStatus = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                if (firstStatus < 0 && line.contains(" status {")) {
                    firstStatus = lines.size() - 1;
                    // SIGTERM by kill(1): Process.destroy() would also close the stream read here
                    new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).inheritIO().start().waitFor();
                }
            }
        } finally {
            if (p.isAlive()) p.destroyForcibly();
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the server did not exit");
        assertTrue(firstStatus >= 0, "no status line: " + String.join("\n", lines));
        List<String> before = lines.subList(0, firstStatus);
        for (String cls : new String[] {"replicant.host.RuntimeStats", "java.lang.management.ManagementFactory",
                "java.util.stream.LongPipeline"}) {
            assertTrue(before.stream().anyMatch(l -> l.contains(" " + cls + " ")),
                    cls + " was not loaded before the first status line (the SIGTERM path would load it)");
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[java n0] ") && l.contains(" stopping on SIGTERM; stats {")),
                "no stop line");
        assertEquals(0, p.exitValue());
    }
}
