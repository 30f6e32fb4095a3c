package replicant.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Reads '\n'-terminated lines of bounded length from a stream, without decoding them. */
final class LineReader {
    /** What {@link #next} returned besides a line. */
    static final byte[] TOO_LONG = new byte[0];

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int end;
    private byte[] line = new byte[256];

    LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * The next line without its '\n'; null at the end of the stream (a last unterminated line is
     * dropped: the peer closed mid-line); {@link #TOO_LONG} when the line exceeds the limit.
     */
    byte[] next() throws IOException {
        int len = 0;
        for (;;) {
            if (pos == end) {
                int n = in.read(buf);
                if (n < 0) return null;
                pos = 0;
                end = n;
            }
            int start = pos;
            while (pos < end && buf[pos] != '\n') pos++;
            int chunk = pos - start;
            if (len + chunk > maxLineBytes) return TOO_LONG;
            if (len + chunk > line.length) {
                line = Arrays.copyOf(line, Math.min(maxLineBytes, Math.max(len + chunk, line.length * 2)));
            }
            System.arraycopy(buf, start, line, len, chunk);
            len += chunk;
            if (pos < end) { // found '\n'
                pos++;
                return Arrays.copyOf(line, len);
            }
        }
    }
}
