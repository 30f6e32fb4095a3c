package lab.replicant.ycsb;

import java.util.Map;
import java.util.Properties;
import java.util.Set;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;

/**
 * What the two bindings read alike from YCSB's properties: whole numbers, refused with the
 * property's name when they are not; and the one value each key holds, which YCSB sees as its
 * field 0 (the stores keep one value per key, so {@code fieldcount} must be 1).
 */
final class BindingProperties {
  private BindingProperties() {}

  static int nonNegativeInt(Properties p, String name, int fallback) throws DBException {
    String v = p.getProperty(name);
    if (v == null) return fallback;
    try {
      int n = Integer.parseInt(v.trim());
      if (n < 0) throw new NumberFormatException();
      return n;
    } catch (NumberFormatException e) {
      throw new DBException(name + " must be a non-negative integer, got " + v);
    }
  }

  /** The name YCSB gives the one value of a key; refuses any fieldcount but 1. */
  static String onlyFieldName(Properties p, String store) throws DBException {
    int fieldCount = nonNegativeInt(p, "fieldcount", 10);
    if (fieldCount != 1) {
      throw new DBException(store + " stores one value per key: set fieldcount=1 (got " + fieldCount + ")");
    }
    return p.getProperty("fieldnameprefix", "field") + "0";
  }

  /** A read's result: the key's value under its field name, if the caller asked for that field. */
  static void putValue(String fieldName, byte[] value, Set<String> fields, Map<String, ByteIterator> result) {
    if (result != null && (fields == null || fields.contains(fieldName))) {
      result.put(fieldName, new ByteArrayByteIterator(value));
    }
  }
}
