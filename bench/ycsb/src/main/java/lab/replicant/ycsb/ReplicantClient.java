package lab.replicant.ycsb;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for Replicant's client text protocol (docs/protocol.md, "Client text protocol").
 *
 * <p>YCSB creates one instance per client thread, so each thread has its own connections
 * (one per node it has talked to) and one request in flight. Commands go to the node believed
 * to be the leader; a {@code leader is N} reply moves the thread to node N (backing off when the nodes name
 * each other), {@code retry}
 * waits a little and asks again, {@code busy P} (GC mitigation, MITMEM) moves on to the next
 * node at once, a broken or silent connection moves on to the next node. A
 * request that has not succeeded within {@code replicant.deadline_ms} is an error.
 *
 * <p>Records are one field (the paper's 500-byte values), stored as the key's value verbatim;
 * read/update/insert map to get/put, delete to del; scan is not part of the protocol.
 *
 * <p>Properties: {@code replicant.hosts} (required; {@code host:port,...} in node-id order),
 * {@code replicant.timeout_ms} (5000: one reply), {@code replicant.deadline_ms} (10000: one
 * operation, redirects and retries included), {@code replicant.retry_delay_ms} (2),
 * {@code replicant.first_node} (the node a new thread asks first; default: the last leader seen).
 */
public class ReplicantClient extends DB {
  /** The leader as last seen by any thread, so new threads start there. */
  private static final AtomicInteger LEADER_HINT = new AtomicInteger(0);
  /** Counters over every thread, printed at clean-up for the harness to parse. */
  private static final AtomicLong REDIRECTS = new AtomicLong();
  private static final AtomicLong RETRIES = new AtomicLong();
  private static final AtomicLong BUSY = new AtomicLong();
  private static final AtomicLong RECONNECTS = new AtomicLong();
  /** Time spent backing off between redirects that contradict each other, over every thread. */
  private static final AtomicLong REDIRECT_BACKOFF_MS = new AtomicLong();
  private static final AtomicInteger LIVE_THREADS = new AtomicInteger();

  static long redirects() {
    return REDIRECTS.get();
  }

  static long redirectBackoffMs() {
    return REDIRECT_BACKOFF_MS.get();
  }

  /** The pause before following the n-th redirect of one operation: none for the first. */
  static long redirectPauseMs(int n, long retryDelayMs) {
    return n <= 1 ? 0 : Math.min(32L, 1L << Math.min(n - 2, 5)) * retryDelayMs;
  }

  private List<String[]> hosts;
  private LineConnection[] connections;
  private int node;
  private int timeoutMs;
  private long deadlineMs;
  private long retryDelayMs;
  private String fieldName;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    hosts = parseHosts(p.getProperty("replicant.hosts"));
    timeoutMs = BindingProperties.nonNegativeInt(p, "replicant.timeout_ms", 5000);
    deadlineMs = BindingProperties.nonNegativeInt(p, "replicant.deadline_ms", 10000);
    retryDelayMs = BindingProperties.nonNegativeInt(p, "replicant.retry_delay_ms", 2);
    fieldName = BindingProperties.onlyFieldName(p, "Replicant");
    connections = new LineConnection[hosts.size()];
    int first = BindingProperties.nonNegativeInt(p, "replicant.first_node", -1 >>> 1);
    node = first == (-1 >>> 1) ? Math.floorMod(LEADER_HINT.get(), hosts.size()) : first;
    if (node >= hosts.size()) throw new DBException("replicant.first_node must be below " + hosts.size());
    LIVE_THREADS.incrementAndGet();
  }

  @Override
  public void cleanup() {
    for (LineConnection c : connections) {
      if (c != null) c.close();
    }
    if (LIVE_THREADS.decrementAndGet() == 0) {
      // One line for the harness (bench/src/ycsb-output.ts reads it from stderr).
      System.err.printf("[replicant-binding] redirects=%d retries=%d reconnects=%d busy=%d%n",
          REDIRECTS.get(), RETRIES.get(), RECONNECTS.get(), BUSY.get());
    }
  }

  static List<String[]> parseHosts(String spec) throws DBException {
    if (spec == null || spec.isBlank()) {
      throw new DBException("replicant.hosts is required: host:port of every node, comma-separated, in node-id order");
    }
    List<String[]> out = new ArrayList<>();
    for (String part : spec.split(",")) {
      String s = part.trim();
      int colon = s.lastIndexOf(':');
      if (colon <= 0 || colon == s.length() - 1) throw new DBException("replicant.hosts: not host:port: " + s);
      try {
        int port = Integer.parseInt(s.substring(colon + 1));
        if (port < 1 || port > 65535) throw new NumberFormatException();
      } catch (NumberFormatException e) {
        throw new DBException("replicant.hosts: bad port in " + s);
      }
      out.add(new String[] {s.substring(0, colon), s.substring(colon + 1)});
    }
    return out;
  }

  /** Outcome of one command: the reply line, or null when the deadline passed. */
  String execute(String line) {
    long deadline = System.nanoTime() + deadlineMs * 1_000_000L;
    int bounces = 0;
    while (System.nanoTime() < deadline) {
      String reply;
      try {
        reply = connection(node).request(line);
      } catch (SocketTimeoutException e) {
        dropConnection(node); // a silent node: perhaps paused, perhaps gone
        node = (node + 1) % hosts.size();
        continue;
      } catch (IOException e) {
        dropConnection(node);
        node = (node + 1) % hosts.size();
        pause();
        continue;
      }
      if (reply.startsWith("leader is ")) {
        int leader = parseLeader(reply);
        if (leader >= 0) {
          REDIRECTS.incrementAndGet();
          // A client told where the leader is has no more use for this node: close the
          // connection rather than hold a server-side client (and its buffers) open.
          if (leader != node) dropConnection(node);
          node = leader;
          LEADER_HINT.set(leader);
          // The first redirect is followed at once. A second within one operation means the
          // nodes disagree (a handoff or an election under way): back off, doubling up to 32
          // retry delays, or every thread bounces between them as fast as loopback allows and
          // the reconnects keep the nodes too busy to settle it.
          long backoff = redirectPauseMs(++bounces, retryDelayMs);
          REDIRECT_BACKOFF_MS.addAndGet(backoff);
          pause(backoff);
          continue;
        }
      }
      if (reply.equals("retry")) {
        RETRIES.incrementAndGet();
        pause();
        continue;
      }
      if (reply.startsWith("busy ")) {
        // MITMEM (docs/mitigation.md): this node predicts a pause past the deadline; try the
        // next node at once (a follower sends the thread back if only the leader can answer)
        BUSY.incrementAndGet();
        node = (node + 1) % hosts.size();
        continue;
      }
      return reply;
    }
    return null;
  }

  private int parseLeader(String reply) {
    try {
      int n = Integer.parseInt(reply.substring("leader is ".length()));
      return n >= 0 && n < hosts.size() ? n : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private LineConnection connection(int id) throws IOException {
    if (connections[id] == null) {
      String[] h = hosts.get(id);
      connections[id] = new LineConnection(h[0], Integer.parseInt(h[1]), timeoutMs);
      RECONNECTS.incrementAndGet();
    }
    return connections[id];
  }

  private void dropConnection(int id) {
    if (connections[id] != null) {
      connections[id].close();
      connections[id] = null;
    }
  }

  private void pause() {
    pause(retryDelayMs);
  }

  private void pause(long ms) {
    if (ms == 0) return;
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The result of a command that changes nothing but says ok with an empty line. */
  private static Status writeStatus(String reply) {
    if (reply == null) return Status.SERVICE_UNAVAILABLE;
    if (reply.isEmpty()) return Status.OK;
    if (reply.equals("bad command")) return Status.BAD_REQUEST;
    if (reply.equals("key not found")) return Status.NOT_FOUND;
    return Status.UNEXPECTED_STATE;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    if (!Values.validKey(key)) return Status.BAD_REQUEST;
    String reply = execute("get " + key);
    if (reply == null) return Status.SERVICE_UNAVAILABLE;
    if (reply.equals("key not found")) return Status.NOT_FOUND;
    if (reply.equals("bad command")) return Status.BAD_REQUEST;
    BindingProperties.putValue(fieldName, Values.bytes(reply), fields, result);
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return put(key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return put(key, values);
  }

  private Status put(String key, Map<String, ByteIterator> values) {
    if (!Values.validKey(key) || values.size() != 1) return Status.BAD_REQUEST;
    String value = Values.printable(values.values().iterator().next().toArray());
    return writeStatus(execute("put " + key + " " + value));
  }

  @Override
  public Status delete(String table, String key) {
    if (!Values.validKey(key)) return Status.BAD_REQUEST;
    return writeStatus(execute("del " + key));
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED; // Replicant's protocol has no ordered iteration
  }
}
