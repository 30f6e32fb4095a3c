package replicant.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import replicant.core.Codec;
import replicant.core.Command;
import replicant.core.Config;
import replicant.core.Durability;
import replicant.core.Json;
import replicant.core.Messages;
import replicant.core.Messages.Effect;
import replicant.core.Messages.Event;
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
 * socket (§4.6). The client connections live in {@link ClientConnection}, the peer links (and
 * the readers of inbound peer connections) in {@link PeerLink}, lines are read by
 * {@link LineReader} (docs/engines.md, "The native servers, unit by unit").
 */
final class Server {
    final ServerConfig cfg;
    private final ServerConfig.Args args;
    final long id;
    final long numPeers;

    final CoreDriver core;
    /** The core lock (CoreDriver's): every step, and the client counts below, are under it. */
    final java.util.concurrent.locks.ReentrantLock lock;
    /** Durability log (--data-dir): the write-ahead log, and the restart event its records make. */
    private final Wal wal;
    /** durability log: every persist effect goes to its queue first (Persister). */
    private final Persister persister = new Persister();
    private final Event restart;
    /** Guarded by lock: client requests in the core, over all connections. */
    long inFlight;
    /** Runs only the optional --stats-every line; the core's timers are CoreDriver's. */
    private final ScheduledThreadPoolExecutor statsThread = new ScheduledThreadPoolExecutor(1, daemon("stats"));

    final ConcurrentHashMap<Long, ClientConnection> clients = new ConcurrentHashMap<>();
    private final PeerLink[] links;

    /** The reply to a reset-peer line, or null when the line is not one (PeerReset). */
    String peerResetCommand(String line) {
        return PeerReset.command(line, args.testPeerReset, id, links);
    }
    final Status.DriverCounters counters = new Status.DriverCounters();
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

    /**
     * SIGTERM or SIGINT once serving ends the node cleanly, status 0, as the other servers do
     * (the JVM's default is status 143): what it acknowledged is already on the peers, and with a
     * data dir on disk before it was answered.
     */
    private void stopOnSignal(String signalName) {
        log("stopping on " + signalName + "; stats " + stats());
        System.exit(0);
    }

    /**
     * Runs the stop path's stats once, off it: the first call loads java.lang.management and the
     * stream classes (about 190 classes), which at SIGTERM on a loaded machine took seconds and
     * ran the JVM past the 3 s grace before SIGKILL (docs/reliability.md, "Java SIGTERM").
     */
    void warmStopPath() {
        stats();
    }

    /** Binds both listeners (failure: exit 2 from Main), then serves until the process ends. */
    void run() throws IOException, ServerConfig.BadConfig {
        // a bounded receive buffer, inherited by every peer connection it accepts (Limits)
        ServerSocket peerListener = listen(cfg.peers.get((int) id), "peers[" + id + "]", Limits.PEER_SOCKET_BUFFER_BYTES);
        ServerSocket clientListener = listen(cfg.clients.get((int) id), "clients[" + id + "]", 0);
        log("node " + id + " of " + numPeers + ": peers on " + cfg.peers.get((int) id) + ", clients on "
                + cfg.clients.get((int) id) + ", commit interval " + cfg.commitIntervalMs + " ms");
        for (int p = 0; p < numPeers; p++) {
            if (p != id) links[p] = new PeerLink(this, p, cfg.peers.get(p));
        }
        if (wal != null) {
            // The restart is stepped before any peer, client or timer can reach the core: before
            // it the node has not read its disk, and a promise it gave would carry none of the
            // slots it accepted (docs/protocol.md, "Nothing before restart"; nemesis java seed 371).
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
        for (int p = 0; p < numPeers; p++) {
            if (p != id) start("peer-link-" + p, links[p]::run);
        }
        start("peer-listener", () -> PeerLink.acceptAll(this, peerListener));
        start("status", this::runStatus);
        start("timers", core::runTimers);
        if (args.mitigation != replicant.core.Mitigation.Mode.NONE) gcWatch = GcWatch.start(this);
        if (args.statsEverySeconds > 0) {
            statsThread.scheduleAtFixedRate(() -> log("stats " + stats()), args.statsEverySeconds,
                    args.statsEverySeconds, TimeUnit.SECONDS);
        }
        if (wal == null) core.step(Event.start(), core.now());
        warmStopPath();
        StopSignals.serving(this::stopOnSignal);
        ClientConnection.acceptAll(this, clientListener);
    }

    /** Binds a listener; receiveBufferBytes &gt; 0 fixes the kernel's receive buffer of what it accepts. */
    static ServerSocket listen(InetSocketAddress addr, String what, int receiveBufferBytes) throws ServerConfig.BadConfig {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            if (receiveBufferBytes > 0) s.setReceiveBufferSize(receiveBufferBytes);
            s.bind(addr, 128);
            return s;
        } catch (IOException e) {
            throw new ServerConfig.BadConfig("cannot listen on " + what + " " + addr + ": " + e.getMessage());
        }
    }

    static void start(String name, Runnable r) {
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

    /** Logs the status line every --status-interval-ms (STATUS_INTERVAL_MS by default), and says when a limit turned work away in the last interval. */
    private void runStatus() {
        warmStopPath(); // before the first status line, which the nemesis waits on
        long shed = 0, dropped = 0, refused = 0, groups = 0, batches = 0;
        for (;;) {
            try {
                Thread.sleep(args.statusIntervalMs);
            } catch (InterruptedException e) {
                return;
            }
            String coreFields = core.statusFields();
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
            counters.readJvmMemory();
            log(Status.statusLine(Status.readCoreView(coreFields), counters, Status.groupMean(g - groups, b - batches)));
            groups = g;
            batches = b;
            counters.timerLateMaxUs.set(0);
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
