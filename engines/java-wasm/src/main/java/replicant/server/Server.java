package replicant.server;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import replicant.core.Codec;
import replicant.core.Command;
import replicant.core.Config;
import replicant.core.Durability;
import replicant.core.Json;
import replicant.core.Messages;
import replicant.core.Messages.Effect;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;
import replicant.core.Node;
import replicant.host.RuntimeStats;

/**
 * The native TCP server around one core, with OS threads as in the paper's Java Replicant
 * (§4.1): a reader thread per client connection and per inbound peer connection, a writer
 * thread per client connection and per outbound peer link, one timer thread. Every call into
 * the core happens under one lock (as Replicant serializes on its log's mutex; see
 * {@link CoreDriver} for how timers share it with the other threads); effects are
 * dispatched under that lock into per-connection queues, so the writers see them in the core's
 * order and no socket write ever happens while the lock is held. TCP_NODELAY is set on every
 * socket (§4.6).
 */
final class Server {
    static final int MAX_CLIENT_LINE = Limits.MAX_CLIENT_LINE;
    static final int MAX_PEER_LINE = Limits.MAX_PEER_LINE;

    private final ServerConfig cfg;
    private final ServerConfig.Args args;
    private final long id;
    private final long numPeers;

    private final CoreDriver core;
    private final java.util.concurrent.locks.ReentrantLock lock;
    /** Durability log (--data-dir): the write-ahead log, and the restart event its records make. */
    private final Wal wal;
    /** durability log: every persist effect goes to its queue first (Persister). */
    private final Persister persister = new Persister();
    private final Event restart;
    /** Guarded by lock: client requests in the core, over all connections. */
    private long inFlight;
    /** Runs only the optional --stats-every line; the core's timers are CoreDriver's. */
    private final ScheduledThreadPoolExecutor statsThread = new ScheduledThreadPoolExecutor(1, daemon("stats"));

    private final ConcurrentHashMap<Long, ClientConnection> clients = new ConcurrentHashMap<>();
    private final PeerLink[] links;
    private final Status.DriverCounters counters = new Status.DriverCounters();
    /** GC mitigation hooks; null when off (or when no pool can announce collections). */
    private volatile GcWatch gcWatch;

    Server(ServerConfig cfg, ServerConfig.Args args) throws Config.ConfigException, ServerConfig.BadConfig {
        this.cfg = cfg;
        this.args = args;
        this.id = args.id;
        this.numPeers = cfg.peers.size();
        Config c = Config.defaults();
        c.id = id;
        c.numPeers = numPeers;
        c.seed = args.seed;
        c.commitIntervalUs = cfg.commitIntervalMs * 1000;
        c.checkQuorum = cfg.checkQuorum;
        c.repairBatch = Config.SERVER_REPAIR_BATCH;
        c.electionBatch = Config.SERVER_ELECTION_BATCH;
        c.logBound = args.logBound;
        c.trace = args.trace;
        c.maxPendingAccepts = Limits.MAX_PENDING_ACCEPTS;
        if (args.dataDir != null) {
            c.durability = Durability.Mode.LOG;
            c.snapshotEvery = args.snapshotEvery;
        }
        c.mitigation = args.mitigation;
        c.validate();
        core = new CoreDriver(new Node(c), System::nanoTime, counters);
        core.setEffects(this::dispatch);
        lock = core.lock;
        if (args.dataDir != null) {
            Wal.Read read = new Wal.Read();
            wal = Wal.open(java.nio.file.Paths.get(args.dataDir), Wal.parseFsync(args.fsync), read);
            if (read.warning != null) log("warning: " + read.warning);
            List<Durability.Record> records = new java.util.ArrayList<>();
            for (int i = 0; i < read.records.size(); i++) {
                Durability.Record r = Codec.decodeRecordJson(read.records.get(i));
                if (r == null) throw new ServerConfig.BadConfig(wal.path() + ": record " + i + " (a good checksum) is not a record");
                records.add(r);
            }
            restart = new Event(Messages.EventType.RESTART);
            restart.records = records;
        } else {
            wal = null;
            restart = null;
        }
        links = new PeerLink[(int) numPeers];
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Steps the core with an event the server makes itself (GcWatch's gc_pending / gc_done). */
    void step(Event ev) {
        core.step(ev, core.now());
    }

    void log(String message) {
        System.err.println(logLine(id, java.time.LocalDateTime.now(), message));
    }

    private static final java.time.format.DateTimeFormatter LOG_TIME =
            java.time.format.DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSSSSS");

    /** "[java nI] 2026/11/27 00:12:28.123456 message": the Go and C++ servers' format (local wall clock). */
    static String logLine(long id, java.time.LocalDateTime now, String message) {
        return "[java n" + id + "] " + LOG_TIME.format(now) + " " + message;
    }

    void debug(String message) {
        if (args.verbose) log(message);
    }

    /** Binds both listeners (failure: exit 2 from Main), then serves until the process ends. */
    /**
     * SIGTERM or SIGINT ends the node cleanly, status 0, as the Go and C++ servers do (the JVM's
     * default is status 143): what it acknowledged is already on the peers, and with a data dir on
     * disk before it was answered.
     */
    private void stopOnSignals() {
        for (String name : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
                log("stopping on SIG" + name + "; stats " + stats());
                System.exit(0);
            });
        }
    }

    /**
     * Runs the stop path's stats once, off it: the first call loads java.lang.management and the
     * stream classes (about 190 classes), which at SIGTERM on a loaded machine took seconds and
     * ran the JVM past the 3 s grace before SIGKILL (docs/reliability.md, "Java SIGTERM").
     */
    void warmStopPath() {
        stats();
    }

        void run() throws IOException, ServerConfig.BadConfig {
        ServerSocket peerListener = listen(cfg.peers.get((int) id), "peers[" + id + "]");
        ServerSocket clientListener = listen(cfg.clients.get((int) id), "clients[" + id + "]");
        log("node " + id + " of " + numPeers + ": peers on " + cfg.peers.get((int) id) + ", clients on "
                + cfg.clients.get((int) id) + ", commit interval " + cfg.commitIntervalMs + " ms");
        for (int p = 0; p < numPeers; p++) {
            if (p == id) continue;
            links[p] = new PeerLink(p, cfg.peers.get(p));
            start("peer-link-" + p, links[p]::run);
        }
        start("peer-listener", () -> acceptPeers(peerListener));
        start("status", this::runStatus);
        start("timers", core::runTimers);
        stopOnSignals();
        if (args.mitigation != replicant.core.Mitigation.Mode.NONE) gcWatch = GcWatch.start(this);
        if (args.statsEverySeconds > 0) {
            statsThread.scheduleAtFixedRate(() -> log("stats " + stats()), args.statsEverySeconds,
                    args.statsEverySeconds, TimeUnit.SECONDS);
        }
        if (wal == null) {
            core.step(Event.start(), core.now());
        } else {
            start("persister", this::runPersister);
            lock.lock();
            try {
                boolean[] refused = {false};
                core.setEffects(effects -> {
                    if (effects.stream().anyMatch(e -> e.type == Messages.EffectType.ERROR)) refused[0] = true;
                    else dispatch(effects);
                });
                core.stepNowLocked(restart);
                core.setEffects(this::dispatch);
                if (refused[0]) {
                    throw new ServerConfig.BadConfig(wal.path() + ": the core refused the records it holds");
                }
            } finally {
                lock.unlock();
            }
            log("restarted from " + wal.path() + ": " + restart.records.size() + " records");
        }
        acceptClients(clientListener);
    }

    private static ServerSocket listen(InetSocketAddress addr, String what) throws ServerConfig.BadConfig {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(addr, 128);
            return s;
        } catch (IOException e) {
            throw new ServerConfig.BadConfig("cannot listen on " + what + " " + addr + ": " + e.getMessage());
        }
    }

    private static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    /** The runtime figures: HotSpot's allocated-bytes counters summed over all live threads. */
    String stats() {
        long[] ids = Thread.getAllStackTraces().keySet().stream().mapToLong(Thread::getId).toArray();
        String s = RuntimeStats.json(RuntimeStats.allocatedBytes(ids), "the server's live threads");
        return s.substring(0, s.length() - 1) + ",\"dropped_sends\":" + counters.droppedSends.get() + ",\"garbage_frames\":"
                + counters.garbageFrames.get() + "}";
    }

    // --- the core, under the lock ---

    /** The persister's thread: writes groups off the lock, then steps the core with persisted. */
    private void runPersister() {
        try {
            persister.run(wal::appendGroup, (id, batches) -> {
                counters.noteWalGroup(batches);
                Event done = new Event(Messages.EventType.PERSISTED);
                done.persistId = id;
                core.step(done, core.now());
            });
        } catch (IOException ex) {
            log("write-ahead log: " + ex.getMessage() + "; stopping: a node that cannot persist must not answer");
            System.exit(1);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Acts on the core's effects, in order (CoreDriver has already armed and cancelled its
     * timers). Called with the lock held; never blocks: persists, messages and replies only go
     * into queues.
     */
    private void dispatch(List<Effect> effects) {
        for (Effect e : effects) {
            switch (e.type) {
                case PERSIST:
                    // The persister writes (and syncs, by policy) it before the core hears it is
                    // done, so nothing the core holds for it leaves first.
                    persister.queue(e.persistId, e.records);
                    break;
                case SEND: {
                    PeerLink link = links[(int) e.message.to];
                    StringBuilder b = Codec.appendMessage(new StringBuilder(128), e.message).append('\n');
                    link.offer(Json.toBytes(b));
                    break;
                }
                case REPLY: {
                    ClientConnection c = clients.get(e.clientId);
                    if (c == null) break; // the client has gone (its requests left the count)
                    if (c.inFlight > 0) {
                        c.inFlight--;
                        inFlight--;
                        counters.inFlight.set(inFlight);
                    }
                    c.reply(Command.replyLine(e.result));
                    break;
                }
                case SET_TIMER:
                case CANCEL_TIMER:
                    break;
                case TRACE:
                    log("trace " + Codec.appendEffect(new StringBuilder(), e));
                    break;
                case ERROR:
                    log("the core refused an event as bad_event");
                    break;
                case COLLECT:
                    if (gcWatch != null) gcWatch.onCollect();
                    break;
            }
        }
    }

    /** Logs the status line every STATUS_INTERVAL_MS, and says when a limit turned work away in the last interval. */
    private void runStatus() {
        warmStopPath(); // before the first status line, which the nemesis waits on
        long shed = 0, dropped = 0, refused = 0, groups = 0, batches = 0;
        for (;;) {
            try {
                Thread.sleep(Limits.STATUS_INTERVAL_MS);
            } catch (InterruptedException e) {
                return;
            }
            String inspect = core.inspect();
            long n = counters.shedRetries.get();
            if (n > shed) {
                log("limit: answered " + (n - shed) + " client requests retry (in flight: " + counters.inFlight.get()
                        + " of " + Limits.MAX_IN_FLIGHT_TOTAL + " per node, " + Limits.MAX_IN_FLIGHT_PER_CLIENT
                        + " per connection)");
                shed = n;
            }
            n = counters.droppedSends.get();
            if (n > dropped) {
                log("limit: dropped " + (n - dropped) + " peer messages (link down or over "
                        + (Limits.MAX_PEER_QUEUE_BYTES >> 20) + " MiB queued)");
                dropped = n;
            }
            n = counters.clientsRefused.get();
            if (n > refused) {
                log("limit: refused " + (n - refused) + " client connections (" + Limits.MAX_CLIENTS + " open)");
                refused = n;
            }
            long g = counters.walGroups.get(), b = counters.walBatches.get();
            log(Status.statusLine(Status.readCoreView(inspect), counters, Status.groupMean(g - groups, b - batches)));
            groups = g;
            batches = b;
            counters.timerLateMaxUs.set(0);
        }
    }

    /**
     * Hands one request to the core, or answers {@code retry} itself when the connection or the
     * node already has as many requests in the core as the limits allow.
     */
    private void clientLine(ClientConnection c, long requestId, String line, long receivedNanos) {
        lock.lock();
        try {
            if (c.inFlight < Limits.MAX_IN_FLIGHT_PER_CLIENT && inFlight < Limits.MAX_IN_FLIGHT_TOTAL) {
                c.inFlight++;
                inFlight++;
                counters.inFlight.set(inFlight);
                core.stepLocked(Event.client(c.clientId, requestId, line), receivedNanos);
                return;
            }
        } finally {
            lock.unlock();
        }
        counters.shedRetries.incrementAndGet();
        c.reply("retry");
    }

    // --- clients ---

    private void acceptClients(ServerSocket listener) throws IOException {
        for (long k = 0;; k++) {
            Socket s = listener.accept();
            if (counters.clients.get() >= Limits.MAX_CLIENTS) {
                counters.clientsRefused.incrementAndGet();
                try {
                    s.getOutputStream().write("retry\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // it is being turned away anyway
                }
                closeQuietly(s);
                k--;
                continue;
            }
            long clientId = id + numPeers * k;
            try {
                s.setTcpNoDelay(true);
                ClientConnection c = new ClientConnection(clientId, s);
                counters.clients.incrementAndGet();
                clients.put(clientId, c);
                start("client-" + clientId, c::read);
                start("client-" + clientId + "-writer", c::write);
            } catch (IOException e) {
                log("client " + clientId + ": " + e.getMessage());
                closeQuietly(s);
            }
        }
    }

    /**
     * One client: a reader thread feeding the core, a writer thread sending its replies. While more
     * than MAX_REPLY_BACKLOG_BYTES of replies wait unwritten, the reader stops reading requests.
     */
    final class ClientConnection {
        private final long clientId;
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final LinkedBlockingQueue<byte[]> replies = new LinkedBlockingQueue<>();
        private final byte[] closeMarker = new byte[0];
        private final Object drained = new Object();
        private final AtomicLong backlogBytes = new AtomicLong();
        private volatile boolean closed;
        private boolean gone; // guarded by lock: left the clients map and the count
        /** Guarded by lock: requests in the core, not yet answered. */
        long inFlight;

        ClientConnection(long clientId, Socket socket) throws IOException {
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
            lock.lock();
            try {
                if (gone) return;
                gone = true;
                clients.remove(clientId);
                Server.this.inFlight -= inFlight;
                inFlight = 0;
                counters.inFlight.set(Server.this.inFlight);
            } finally {
                lock.unlock();
            }
            counters.clients.decrementAndGet();
        }

        private long inFlightNow() {
            lock.lock();
            try {
                return inFlight;
            } finally {
                lock.unlock();
            }
        }

        /** Blocks while the client leaves too many reply bytes unread. */
        private void waitForBacklog() throws InterruptedException {
            if (backlogBytes.get() < Limits.MAX_REPLY_BACKLOG_BYTES) return;
            counters.readsPaused.incrementAndGet();
            synchronized (drained) {
                while (backlogBytes.get() >= Limits.MAX_REPLY_BACKLOG_BYTES && !closed) drained.wait(200);
            }
        }

        void read() {
            debug("client " + clientId + " connected from " + socket.getRemoteSocketAddress());
            LineReader lines = new LineReader(in, MAX_CLIENT_LINE);
            long requestId = 0;
            try {
                for (;;) {
                    waitForBacklog();
                    byte[] line = lines.next();
                    if (line == null || closed) break;
                    if (line == LineReader.TOO_LONG) {
                        log("client " + clientId + ": line longer than " + MAX_CLIENT_LINE + " bytes; closing");
                        reply("bad command");
                        break;
                    }
                    int len = line.length;
                    if (len > 0 && line[len - 1] == '\r') len--;
                    clientLine(this, ++requestId, Json.fromBytes(line, 0, len), core.now());
                }
                // The client stopped sending: give replies still in flight a moment to arrive.
                for (int i = 0; i < 100 && !closed && inFlightNow() > 0; i++) Thread.sleep(50);
            } catch (IOException | InterruptedException e) {
                debug("client " + clientId + ": " + e.getMessage());
            }
            leave();
            close();
            debug("client " + clientId + " gone after " + requestId + " requests");
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
                debug("client " + clientId + ": " + e.getMessage());
                closed = true;
                synchronized (drained) {
                    drained.notifyAll();
                }
            } finally {
                closeQuietly(socket);
            }
        }
    }

    // --- peers ---

    private void acceptPeers(ServerSocket listener) {
        for (;;) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                start("peer-reader-" + s.getRemoteSocketAddress(), () -> readPeer(s));
            } catch (IOException e) {
                log("peer listener: " + e.getMessage());
            }
        }
    }

    /** Reads the messages another node sends on the connection it opened to us. */
    private void readPeer(Socket s) {
        String from = String.valueOf(s.getRemoteSocketAddress());
        debug("peer connection from " + from);
        long garbage = 0;
        try {
            LineReader lines = new LineReader(s.getInputStream(), MAX_PEER_LINE);
            for (;;) {
                byte[] line = lines.next();
                long receivedNanos = core.now();
                if (line == null) break;
                if (line == LineReader.TOO_LONG) {
                    log("peer " + from + " sent a line longer than " + MAX_PEER_LINE + " bytes; closing");
                    break;
                }
                Message m = Codec.decodeMessage(line);
                String problem = m == null ? "undecodable" : m.to != id ? "addressed to node " + m.to
                        : m.from >= numPeers || m.from == id ? "from a bad sender " + m.from : null;
                if (problem != null) {
                    counters.garbageFrames.incrementAndGet();
                    if (++garbage <= 20 || garbage % 1000 == 0) {
                        log("dropped a frame from " + from + " (" + problem + ", " + garbage + " so far): "
                                + preview(line));
                    }
                    continue;
                }
                core.step(Event.message(m), receivedNanos);
            }
        } catch (IOException e) {
            debug("peer connection from " + from + ": " + e.getMessage());
        } finally {
            closeQuietly(s);
        }
        debug("peer connection from " + from + " closed");
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

    /**
     * The link to peer `to`: dials, writes what the core sends, reconnects with back-off. While
     * the link is down, sends are dropped: the protocol retries on its own (heartbeats, accept
     * timeouts, elections), and a burst of stale messages after a reconnect helps nobody. Over
     * MAX_PEER_QUEUE_BYTES the oldest queued messages are dropped.
     */
    final class PeerLink {
        private final int to;
        private final InetSocketAddress addr;
        private final ArrayDeque<byte[]> queue = new ArrayDeque<>(); // guarded by this
        private long queuedBytes; // guarded by this
        private boolean up; // guarded by this: connected, messages are queued only while true

        PeerLink(int to, InetSocketAddress addr) {
            this.to = to;
            this.addr = addr;
        }

        synchronized void offer(byte[] line) {
            if (!up) {
                counters.droppedSends.incrementAndGet();
                return;
            }
            while (!queue.isEmpty() && queuedBytes + line.length > Limits.MAX_PEER_QUEUE_BYTES) {
                forget(queue.pollFirst().length);
                counters.droppedSends.incrementAndGet();
            }
            if (queue.isEmpty()) notifyAll(); // the writer waits only on an empty queue
            queue.addLast(line);
            queuedBytes += line.length;
            counters.peerQueueBytes.addAndGet(line.length);
        }

        private void forget(long bytes) {
            queuedBytes -= bytes;
            counters.peerQueueBytes.addAndGet(-bytes);
        }

        private synchronized void setUp(boolean now) {
            up = now;
            if (!now) {
                counters.droppedSends.addAndGet(queue.size());
                forget(queuedBytes);
                queue.clear();
            }
        }

        /** Waits for messages and takes up to about 1 MiB of them. */
        private synchronized byte[][] takeBatch() throws InterruptedException {
            while (queue.isEmpty()) wait();
            java.util.ArrayList<byte[]> batch = new java.util.ArrayList<>();
            long n = 0;
            while (!queue.isEmpty() && n < (1 << 20)) {
                byte[] b = queue.pollFirst();
                n += b.length;
                batch.add(b);
            }
            forget(n);
            return batch.toArray(new byte[0][]);
        }

        void run() {
            // The redial interval stays under the election timeout (at least 1.5 commit
            // intervals): a restarted peer must hear our heartbeat before its first election
            // timer fires, or it starts an election, wins it with an empty log, and cannot
            // execute what the others have already trimmed (docs/protocol.md, "Native servers").
            long maxBackoffMs = Math.max(cfg.commitIntervalMs / 2, 1);
            long minBackoffMs = Math.min(25, maxBackoffMs);
            long backoffMs = minBackoffMs;
            for (;;) {
                Socket s = new Socket();
                boolean connected = false;
                try {
                    s.setTcpNoDelay(true);
                    s.connect(addr, 2000);
                    OutputStream out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
                    backoffMs = minBackoffMs;
                    connected = true;
                    setUp(true);
                    log("link to peer " + to + " at " + addr + " is up");
                    for (;;) {
                        for (byte[] b : takeBatch()) out.write(b);
                        out.flush();
                    }
                } catch (IOException e) {
                    if (connected) log("link to peer " + to + " at " + addr + " broke: " + e.getMessage() + "; reconnecting");
                    else debug("cannot reach peer " + to + " at " + addr + ": " + e.getMessage());
                } catch (InterruptedException e) {
                    return;
                } finally {
                    setUp(false);
                    closeQuietly(s);
                }
                try {
                    Thread.sleep(backoffMs);
                } catch (InterruptedException e) {
                    return;
                }
                backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
            }
        }
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException | RuntimeException e) {
            // already closed
        }
    }
}
