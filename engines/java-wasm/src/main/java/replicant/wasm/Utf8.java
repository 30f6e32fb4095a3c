package replicant.wasm;

/**
 * UTF-8 encoding of a JavaScript string, as TextEncoder (and so Node's Buffer.from and Go's
 * syscall/js) does it: a lone surrogate becomes U+FFFD. String.getBytes would turn it into '?',
 * an ASCII byte that could make a bad event look valid.
 */
final class Utf8 {
    private Utf8() {}

    static byte[] encode(String s) {
        int n = s.length();
        int size = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) size += 1;
            else if (c < 0x800) size += 2;
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                size += 4;
                i++;
            } else size += 3;
        }
        byte[] out = new byte[size];
        int p = 0;
        for (int i = 0; i < n; i++) {
            int c = s.charAt(i);
            if (c < 0x80) {
                out[p++] = (byte) c;
                continue;
            }
            if (c < 0x800) {
                out[p++] = (byte) (0xc0 | (c >> 6));
                out[p++] = (byte) (0x80 | (c & 0x3f));
                continue;
            }
            if (Character.isHighSurrogate((char) c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint((char) c, s.charAt(++i));
                out[p++] = (byte) (0xf0 | (cp >> 18));
                out[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                out[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                out[p++] = (byte) (0x80 | (cp & 0x3f));
                continue;
            }
            if (Character.isSurrogate((char) c)) c = 0xfffd;
            out[p++] = (byte) (0xe0 | (c >> 12));
            out[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
            out[p++] = (byte) (0x80 | (c & 0x3f));
        }
        return out;
    }
}
