package replicant.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Listening ports for test clusters, from below the kernel's ephemeral range. A port that
 * {@code new ServerSocket(0)} handed out and the test then released can become the source port
 * of any outgoing connection on the machine before the server binds it ("address already in
 * use"; seen in CI with the Go tests' same helper). Source ports come only from the ephemeral
 * range. engines/cluster/ports.ts and the Go server tests' freeAddrs do the same.
 */
final class TestPorts {
    static final int LOWEST = 10_000;

    private TestPorts() {}

    /** The kernel's source-port range (Linux's default when /proc does not say). */
    static int[] ephemeralRange() {
        int[] fallback = {32_768, 60_999};
        try {
            String[] f = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            if (f.length != 2) return fallback;
            int lo = Integer.parseInt(f[0]), hi = Integer.parseInt(f[1]);
            return lo >= 1 && hi <= 65_535 && lo <= hi ? new int[] {lo, hi} : fallback;
        } catch (IOException | NumberFormatException e) {
            return fallback;
        }
    }

    /** n ports free now, below the ephemeral range, walking from a random start. */
    static List<Integer> free(int n) throws IOException {
        int first = LOWEST, last = ephemeralRange()[0] - 1, width = last - first + 1;
        if (width < n) throw new IOException("no room for " + n + " ports below the ephemeral range");
        int start = ThreadLocalRandom.current().nextInt(width);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < width && out.size() < n; i++) {
            int port = first + (start + i) % width;
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                out.add(port);
            } catch (IOException taken) {
                // in use: try the next
            }
        }
        if (out.size() < n) throw new IOException("found only " + out.size() + " of " + n + " free ports in " + first + "-" + last);
        return out;
    }
}
