package replicant.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * Writes to a peer connection and closes it when a write makes no progress for {@code stallNs}:
 * a peer that stopped reading (or a closed receive window whose reopening went unnoticed) gets a
 * fresh connection instead of a writer blocked behind it (issue 20). Java's socket writes block
 * without a time limit, so a watchdog thread, one per connection, closes the socket, which ends
 * the blocked write with an exception.
 */
final class ProgressWriter implements AutoCloseable {
    /** Bytes per write call: the watchdog sees progress at this granularity. */
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final long WATCH_INTERVAL_MS = 100;

    private final Socket socket;
    private final OutputStream out;
    private final long stallNs;
    private final Thread watchdog;
    /** System.nanoTime() when the write in progress last moved; 0 when no write is in progress. */
    private volatile long lastProgressNs;
    private volatile boolean stalled;

    ProgressWriter(Socket socket, long stallNs) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.stallNs = stallNs;
        this.watchdog = new Thread(this::watch, "peer-write-watchdog-" + socket.getRemoteSocketAddress());
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Writes all of buf[0, len); an IOException (naming the stall, if it was one) when the connection failed or stalled. */
    void write(byte[] buf, int len) throws IOException {
        lastProgressNs = System.nanoTime();
        try {
            for (int off = 0; off < len; ) {
                int n = Math.min(CHUNK_BYTES, len - off);
                out.write(buf, off, n);
                off += n;
                lastProgressNs = System.nanoTime();
            }
            out.flush();
        } catch (IOException e) {
            if (stalled) throw new IOException("no write progress for " + stallNs / 1_000_000 + " ms", e);
            throw e;
        } finally {
            lastProgressNs = 0;
        }
    }

    private void watch() {
        try {
            for (;;) {
                Thread.sleep(WATCH_INTERVAL_MS);
                long since = lastProgressNs;
                if (since != 0 && System.nanoTime() - since > stallNs) {
                    stalled = true;
                    Server.closeQuietly(socket);
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    @Override
    public void close() {
        watchdog.interrupt();
    }
}
