package replicant.fuzz;

/** Shared helpers of the fuzz targets. */
final class Fuzz {
    private Fuzz() {}

    /** A string of one char per byte, printable, for a failure message. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c >= 0x20 && c < 0x7f) b.append(c);
            else b.append(String.format("\\x%02x", (int) c));
        }
        return b.append('"').toString();
    }
}
