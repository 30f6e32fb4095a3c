package lab.replicant.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/** The binding against a real 3-node Go cluster (no fake server). */
class ReplicantClientTest {
  static GoCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = new GoCluster(3);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
  }

  static ReplicantClient client(String hosts, String... extra) throws DBException {
    Properties p = new Properties();
    p.setProperty("replicant.hosts", hosts);
    p.setProperty("fieldcount", "1");
    for (int i = 0; i + 1 < extra.length; i += 2) p.setProperty(extra[i], extra[i + 1]);
    ReplicantClient c = new ReplicantClient();
    c.setProperties(p);
    c.init();
    return c;
  }

  static Map<String, ByteIterator> record(byte[] value) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put("field0", new ByteArrayByteIterator(value));
    return m;
  }

  static byte[] ycsbLikeValue(int n) {
    byte[] v = new byte[n];
    for (int i = 0; i < n; i++) v[i] = (byte) (0x20 + (i * 7) % 96); // includes 0x7f, as YCSB's do
    return v;
  }

  @Test
  void insertReadUpdateDeleteThroughRedirects() throws Exception {
    ReplicantClient c = client(cluster.hosts());
    byte[] value = ycsbLikeValue(500);
    // The first write waits out the election (retry) and follows `leader is N`.
    assertEquals(Status.OK, c.insert("usertable", "user6284781860667377211", record(value)));

    Map<String, ByteIterator> got = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "user6284781860667377211", null, got));
    byte[] stored = got.get("field0").toArray();
    assertEquals(500, stored.length, "a value keeps its length");
    assertArrayEquals(Values.bytes(Values.printable(value)), stored);

    assertEquals(Status.OK, c.update("usertable", "user6284781860667377211", record("new value".getBytes())));
    got.clear();
    assertEquals(Status.OK, c.read("usertable", "user6284781860667377211", Set.of("field0"), got));
    assertEquals("new value", got.get("field0").toString());

    assertEquals(Status.OK, c.delete("usertable", "user6284781860667377211"));
    assertEquals(Status.NOT_FOUND, c.read("usertable", "user6284781860667377211", null, new HashMap<>()));
    assertEquals(Status.NOT_FOUND, c.delete("usertable", "user6284781860667377211"));
    c.cleanup();
  }

  @Test
  void everyNodeAsFirstContactReachesTheLeader() throws Exception {
    int followersSeen = 0;
    for (int first = 0; first < cluster.clientAddresses.size(); first++) {
      ReplicantClient c = client(cluster.hosts(), "replicant.first_node", String.valueOf(first));
      long before = ReplicantClient.redirects();
      assertEquals(Status.OK, c.insert("usertable", "first-contact-" + first, record("v".getBytes())));
      if (ReplicantClient.redirects() > before) followersSeen++;
      c.cleanup();
    }
    assertEquals(2, followersSeen, "the two followers each redirected once; the leader answered itself");
  }

  @Test
  void scanIsNotImplemented() throws Exception {
    ReplicantClient c = client(cluster.hosts());
    assertEquals(Status.NOT_IMPLEMENTED, c.scan("usertable", "a", 10, null, new Vector<>()));
    c.cleanup();
  }

  @Test
  void badKeysAndMultiFieldRecordsAreBadRequests() throws Exception {
    ReplicantClient c = client(cluster.hosts());
    assertEquals(Status.BAD_REQUEST, c.insert("usertable", "has space", record("v".getBytes())));
    assertEquals(Status.BAD_REQUEST, c.read("usertable", "", null, new HashMap<>()));
    Map<String, ByteIterator> two = record("a".getBytes());
    two.put("field1", new ByteArrayByteIterator("b".getBytes()));
    assertEquals(Status.BAD_REQUEST, c.update("usertable", "k", two));
    c.cleanup();
  }

  @Test
  void configurationErrorsAreClear() {
    DBException missing = assertThrows(DBException.class, () -> client(""));
    assertTrue(missing.getMessage().contains("replicant.hosts is required"));
    assertThrows(DBException.class, () -> client("127.0.0.1"));
    assertThrows(DBException.class, () -> client("127.0.0.1:99999"));
    assertThrows(DBException.class, () -> client(cluster.hosts(), "replicant.first_node", "3"));
    DBException fields = assertThrows(DBException.class, () -> client(cluster.hosts(), "fieldcount", "10"));
    assertTrue(fields.getMessage().contains("fieldcount=1"));
  }

  @Test
  void anUnreachableClusterEndsInServiceUnavailableWithinTheDeadline() throws Exception {
    GoCluster dead = new GoCluster(3);
    String hosts = dead.hosts();
    dead.close();
    ReplicantClient c = client(hosts, "replicant.deadline_ms", "300", "replicant.timeout_ms", "100");
    long t0 = System.nanoTime();
    assertEquals(Status.SERVICE_UNAVAILABLE, c.read("usertable", "k", null, new HashMap<>()));
    assertFalse(System.nanoTime() - t0 > 5_000_000_000L, "gave up within the deadline");
    c.cleanup();
  }

  @Test
  void printableKeepsLengthAndFoldsForbiddenBytes() {
    byte[] raw = {0x7f, 0x00, (byte) 0xff, 'a', ' ', '~'};
    String s = Values.printable(raw);
    assertEquals(raw.length, s.length());
    for (char ch : s.toCharArray()) assertTrue(ch >= 0x20 && ch <= 0x7e, "printable: " + (int) ch);
    assertEquals("a ~", s.substring(3));
  }
}
