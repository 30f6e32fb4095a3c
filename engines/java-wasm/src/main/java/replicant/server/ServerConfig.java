package replicant.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import replicant.core.Ballot;
import replicant.core.Json;

/**
 * The server's command line and cluster configuration file (docs/protocol.md, "Native
 * servers"). The file is read with the core's strict JSON reader: unknown fields are errors.
 */
final class ServerConfig {
    static final String USAGE =
            "usage: replicant-server [--config] CONFIG.json --id N [--seed N] [--verbose] [--trace] [--stats-every SECONDS]"
                    + " [--mitigation none|blade|mitmem|both] [--data-dir DIR [--fsync always|interval|never] [--snapshot-every N]] [--log-bound N] [--status-interval-ms N]"
                    + " [--test-peer-reset]";

    /** A problem with the command line or the configuration; the server exits with status 2. */
    static final class BadConfig extends Exception {
        BadConfig(String message) {
            super(message);
        }
    }

    static final class Args {
        String configPath;
        long id = -1;
        /** The election-timeout jitter's seed; by default id + 1, as the Go server chooses. */
        long seed = -1;
        boolean verbose;
        boolean trace;
        long statsEverySeconds;
        /** Durability log with its write-ahead log in this directory (none without it). */
        String dataDir;
        String fsync = "always";
        /** Durability log: a checkpoint every this many executed instances; 0 never ("Compaction"). */
        long snapshotEvery = replicant.core.Config.SERVER_SNAPSHOT_EVERY;
        /** The core's log bound (docs/protocol.md, "Log bound"); 0 lets the log grow while a peer is silent. */
        long logBound = replicant.core.Config.SERVER_LOG_BOUND;
        /** How often the status line is logged, in ms (10 to 60,000). */
        long statusIntervalMs = Limits.STATUS_INTERVAL_MS;
        /** Tests only: the reset-peer command on the client port is on (docs/protocol.md). */
        boolean testPeerReset;
        /** GC mitigation: none, blade, mitmem or both (docs/mitigation.md). */
        replicant.core.Mitigation.Mode mitigation = replicant.core.Mitigation.Mode.NONE;
    }

    long commitIntervalMs = 150;
    /** Optional in the file, true when absent; false is the paper's mode. */
    boolean checkQuorum = true;
    final List<InetSocketAddress> peers = new ArrayList<>();
    final List<InetSocketAddress> clients = new ArrayList<>();

    static Args parseArgs(String[] argv) throws BadConfig {
        Args a = new Args();
        for (int i = 0; i < argv.length; i++) {
            String arg = argv[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "--id":
                    a.id = nonNegative("--id", value != null ? value : next(argv, ++i, "--id"));
                    break;
                case "--config":
                    a.configPath = value != null ? value : next(argv, ++i, "--config");
                    break;
                case "--data-dir":
                    a.dataDir = value != null ? value : next(argv, ++i, "--data-dir");
                    break;
                case "--fsync":
                    a.fsync = value != null ? value : next(argv, ++i, "--fsync");
                    break;
                case "--log-bound":
                    a.logBound = nonNegative("--log-bound", value != null ? value : next(argv, ++i, "--log-bound"));
                    if (a.logBound > 1_000_000) throw new BadConfig("--log-bound must be between 0 and 1000000");
                    break;
                case "--status-interval-ms":
                    a.statusIntervalMs = nonNegative("--status-interval-ms", value != null ? value : next(argv, ++i, "--status-interval-ms"));
                    if (a.statusIntervalMs < 10 || a.statusIntervalMs > 60_000) throw new BadConfig("--status-interval-ms must be between 10 and 60000");
                    break;
                case "--snapshot-every":
                    a.snapshotEvery = nonNegative("--snapshot-every",
                            value != null ? value : next(argv, ++i, "--snapshot-every"));
                    if (a.snapshotEvery > 1_000_000) throw new BadConfig("--snapshot-every must be between 0 and 1000000");
                    break;
                case "--mitigation": {
                    String m = value != null ? value : next(argv, ++i, "--mitigation");
                    a.mitigation = replicant.core.Mitigation.Mode.parse(m);
                    if (a.mitigation == null) throw new BadConfig("--mitigation must be none, blade, mitmem or both");
                    break;
                }
                case "--seed":
                    a.seed = nonNegative("--seed", value != null ? value : next(argv, ++i, "--seed"));
                    break;
                case "--stats-every":
                    a.statsEverySeconds = nonNegative("--stats-every",
                            value != null ? value : next(argv, ++i, "--stats-every"));
                    break;
                case "--verbose":
                case "-v":
                    a.verbose = true;
                    break;
                case "--trace":
                    a.trace = true;
                    break;
                case "--test-peer-reset":
                    a.testPeerReset = true;
                    break;
                case "--help":
                case "-h":
                    throw new BadConfig(USAGE);
                default:
                    if (!arg.startsWith("-") && a.configPath == null) {
                        a.configPath = arg;
                    } else {
                        throw new BadConfig("unknown argument \"" + argv[i] + "\"\n" + USAGE);
                    }
            }
        }
        if (a.configPath == null) throw new BadConfig("no configuration file given\n" + USAGE);
        if (a.id < 0) throw new BadConfig("no --id given\n" + USAGE);
        if (a.seed < 0) a.seed = a.id + 1;
        return a;
    }

    private static String next(String[] argv, int i, String name) throws BadConfig {
        if (i >= argv.length) throw new BadConfig(name + " needs a value");
        return argv[i];
    }

    private static long nonNegative(String name, String v) throws BadConfig {
        try {
            long n = Long.parseLong(v);
            if (n >= 0 && !v.startsWith("+")) return n;
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new BadConfig("bad " + name + " \"" + v + "\": not a non-negative integer");
    }

    /** Reads and checks the configuration file's text. */
    static ServerConfig parse(byte[] text) throws BadConfig {
        Json.Value v = Json.parse(text);
        if (v == null) throw new BadConfig("not valid JSON");
        if (v.kind != Json.Kind.OBJECT) throw new BadConfig("not a JSON object");
        ServerConfig c = new ServerConfig();
        boolean havePeers = false;
        boolean haveClients = false;
        for (Json.Field f : v.fields) {
            switch (f.name) {
                case "commit_interval_ms":
                    if (f.value.kind != Json.Kind.NUMBER || f.value.number < 1 || f.value.number > 60_000) {
                        throw new BadConfig("commit_interval_ms must be an integer between 1 and 60000");
                    }
                    c.commitIntervalMs = f.value.number;
                    break;
                case "check_quorum":
                    if (f.value.kind != Json.Kind.BOOL) throw new BadConfig("check_quorum must be true or false");
                    c.checkQuorum = f.value.bool;
                    break;
                case "peers":
                    addresses(f.value, "peers", c.peers);
                    havePeers = true;
                    break;
                case "clients":
                    addresses(f.value, "clients", c.clients);
                    haveClients = true;
                    break;
                default:
                    throw new BadConfig("unknown field \"" + f.name + "\"");
            }
        }
        if (!havePeers) throw new BadConfig("peers is missing");
        if (!haveClients) throw new BadConfig("clients is missing");
        if (c.peers.isEmpty() || c.peers.size() > Ballot.MAX_NUM_PEERS) {
            throw new BadConfig("peers must list between 1 and 15 addresses");
        }
        if (c.clients.size() != c.peers.size()) {
            throw new BadConfig("clients lists " + c.clients.size() + " addresses, peers " + c.peers.size()
                    + ": one each per node");
        }
        return c;
    }

    private static void addresses(Json.Value v, String field, List<InetSocketAddress> out) throws BadConfig {
        if (v.kind != Json.Kind.ARRAY) throw new BadConfig(field + " must be an array of \"host:port\" strings");
        for (int i = 0; i < v.items.size(); i++) {
            Json.Value item = v.items.get(i);
            if (item.kind != Json.Kind.STRING) throw new BadConfig(field + "[" + i + "] must be a \"host:port\" string");
            out.add(address(item.string, field + "[" + i + "]"));
        }
    }

    /** "host:port" or "[v6]:port", resolved now so that a bad name fails at start-up. */
    static InetSocketAddress address(String s, String what) throws BadConfig {
        int colon = s.lastIndexOf(':');
        String bad = what + " = \"" + s + "\" is not a usable address";
        if (colon <= 0 || colon == s.length() - 1) throw new BadConfig(bad);
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        else if (host.indexOf(':') >= 0) throw new BadConfig(bad);
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new BadConfig(bad);
        }
        if (port < 1 || port > 65535 || s.substring(colon + 1).startsWith("+")) throw new BadConfig(bad);
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException | SecurityException e) {
            throw new BadConfig(bad + " (" + e.getMessage() + ")");
        }
    }
}
