package replicant.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The batch step (docs/protocol.md, "Batch step"): its framing, and a batch stepping exactly
 * as its events do one by one through stepBinary (the C++ core's BatchStep tests, mirrored).
 */
class BatchStepTest {
    private static Node oneNode() {
        Config c = Config.defaults();
        c.numPeers = 1;
        c.seed = 5;
        return new Node(c);
    }

    private static byte[] jsonEvent(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        byte[] e = new byte[body.length + 1];
        System.arraycopy(body, 0, e, 1, body.length);
        return e;
    }

    /** Start, a client's put (binary), a bad event, a commit timer. */
    private static List<byte[]> events() {
        byte[] line = "put k v".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream put = new ByteArrayOutputStream();
        put.write(1);
        put.write(7);
        put.write(1);
        put.write(line.length);
        put.write(line, 0, line.length);
        return List.of(jsonEvent("{\"type\":\"start\"}"), put.toByteArray(), jsonEvent("{\"type\":\"nope\"}"),
                jsonEvent("{\"type\":\"timer\",\"timer\":\"commit\"}"));
    }

    /** Frames with one-byte lengths (every body here is shorter than 128 bytes). */
    private static byte[] frames(List<byte[]> bodies) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] body : bodies) {
            assertTrue(body.length < 128);
            b.write(body.length);
            b.write(body, 0, body.length);
        }
        return b.toByteArray();
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) b[i] = (byte) values[i];
        return b;
    }

    @Test
    void framingIsWholeFramesOrAnError() {
        assertTrue(BinaryCodec.validBatchFraming(new byte[0], 0));
        byte[] good = bytes(0x00, 0x02, 0x00, '{', 0x01, 0x09);
        assertTrue(BinaryCodec.validBatchFraming(good, good.length));
        for (byte[] bad : List.of(bytes(0x01), bytes(0x03, 0x01, 0x02), bytes(0x80), bytes(0x80, 0x00),
                bytes(0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f))) {
            assertFalse(BinaryCodec.validBatchFraming(bad, bad.length));
        }
        byte[] in = bytes(0x02, 0x07, 0x08, 0x00, 0x01, 0x09);
        assertEquals(3, BinaryCodec.batchFrameEnd(in, in.length, 0));
        assertEquals(1, BinaryCodec.frameBodyStart(in, 0));
        assertEquals(4, BinaryCodec.batchFrameEnd(in, in.length, 3));
        assertEquals(6, BinaryCodec.batchFrameEnd(in, in.length, 4));
        // only the first `length` bytes count
        assertFalse(BinaryCodec.validBatchFraming(in, 5));
    }

    @Test
    void stepsAsItsEventsOneByOne() {
        Node one = oneNode();
        List<byte[]> effects = new ArrayList<>();
        for (byte[] e : events()) effects.add(one.stepBinary(e, e.length).toArray());
        Node batched = oneNode();
        byte[] in = frames(events());
        BinaryCodec.Output out = batched.stepBatch(in, in.length);
        assertNotNull(out);
        assertArrayEquals(frames(effects), out.toArray());
        assertEquals(one.inspect(), batched.inspect());
        BinaryCodec.Output empty = batched.stepBatch(new byte[0], 0);
        assertNotNull(empty);
        assertEquals(0, empty.length());
    }

    @Test
    void badFramingStepsNothing() {
        Node n = oneNode();
        String before = n.inspect();
        byte[] start = frames(List.of(jsonEvent("{\"type\":\"start\"}")));
        byte[] in = new byte[start.length + 2];
        System.arraycopy(start, 0, in, 0, start.length);
        in[start.length] = 0x05; // a frame promising more bytes than there are
        assertNull(n.stepBatch(in, in.length));
        assertNull(n.stepBatch(bytes(0x80), 1));
        assertEquals(before, n.inspect());
    }
}
