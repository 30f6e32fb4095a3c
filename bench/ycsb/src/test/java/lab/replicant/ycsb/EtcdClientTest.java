package lab.replicant.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Vector;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/** The etcd binding against a real single-member etcd built by bench/build.sh. */
class EtcdClientTest {
  static Process etcd;
  static Path dataDir;
  static String endpoint;

  @BeforeAll
  static void startEtcd() throws Exception {
    Path repo = Path.of(System.getProperty("replicant.repo", "../..")).toAbsolutePath().normalize();
    Path binary = repo.resolve("bench/etcd/dist/etcd");
    if (!Files.isExecutable(binary)) throw new IllegalStateException(binary + " is missing: run `bash bench/build.sh` first");
    int client = freePort();
    int peer = freePort();
    endpoint = "http://127.0.0.1:" + client;
    dataDir = Files.createTempDirectory("etcd-binding-test");
    etcd = new ProcessBuilder(binary.toString(), "--name", "t", "--data-dir", dataDir.resolve("d").toString(),
        "--listen-client-urls", endpoint, "--advertise-client-urls", endpoint,
        "--listen-peer-urls", "http://127.0.0.1:" + peer, "--initial-advertise-peer-urls", "http://127.0.0.1:" + peer,
        "--initial-cluster", "t=http://127.0.0.1:" + peer, "--log-level", "error")
        .redirectErrorStream(true).redirectOutput(dataDir.resolve("etcd.log").toFile()).start();
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(endpoint + "/health")).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && r.body().contains("true")) return;
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("etcd did not become healthy in 30 s");
  }

  @AfterAll
  static void stopEtcd() throws Exception {
    etcd.destroy();
    if (!etcd.waitFor(5, TimeUnit.SECONDS)) etcd.destroyForcibly().waitFor();
    try (Stream<Path> files = Files.walk(dataDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static EtcdClient client(String endpoints, String fieldcount) throws DBException {
    Properties p = new Properties();
    p.setProperty("etcd.endpoints", endpoints);
    p.setProperty("fieldcount", fieldcount);
    EtcdClient c = new EtcdClient();
    c.setProperties(p);
    c.init();
    return c;
  }

  static Map<String, ByteIterator> record(String value) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put("field0", new ByteArrayByteIterator(value.getBytes()));
    return m;
  }

  @Test
  void insertReadUpdateDelete() throws Exception {
    EtcdClient c = client(endpoint, "1");
    String value = "x".repeat(499) + "\u007f"; // YCSB's bytes, stored as they are
    assertEquals(Status.OK, c.insert("usertable", "user6284781860667377211", record(value)));
    Map<String, ByteIterator> got = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "user6284781860667377211", null, got));
    assertEquals(value, got.get("field0").toString());
    assertEquals(Status.OK, c.update("usertable", "user6284781860667377211", record("v2")));
    got.clear();
    assertEquals(Status.OK, c.read("usertable", "user6284781860667377211", null, got));
    assertEquals("v2", got.get("field0").toString());
    assertEquals(Status.OK, c.delete("usertable", "user6284781860667377211"));
    assertEquals(Status.NOT_FOUND, c.read("usertable", "user6284781860667377211", null, new HashMap<>()));
    assertEquals(Status.NOT_FOUND, c.delete("usertable", "user6284781860667377211"));
    assertEquals(Status.NOT_IMPLEMENTED, c.scan("usertable", "a", 1, null, new Vector<>()));
    c.cleanup();
  }

  @Test
  void configurationErrorsAreClear() {
    DBException missing = assertThrows(DBException.class, () -> client("", "1"));
    assertTrue(missing.getMessage().contains("etcd.endpoints is required"));
    assertThrows(DBException.class, () -> client(endpoint, "10"));
  }

  @Test
  void anUnreachableMemberIsAnError() throws Exception {
    EtcdClient c = client("http://127.0.0.1:" + freePort(), "1");
    assertEquals(Status.ERROR, c.read("usertable", "k", null, new HashMap<>()));
  }
}
