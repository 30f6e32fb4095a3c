package lab.replicant.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

/**
 * Two nodes that each name the other as leader (a handoff or an election not yet settled): the
 * binding must back off between redirects instead of bouncing between them as fast as loopback
 * allows — 64 threads doing that were a redirect storm that kept a benchmarked cluster's one
 * core busy with reconnects (91,314 redirects in one 6-second probe). Before the back-off the
 * binding had no pause here at all (and this test did not compile: no redirectBackoffMs).
 */
class RedirectLoopTest {
  /** Lines both nodes answer with "leader is OTHER" before they answer "v". */
  static final int BOUNCES = 6;
  static final AtomicInteger ANSWERED = new AtomicInteger();

  /** A node that names the other as leader for the first BOUNCES lines (of both), then answers. */
  static final class PointsElsewhere implements AutoCloseable {
    final ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    final AtomicInteger requests = new AtomicInteger();
    volatile int other;
    final Thread acceptor = new Thread(this::serve);

    PointsElsewhere() throws Exception {
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void serve() {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          Thread t = new Thread(() -> answer(s));
          t.setDaemon(true);
          t.start();
        } catch (Exception e) {
          return;
        }
      }
    }

    private void answer(Socket s) {
      try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
        OutputStream out = s.getOutputStream();
        while (in.readLine() != null) {
          requests.incrementAndGet();
          String reply = ANSWERED.incrementAndGet() <= BOUNCES ? "leader is " + other : "v";
          out.write((reply + "\n").getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
      } catch (Exception e) {
        // the client closed it
      }
    }

    @Override
    public void close() throws Exception {
      server.close();
    }
  }

  @Test
  void backsOffWhenTheNodesPointAtEachOther() throws Exception {
    try (PointsElsewhere a = new PointsElsewhere(); PointsElsewhere b = new PointsElsewhere()) {
      a.other = 1;
      b.other = 0;
      String hosts = "127.0.0.1:" + a.server.getLocalPort() + ",127.0.0.1:" + b.server.getLocalPort();
      ReplicantClient c = ReplicantClientTest.client(hosts, "replicant.retry_delay_ms", "2", "replicant.first_node", "0");
      long before = ReplicantClient.redirectBackoffMs();
      long t0 = System.nanoTime();
      HashMap<String, site.ycsb.ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, c.read("usertable", "k", null, got));
      long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
      c.cleanup();
      assertEquals("v", got.get("field0").toString());
      assertEquals(BOUNCES + 1, a.requests.get() + b.requests.get());
      // the first redirect is followed at once, then 2, 4, 8, 16, 32 ms (the 2nd to 6th)
      assertEquals(2 + 4 + 8 + 16 + 32, ReplicantClient.redirectBackoffMs() - before);
      assertTrue(elapsedMs >= 62, "slept between the bounces: " + elapsedMs + " ms");
      assertEquals(0, ReplicantClient.redirectPauseMs(1, 2));
      assertEquals(64, ReplicantClient.redirectPauseMs(40, 2)); // capped at 32 retry delays
    }
  }
}
