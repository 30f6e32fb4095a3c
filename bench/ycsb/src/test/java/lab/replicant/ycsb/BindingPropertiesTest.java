package lab.replicant.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;

/** The properties both bindings read, refused with a clear message; no server needed. */
class BindingPropertiesTest {
  static Properties etcdProperties(String timeoutMs) {
    Properties p = new Properties();
    p.setProperty("etcd.endpoints", "http://127.0.0.1:1");
    p.setProperty("fieldcount", "1");
    if (timeoutMs != null) p.setProperty("etcd.timeout_ms", timeoutMs);
    return p;
  }

  static DBException etcdInitError(String timeoutMs) {
    EtcdClient c = new EtcdClient();
    c.setProperties(etcdProperties(timeoutMs));
    return assertThrows(DBException.class, c::init);
  }

  @Test
  void etcdRefusesATimeoutThatIsNotAWholeNumber() {
    // Before: Long.parseLong threw NumberFormatException out of init (no DBException, no name).
    assertTrue(etcdInitError("ten").getMessage().contains("etcd.timeout_ms must be a non-negative integer, got ten"));
    assertTrue(etcdInitError("-5").getMessage().contains("etcd.timeout_ms"));
    // Before: a zero timeout reached HttpClient, which throws IllegalArgumentException.
    assertTrue(etcdInitError("0").getMessage().contains("etcd.timeout_ms must be at least 1"));
  }

  @Test
  void bothStoresKeepOneValuePerKey() throws DBException {
    Properties p = new Properties();
    assertTrue(assertThrows(DBException.class, () -> BindingProperties.onlyFieldName(p, "Replicant")).getMessage()
        .contains("Replicant stores one value per key: set fieldcount=1 (got 10)"));
    p.setProperty("fieldcount", "1");
    assertEquals("field0", BindingProperties.onlyFieldName(p, "Replicant"));
    p.setProperty("fieldnameprefix", "f");
    assertEquals("f0", BindingProperties.onlyFieldName(p, "Replicant"));
  }

  @Test
  void aReadFillsOnlyTheFieldAskedFor() {
    Map<String, ByteIterator> all = new HashMap<>();
    BindingProperties.putValue("field0", "v".getBytes(), null, all);
    assertEquals("v", all.get("field0").toString());
    Map<String, ByteIterator> other = new HashMap<>();
    BindingProperties.putValue("field0", "v".getBytes(), Set.of("field3"), other);
    assertTrue(other.isEmpty());
    BindingProperties.putValue("field0", "v".getBytes(), Set.of("field0"), null); // no result map: nothing to fill
  }
}
