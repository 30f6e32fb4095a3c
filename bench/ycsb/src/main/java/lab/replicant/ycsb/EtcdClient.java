package lab.replicant.ycsb;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for etcd, the paper's sanity baseline (§4.4), through jetcd (etcd's Java gRPC
 * client). YCSB 0.17 ships no etcd binding, and etcd's own benchmark tool measures closed-loop
 * service time; this binding keeps etcd under the same YCSB workloads, the same open-loop
 * intended latency and the same SLO search as Replicant.
 *
 * <p>One jetcd client (one gRPC channel per endpoint) is shared by every YCSB thread, as gRPC
 * multiplexes requests; each thread still has one request in flight. Reads are etcd's default
 * linearizable reads. Records are one field stored as the key's value, as for Replicant.
 *
 * <p>Properties: {@code etcd.endpoints} (required; {@code http://host:port,...}),
 * {@code etcd.timeout_ms} (10000: one operation).
 */
public class EtcdClient extends DB {
  private static final Object LOCK = new Object();
  private static Client shared;
  private static int users;

  private KV kv;
  private long timeoutMs;
  private String fieldName;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String endpoints = p.getProperty("etcd.endpoints");
    if (endpoints == null || endpoints.isBlank()) {
      throw new DBException("etcd.endpoints is required: http://host:port of every member, comma-separated");
    }
    if (!"1".equals(p.getProperty("fieldcount", "10").trim())) {
      throw new DBException("the etcd binding stores one value per key: set fieldcount=1");
    }
    timeoutMs = Long.parseLong(p.getProperty("etcd.timeout_ms", "10000"));
    fieldName = p.getProperty("fieldnameprefix", "field") + "0";
    synchronized (LOCK) {
      if (shared == null) shared = Client.builder().endpoints(endpoints.split(",")).build();
      users++;
      kv = shared.getKVClient();
    }
  }

  @Override
  public void cleanup() {
    synchronized (LOCK) {
      if (--users == 0 && shared != null) {
        shared.close();
        shared = null;
      }
    }
  }

  private <T> T await(CompletableFuture<T> f) throws Exception {
    return f.get(timeoutMs, TimeUnit.MILLISECONDS);
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(Values.bytes(s));
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      GetResponse r = await(kv.get(bytes(key)));
      if (r.getKvs().isEmpty()) return Status.NOT_FOUND;
      if (result != null && (fields == null || fields.contains(fieldName))) {
        result.put(fieldName, new ByteArrayByteIterator(r.getKvs().get(0).getValue().getBytes()));
      }
      return Status.OK;
    } catch (TimeoutException e) {
      return Status.SERVICE_UNAVAILABLE;
    } catch (Exception e) {
      return Status.ERROR;
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
      await(kv.put(bytes(key), ByteSequence.from(values.values().iterator().next().toArray())));
      return Status.OK;
    } catch (TimeoutException e) {
      return Status.SERVICE_UNAVAILABLE;
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      return await(kv.delete(bytes(key))).getDeleted() > 0 ? Status.OK : Status.NOT_FOUND;
    } catch (TimeoutException e) {
      return Status.SERVICE_UNAVAILABLE;
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED; // kept symmetric with the Replicant binding
  }
}
