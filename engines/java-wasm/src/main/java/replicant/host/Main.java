package replicant.host;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;

import replicant.core.Codec;
import replicant.core.Config;
import replicant.core.Json;
import replicant.core.Node;

/**
 * replicant-host drives Java cores over stdin/stdout for the conformance harness, speaking the
 * host protocol of engines/conformance/README.md: each request is a line
 * "&lt;op&gt; &lt;handle&gt; &lt;length&gt;" followed by &lt;length&gt; bytes; each response is
 * "ok &lt;length&gt;" or "err &lt;length&gt;" followed by that many bytes. One thread runs every
 * core, so the allocation figure of stats covers exactly that thread.
 */
public final class Main {
    private static final int MAX_PAYLOAD_BYTES = 256 << 20;
    private static final int MAX_HEADER_BYTES = 4096;

    private Main() {}

    public static void main(String[] args) throws IOException {
        // The host serves only the test harnesses, so every step checks the core's invariants.
        Node.checkInvariants = true;
        InputStream in = new BufferedInputStream(System.in, 1 << 20);
        OutputStream out = new BufferedOutputStream(System.out, 1 << 20);
        HashMap<Integer, Node> nodes = new HashMap<>();
        int nextHandle = 1;
        long[] self = {Thread.currentThread().getId()};
        for (;;) {
            String header = readHeader(in);
            if (header == null) return;
            String[] parts = header.trim().split("\\s+");
            if (parts.length != 3) fail("malformed request header \"" + header + "\"");
            int handle = 0;
            int length = -1;
            try {
                handle = Integer.parseInt(parts[1]);
                length = Integer.parseInt(parts[2]);
            } catch (NumberFormatException e) {
                fail("malformed request header \"" + header + "\"");
            }
            if (length < 0 || length > MAX_PAYLOAD_BYTES) fail("malformed request header \"" + header + "\"");
            byte[] payload = in.readNBytes(length);
            if (payload.length != length) fail("reading payload: unexpected end of input");
            String op = parts[0];
            Node node = nodes.get(handle);
            if (!op.equals("create") && node == null) {
                respond(out, "err", ascii("no node with handle " + parts[1]));
                continue;
            }
            switch (op) {
                case "create":
                    try {
                        Config cfg = Codec.decodeConfig(payload);
                        nodes.put(nextHandle, new Node(cfg));
                        respond(out, "ok", ascii(Integer.toString(nextHandle)));
                        nextHandle++;
                    } catch (Config.ConfigException e) {
                        respond(out, "err", ascii(e.getMessage()));
                    }
                    break;
                case "step":
                    respond(out, "ok", Json.toBytes(node.stepJson(payload)));
                    break;
                case "inspect":
                    respond(out, "ok", Json.toBytes(node.inspect()));
                    break;
                case "stats":
                    respond(out, "ok", ascii(RuntimeStats.json(RuntimeStats.allocatedBytes(self),
                            "the host's single thread, which runs every core (and the host's own I/O)")));
                    break;
                case "destroy":
                    nodes.remove(handle);
                    respond(out, "ok", new byte[0]);
                    break;
                default:
                    respond(out, "err", ascii("unknown op " + op));
            }
        }
    }

    /** The next header line without its "\n"; null at a clean end of input. */
    private static String readHeader(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder(32);
        for (;;) {
            int c = in.read();
            if (c < 0) {
                if (b.length() == 0) return null;
                fail("reading request: unexpected end of input");
            }
            if (c == '\n') return b.toString();
            if (b.length() >= MAX_HEADER_BYTES) fail("malformed request header (too long)");
            b.append((char) c);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void respond(OutputStream out, String status, byte[] payload) {
        try {
            out.write(ascii(status + " " + payload.length + "\n"));
            out.write(payload);
            out.flush();
        } catch (IOException e) {
            fail("writing response: " + e.getMessage());
        }
    }

    private static void fail(String message) {
        System.err.println("replicant-host: " + message);
        System.exit(2);
    }
}
