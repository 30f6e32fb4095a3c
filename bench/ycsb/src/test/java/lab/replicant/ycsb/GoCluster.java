package lab.replicant.ycsb;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real 3-node cluster of the Go engine's native server, on free loopback ports. */
final class GoCluster implements AutoCloseable {
  final List<String> clientAddresses = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();
  private final Path dir;

  GoCluster(int nodes) throws IOException {
    Path repo = Path.of(System.getProperty("replicant.repo", "../..")).toAbsolutePath().normalize();
    Path server = repo.resolve("engines/go-wasm/dist/replicant-server");
    if (!Files.isExecutable(server)) {
      throw new IllegalStateException(server + " is missing: run `bash engines/go-wasm/build.sh` first");
    }
    List<String> peers = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      peers.add("127.0.0.1:" + freePort());
      clientAddresses.add("127.0.0.1:" + freePort());
    }
    dir = Files.createTempDirectory("ycsb-binding-test");
    Path config = dir.resolve("cluster.json");
    Files.writeString(config, "{\"commit_interval_ms\":150,\"peers\":" + jsonList(peers)
        + ",\"clients\":" + jsonList(clientAddresses) + "}");
    for (int id = 0; id < nodes; id++) start(server, config, id);
  }

  private void start(Path server, Path config, int id) throws IOException {
    processes.add(new ProcessBuilder(server.toString(), "--config", config.toString(), "--id", String.valueOf(id))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("node-" + id + ".log").toFile())
        .start());
  }

  String hosts() {
    return String.join(",", clientAddresses);
  }

  void kill(int id) throws InterruptedException {
    Process p = processes.get(id);
    p.destroyForcibly();
    p.waitFor(10, TimeUnit.SECONDS);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String jsonList(List<String> items) {
    return "[\"" + String.join("\",\"", items) + "\"]";
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : processes) p.destroy();
    for (Process p : processes) {
      if (!p.waitFor(5, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
    }
    File[] files = dir.toFile().listFiles();
    if (files != null) for (File f : files) f.delete();
    dir.toFile().delete();
  }
}
