package lab.replicant.ycsb;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for etcd, the paper's sanity baseline (§4.4), through etcd's JSON gateway
 * ({@code POST /v3/kv/range|put|deleterange} on the client URL; keys and values base64).
 *
 * <p>YCSB 0.17 ships no etcd binding, and etcd's own benchmark tool measures closed-loop service
 * time; this binding keeps etcd under the same YCSB workloads, open-loop intended latency and SLO
 * search as Replicant. Like the Replicant binding, each YCSB thread has its own HTTP/1.1
 * keep-alive connection and one request in flight, and the binding needs nothing beyond the JDK.
 * (A first version used jetcd, etcd's gRPC Java client; on this machine both reached the same
 * ~1 k inserts/s with 64 threads, so the gateway's translation is not what limits etcd here.)
 * Threads are spread over the members; a member forwards writes to the leader and serves
 * linearizable reads through it, as etcd does for any client.
 *
 * <p>Properties: {@code etcd.endpoints} (required; {@code http://host:port,...}),
 * {@code etcd.timeout_ms} (10000: one operation).
 */
public class EtcdClient extends DB {
  private static final Pattern VALUE = Pattern.compile("\"value\":\"([A-Za-z0-9+/=]*)\"");
  private static final Pattern DELETED = Pattern.compile("\"deleted\":\"?(\\d+)");
  private static int nextThread;

  private HttpClient http;
  private URI range;
  private URI put;
  private URI delete;
  private Duration timeout;
  private String fieldName;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String endpoints = p.getProperty("etcd.endpoints");
    if (endpoints == null || endpoints.isBlank()) {
      throw new DBException("etcd.endpoints is required: http://host:port of every member, comma-separated");
    }
    fieldName = BindingProperties.onlyFieldName(p, "the etcd binding");
    String[] list = endpoints.split(",");
    int mine;
    synchronized (EtcdClient.class) {
      mine = nextThread++;
    }
    String base = list[mine % list.length].trim().replaceAll("/+$", "");
    try {
      range = URI.create(base + "/v3/kv/range");
      put = URI.create(base + "/v3/kv/put");
      delete = URI.create(base + "/v3/kv/deleterange");
    } catch (IllegalArgumentException e) {
      throw new DBException("etcd.endpoints: not a URL: " + base);
    }
    int timeoutMs = BindingProperties.nonNegativeInt(p, "etcd.timeout_ms", 10000);
    if (timeoutMs == 0) throw new DBException("etcd.timeout_ms must be at least 1");
    timeout = Duration.ofMillis(timeoutMs);
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
  }

  private static String b64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  /** Posts a JSON body; returns the response body, or null on a non-200 answer. */
  private String post(URI uri, String json) throws IOException, InterruptedException {
    HttpRequest req = HttpRequest.newBuilder(uri).timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.US_ASCII)).build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.US_ASCII));
    return r.statusCode() == 200 ? r.body() : null;
  }

  private static Status failure(Exception e) {
    if (e instanceof InterruptedException) Thread.currentThread().interrupt();
    return e instanceof java.net.http.HttpTimeoutException ? Status.SERVICE_UNAVAILABLE : Status.ERROR;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      String body = post(range, "{\"key\":\"" + b64(Values.bytes(key)) + "\"}");
      if (body == null) return Status.ERROR;
      Matcher m = VALUE.matcher(body);
      if (!m.find()) return Status.NOT_FOUND;
      BindingProperties.putValue(fieldName, Base64.getDecoder().decode(m.group(1)), fields, result);
      return Status.OK;
    } catch (IOException | InterruptedException e) {
      return failure(e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return insert(table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    if (values.size() != 1) return Status.BAD_REQUEST;
    try {
      String value = b64(values.values().iterator().next().toArray());
      return post(put, "{\"key\":\"" + b64(Values.bytes(key)) + "\",\"value\":\"" + value + "\"}") != null ? Status.OK : Status.ERROR;
    } catch (IOException | InterruptedException e) {
      return failure(e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      String body = post(delete, "{\"key\":\"" + b64(Values.bytes(key)) + "\"}");
      if (body == null) return Status.ERROR;
      Matcher m = DELETED.matcher(body);
      return m.find() && Long.parseLong(m.group(1)) > 0 ? Status.OK : Status.NOT_FOUND;
    } catch (IOException | InterruptedException e) {
      return failure(e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED; // kept symmetric with the Replicant binding
  }
}
