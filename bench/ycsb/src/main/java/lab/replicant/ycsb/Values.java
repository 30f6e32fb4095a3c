package lab.replicant.ycsb;

import java.nio.charset.StandardCharsets;

/** What the client text protocol accepts as keys and values (docs/protocol.md). */
final class Values {
  static final int MAX_KEY_BYTES = 256;
  static final int MAX_VALUE_BYTES = 65536;

  private Values() {}

  /** 1..256 bytes from '!' to '~'. */
  static boolean validKey(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_BYTES) return false;
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x21 || c > 0x7e) return false;
    }
    return true;
  }

  /**
   * YCSB's random values use bytes 0x20..0x7f; the protocol takes 0x20..0x7e. Any byte outside
   * that range is folded into it, so a value keeps its length (the paper's 500 bytes).
   */
  static String printable(byte[] raw) {
    int n = Math.min(raw.length, MAX_VALUE_BYTES);
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      int b = raw[i] & 0xff;
      out[i] = (byte) (b >= 0x20 && b <= 0x7e ? b : 0x20 + b % 0x5f);
    }
    return new String(out, StandardCharsets.ISO_8859_1);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
