package replicant.server;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import replicant.core.Json;
import replicant.core.Messages.Event;

/**
 * One client: a reader thread feeding the core, a writer thread sending its replies. While more
 * than MAX_REPLY_BACKLOG_BYTES of replies wait unwritten, the reader stops reading requests.
 * With it, the server's client half: accepting connections (acceptAll) and handing each line to
 * the core, or answering {@code retry} at the in-flight bounds (clientLine).
 */
final class ClientConnection {
    /**
     * Accepts client connections until the process ends; client k of node id gets the id
     * id + numPeers * k, as in the other servers. Over MAX_CLIENTS open, a newcomer is answered
     * {@code retry} and closed.
     */
    static void acceptAll(Server server, ServerSocket listener) throws IOException {
        for (long k = 0;; k++) {
            Socket s = listener.accept();
            if (server.counters.clients.get() >= Limits.MAX_CLIENTS) {
                server.counters.clientsRefused.incrementAndGet();
                try {
                    s.getOutputStream().write("retry\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // it is being turned away anyway
                }
                Server.closeQuietly(s);
                k--;
                continue;
            }
            long clientId = server.id + server.numPeers * k;
            try {
                s.setTcpNoDelay(true);
                ClientConnection c = new ClientConnection(server, clientId, s);
                server.counters.clients.incrementAndGet();
                server.clients.put(clientId, c);
                Server.start("client-" + clientId, c::read);
                Server.start("client-" + clientId + "-writer", c::write);
            } catch (IOException e) {
                server.log("client " + clientId + ": " + e.getMessage());
                Server.closeQuietly(s);
            }
        }
    }

    private final Server server;
    private final long clientId;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final LinkedBlockingQueue<byte[]> replies = new LinkedBlockingQueue<>();
    private final byte[] closeMarker = new byte[0];
    private final Object drained = new Object();
    private final AtomicLong backlogBytes = new AtomicLong();
    private volatile boolean closed;
    private boolean gone; // guarded by the core lock: left the clients map and the count
    /** Guarded by the core lock: requests in the core, not yet answered. */
    long inFlight;

    ClientConnection(Server server, long clientId, Socket socket) throws IOException {
        this.server = server;
        this.clientId = clientId;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
    }

    /** Queues a reply line; never blocks. */
    void reply(String line) {
        if (closed) return;
        byte[] b = new byte[line.length() + 1];
        for (int i = 0; i < line.length(); i++) b[i] = (byte) line.charAt(i);
        b[line.length()] = '\n';
        backlogBytes.addAndGet(b.length);
        replies.add(b);
    }

    void close() {
        closed = true;
        replies.add(closeMarker);
        synchronized (drained) {
            drained.notifyAll();
        }
    }

    /** Takes the connection out of the map and its requests off the count, once. */
    private void leave() {
        server.lock.lock();
        try {
            if (gone) return;
            gone = true;
            server.clients.remove(clientId);
            server.inFlight -= inFlight;
            inFlight = 0;
            server.counters.inFlight.set(server.inFlight);
        } finally {
            server.lock.unlock();
        }
        server.counters.clients.decrementAndGet();
    }

    private long inFlightNow() {
        server.lock.lock();
        try {
            return inFlight;
        } finally {
            server.lock.unlock();
        }
    }

    /** Blocks while the client leaves too many reply bytes unread. */
    private void waitForBacklog() throws InterruptedException {
        if (backlogBytes.get() < Limits.MAX_REPLY_BACKLOG_BYTES) return;
        server.counters.readsPaused.incrementAndGet();
        synchronized (drained) {
            while (backlogBytes.get() >= Limits.MAX_REPLY_BACKLOG_BYTES && !closed) drained.wait(200);
        }
    }

    void read() {
        server.debug("client " + clientId + " connected from " + socket.getRemoteSocketAddress());
        LineReader lines = new LineReader(in, Limits.MAX_CLIENT_LINE);
        long requestId = 0;
        try {
            for (;;) {
                waitForBacklog();
                byte[] line = lines.next();
                if (line == null || closed) break;
                if (line == LineReader.TOO_LONG) {
                    server.log("client " + clientId + ": line longer than " + Limits.MAX_CLIENT_LINE + " bytes; closing");
                    reply("bad command");
                    break;
                }
                int len = line.length;
                if (len > 0 && line[len - 1] == '\r') len--;
                clientLine(++requestId, Json.fromBytes(line, 0, len), server.core.now());
            }
            // The client stopped sending: give replies still in flight a moment to arrive.
            for (int i = 0; i < 100 && !closed && inFlightNow() > 0; i++) Thread.sleep(50);
        } catch (IOException | InterruptedException e) {
            server.debug("client " + clientId + ": " + e.getMessage());
        }
        leave();
        close();
        server.debug("client " + clientId + " gone after " + requestId + " requests");
    }

    void write() {
        try {
            for (;;) {
                byte[] b = replies.take();
                long written = 0;
                for (; b != null; b = replies.poll()) {
                    if (b == closeMarker) {
                        out.flush();
                        return;
                    }
                    out.write(b);
                    written += b.length;
                }
                out.flush();
                backlogBytes.addAndGet(-written);
                synchronized (drained) {
                    drained.notifyAll();
                }
            }
        } catch (IOException | InterruptedException e) {
            server.debug("client " + clientId + ": " + e.getMessage());
            closed = true;
            synchronized (drained) {
                drained.notifyAll();
            }
        } finally {
            Server.closeQuietly(socket);
        }
    }

    /**
     * Hands one request to the core, or answers {@code retry} itself when the connection or the
     * node already has as many requests in the core as the limits allow.
     */
    private void clientLine(long requestId, String line, long receivedNanos) {
        String resetReply = server.peerResetCommand(line);
        if (resetReply != null) {
            reply(resetReply); // (answered at once, not in the core's order: an operator's connection)
            return;
        }
        server.lock.lock();
        try {
            if (inFlight < Limits.MAX_IN_FLIGHT_PER_CLIENT && server.inFlight < Limits.MAX_IN_FLIGHT_TOTAL) {
                inFlight++;
                server.inFlight++;
                server.counters.inFlight.set(server.inFlight);
                server.core.stepLocked(Event.client(clientId, requestId, line), receivedNanos);
                return;
            }
        } finally {
            server.lock.unlock();
        }
        server.counters.shedRetries.incrementAndGet();
        reply("retry");
    }
}
