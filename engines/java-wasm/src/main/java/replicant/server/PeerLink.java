package replicant.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;

import replicant.core.Codec;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;

/**
 * The link to peer `to`: dials, writes what the core sends, reconnects with back-off. While
 * the link is down, sends are dropped: the protocol retries on its own (heartbeats, accept
 * timeouts, elections), and a burst of stale messages after a reconnect helps nobody. Over
 * MAX_PEER_QUEUE_BYTES the oldest queued messages are dropped, and so is a message queued longer
 * than MAX_PEER_MESSAGE_AGE_NS; a connection whose writes make no progress for
 * MAX_PEER_WRITE_STALL_NS is closed and redialled (ProgressWriter; docs/protocol.md, "Limits").
 *
 * With it, the server's peer half for inbound connections: accepting the links other nodes open
 * (acceptAll) and a reader thread each that decodes their messages and steps the core (read).
 */
final class PeerLink {
    private final Server server;
    private final int to;
    private final InetSocketAddress addr;
    private final Status.DriverCounters counters;
    private final java.util.function.LongSupplier nanoTime; // System::nanoTime; a test's clock
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>(); // guarded by this
    private final ArrayDeque<Long> queuedAtNs = new ArrayDeque<>(); // guarded by this: when each was queued
    private long queuedBytes; // guarded by this
    private boolean up; // guarded by this: connected, messages are queued only while true
    /** Guarded by this: reset-peer asked the writer to close this connection abortively and redial (PeerReset). */
    private boolean resetRequested;

    PeerLink(Server server, int to, InetSocketAddress addr) {
        this(server, to, addr, server.counters, System::nanoTime);
    }

    /** A link with its own counters and clock, for tests of its queue (no server: never run). */
    PeerLink(Status.DriverCounters counters, java.util.function.LongSupplier nanoTime) {
        this(null, -1, null, counters, nanoTime);
    }

    private PeerLink(Server server, int to, InetSocketAddress addr, Status.DriverCounters counters, java.util.function.LongSupplier nanoTime) {
        this.server = server;
        this.to = to;
        this.addr = addr;
        this.counters = counters;
        this.nanoTime = nanoTime;
    }

    synchronized void offer(byte[] line) {
        if (!up) {
            counters.droppedSends.incrementAndGet();
            return;
        }
        long now = nanoTime.getAsLong();
        dropAged(now);
        while (!queue.isEmpty() && queuedBytes + line.length > Limits.MAX_PEER_QUEUE_BYTES) dropOldest();
        if (queue.isEmpty()) notifyAll(); // the writer waits only on an empty queue
        queue.addLast(line);
        queuedAtNs.addLast(now);
        queuedBytes += line.length;
        counters.peerQueueBytes.addAndGet(line.length);
    }

    /** Drops (and counts) every message queued over MAX_PEER_MESSAGE_AGE_NS before now. */
    private void dropAged(long nowNs) {
        while (!queuedAtNs.isEmpty() && nowNs - queuedAtNs.peekFirst() > Limits.MAX_PEER_MESSAGE_AGE_NS) dropOldest();
    }

    private void dropOldest() {
        forget(queue.pollFirst().length);
        queuedAtNs.pollFirst();
        counters.droppedSends.incrementAndGet();
    }

    /** Messages and bytes queued now (tests). */
    synchronized long[] queued() {
        return new long[] {queue.size(), queuedBytes};
    }

    private void forget(long bytes) {
        queuedBytes -= bytes;
        counters.peerQueueBytes.addAndGet(-bytes);
    }

    synchronized void setUp(boolean now) {
        up = now;
        resetRequested = false;
        if (!now) {
            counters.droppedSends.addAndGet(queue.size());
            forget(queuedBytes);
            queue.clear();
            queuedAtNs.clear();
        }
    }

    /**
     * Waits for messages and copies up to about 1 MiB of them into buf (grown as needed); returns the
     * bytes taken (what waited too long while the peer did not read is dropped, not sent).
     */
    private synchronized int takeBatch(byte[][] buf) throws InterruptedException, PeerReset.Requested {
        while (queue.isEmpty() && !resetRequested) wait();
        if (resetRequested) throw new PeerReset.Requested();
        dropAged(nanoTime.getAsLong());
        int n = 0;
        while (!queue.isEmpty() && n < (1 << 20)) {
            byte[] b = queue.pollFirst();
            queuedAtNs.pollFirst();
            if (n + b.length > buf[0].length) buf[0] = java.util.Arrays.copyOf(buf[0], Math.max(2 * buf[0].length, n + b.length));
            System.arraycopy(b, 0, buf[0], n, b.length);
            n += b.length;
        }
        forget(n);
        return n;
    }

    /**
     * Drops what is queued and has the writer close its connection with an RST (SO_LINGER 0) and
     * redial, as after a TCP reset from outside; a write under way finishes first. False when the
     * link is down (nothing to reset).
     */
    synchronized boolean requestReset() {
        if (!up) return false;
        counters.droppedSends.addAndGet(queue.size());
        forget(queuedBytes);
        queue.clear();
        queuedAtNs.clear();
        resetRequested = true;
        notifyAll();
        return true;
    }

    /** The writer's step: waits for messages, takes a batch into buf[0] (grown as needed) and writes it. */
    void writeBatch(ProgressWriter writer, byte[][] buf) throws IOException, InterruptedException {
        int n = takeBatch(buf); // (may replace buf[0] with a larger array: read it only after)
        writer.write(buf[0], n);
    }

    void run() {
        // The redial interval stays under the election timeout (at least 1.5 commit
        // intervals): a restarted peer must hear our heartbeat before its first election
        // timer fires, or it starts an election, wins it with an empty log, and cannot
        // execute what the others have already trimmed (docs/protocol.md, "Native servers").
        long maxBackoffMs = Math.max(server.cfg.commitIntervalMs / 2, 1);
        long minBackoffMs = Math.min(25, maxBackoffMs);
        long backoffMs = minBackoffMs;
        for (;;) {
            Socket s = new Socket();
            ProgressWriter writer = null;
            boolean connected = false;
            try {
                s.setTcpNoDelay(true);
                s.setSendBufferSize(Limits.PEER_SOCKET_BUFFER_BYTES);
                s.connect(addr, 2000);
                writer = new ProgressWriter(s, Limits.MAX_PEER_WRITE_STALL_NS);
                backoffMs = minBackoffMs;
                connected = true;
                setUp(true);
                server.log("link to peer " + to + " at " + addr + " is up");
                byte[][] buf = {new byte[64 * 1024]};
                for (;;) writeBatch(writer, buf);
            } catch (IOException e) {
                if (e instanceof PeerReset.Requested) abortOnClose(s); // an RST, as a reset from outside
                if (connected) server.log("link to peer " + to + " at " + addr + " broke: " + e.getMessage() + "; reconnecting");
                else server.debug("cannot reach peer " + to + " at " + addr + ": " + e.getMessage());
            } catch (InterruptedException e) {
                return;
            } finally {
                setUp(false);
                if (writer != null) writer.close();
                Server.closeQuietly(s);
            }
            try {
                Thread.sleep(backoffMs);
            } catch (InterruptedException e) {
                return;
            }
            backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
        }
    }

    private static void abortOnClose(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // closed already: nothing left to reset
        }
    }

    /** Accepts the connections other nodes open to this one, a reader thread each. */
    static void acceptAll(Server server, ServerSocket listener) {
        for (;;) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                Server.start("peer-reader-" + s.getRemoteSocketAddress(), () -> read(server, s));
            } catch (IOException e) {
                server.log("peer listener: " + e.getMessage());
            }
        }
    }

    /** Reads the messages another node sends on the connection it opened to us. */
    private static void read(Server server, Socket s) {
        String from = String.valueOf(s.getRemoteSocketAddress());
        server.debug("peer connection from " + from);
        long garbage = 0;
        try {
            LineReader lines = new LineReader(s.getInputStream(), Limits.MAX_PEER_LINE);
            for (;;) {
                byte[] line = lines.next();
                long receivedNanos = server.core.now();
                if (line == null) break;
                if (line == LineReader.TOO_LONG) {
                    server.log("peer " + from + " sent a line longer than " + Limits.MAX_PEER_LINE + " bytes; closing");
                    break;
                }
                Message m = Codec.decodeMessage(line);
                String problem = m == null ? "undecodable" : m.to != server.id ? "addressed to node " + m.to
                        : m.from >= server.numPeers || m.from == server.id ? "from a bad sender " + m.from : null;
                if (problem != null) {
                    server.counters.garbageFrames.incrementAndGet();
                    if (++garbage <= 20 || garbage % 1000 == 0) {
                        server.log("dropped a frame from " + from + " (" + problem + ", " + garbage + " so far): "
                                + preview(line));
                    }
                    continue;
                }
                server.core.step(Event.message(m), receivedNanos);
            }
        } catch (IOException e) {
            server.debug("peer connection from " + from + ": " + e.getMessage());
        } finally {
            Server.closeQuietly(s);
        }
        server.debug("peer connection from " + from + " closed");
    }

    private static String preview(byte[] line) {
        int n = Math.min(line.length, 120);
        StringBuilder b = new StringBuilder(n + 3);
        for (int i = 0; i < n; i++) {
            int c = line[i] & 0xff;
            b.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
        }
        return line.length > n ? b.append("...").toString() : b.toString();
    }
}
