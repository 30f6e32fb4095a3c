package replicant.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;

/** The binary step's encoding (docs/protocol.md, "Binary step"), as binary_codec.rs tests it. */
class BinaryCodecTest {
    private static Event accept(String value) {
        String json = "{\"type\":\"message\",\"msg\":{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,"
                + "\"instance\":{\"ballot\":257,\"index\":300,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
                + "\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"" + value + "\"}}}}";
        Event e = Codec.decodeEvent(json.getBytes(StandardCharsets.UTF_8));
        assertNotNull(e);
        return e;
    }

    private static String sendJson(Messages.Message m) {
        Effect e = new Effect(EffectType.SEND);
        e.message = m;
        return Codec.encodeEffects(List.of(e));
    }

    @Test
    void aBinaryAcceptReadsAsItsJson() {
        Event ev = accept("v\\\"");
        BinaryCodec.Output out = new BinaryCodec.Output();
        out.u8(BinaryCodec.EVENT_MESSAGE);
        BinaryCodec.writeMessage(out, BinaryCodec.MESSAGE_ACCEPT_REQUEST, ev.message);
        Event got = BinaryCodec.decodeEvent(out.bytes, out.length);
        assertNotNull(got);
        assertEquals(sendJson(ev.message), sendJson(got.message));
    }

    @Test
    void badBytesAreErrors() {
        int[][] bad = {
            {},
            {9},
            {1, 1},
            {1, 0x80, 0, 1, 0}, // not shortest form
            {1, 1, 1, 5, 'g'}, // truncated string
            {1, 1, 1, 0, 0}, // a byte left over
            {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0}, // >= 2^53
            {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0}, // longer than 8 bytes
            {2, 9, 1, 0, 1}, // unknown message type
            {2, 2, 1, 0, 1, 2, 1}, // boolean 2
            {2, 1, 1, 0, 1, 1, 1, 0, 0, 3, 3}, // state out of range
            {0, '{'},
        };
        for (int[] b : bad) {
            byte[] in = new byte[b.length];
            for (int i = 0; i < b.length; i++) in[i] = (byte) b[i];
            assertNull(BinaryCodec.decodeEvent(in, in.length), Arrays.toString(b));
        }
    }

    @Test
    void effectsKeepTheirOrderAndLengths() {
        Effect send = new Effect(EffectType.SEND);
        send.message = accept("x".repeat(200)).message;
        Effect reply = new Effect(EffectType.REPLY);
        reply.clientId = 7;
        reply.requestId = 1;
        reply.result = new Command.Result(Command.ResultType.RETRY, "", 0);
        Effect error = new Effect(EffectType.ERROR);
        BinaryCodec.Output out = new BinaryCodec.Output();
        BinaryCodec.encodeEffects(List.of(send, reply, error), out);
        byte[] bin = out.toArray();
        assertEquals(BinaryCodec.EFFECT_SEND, bin[0]);
        // a body over 127 bytes: a two-byte length, then the accept_request's type byte
        int body = (bin[1] & 0x7f) | (bin[2] << 7);
        assertEquals(BinaryCodec.MESSAGE_ACCEPT_REQUEST, bin[3]);
        int at = 3 + body;
        assertArrayEquals(new byte[] {1, 7, 1, 2, 0}, Arrays.copyOfRange(bin, at, at + 5));
        String json = Codec.encodeEffects(List.of(error));
        assertEquals(json.length() - 1, bin[at + 5]);
        assertEquals(json.substring(0, json.length() - 1),
                new String(bin, at + 6, bin.length - at - 6, StandardCharsets.US_ASCII));
    }

    /** The LEB128 of an unsigned 64-bit value, written from its definition (seven bits a byte,
     * low bits first) over BigInteger: what binary_codec.rs's push_uint and binary_codec.go's
     * appendUint write for a u64. */
    private static byte[] leb128(java.math.BigInteger v) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        java.math.BigInteger low7 = java.math.BigInteger.valueOf(0x7f);
        while (v.compareTo(low7) > 0) {
            b.write(v.and(low7).intValue() | 0x80);
            v = v.shiftRight(7);
        }
        b.write(v.intValue());
        return b.toByteArray();
    }

    /** The value the bytes stand for, read back as an unsigned 64-bit value. */
    private static java.math.BigInteger readLeb128(byte[] bytes, int length) {
        java.math.BigInteger v = java.math.BigInteger.ZERO;
        for (int i = length - 1; i >= 0; i--) v = v.shiftLeft(7).or(java.math.BigInteger.valueOf(bytes[i] & 0x7f));
        return v;
    }

    @Test
    void aValueAtOrAbove2To63IsWrittenAsTheOtherCoresWriteIt() {
        java.math.BigInteger twoTo64 = java.math.BigInteger.ONE.shiftLeft(64);
        for (long v : new long[] {Long.MIN_VALUE, -1L, 0x8000_0000_0000_0001L, Long.MAX_VALUE, 1L << 53, 0x7f, 0x80}) {
            java.math.BigInteger unsigned = java.math.BigInteger.valueOf(v);
            if (v < 0) unsigned = unsigned.add(twoTo64);
            BinaryCodec.Output out = new BinaryCodec.Output();
            out.uint(v);
            byte[] written = Arrays.copyOf(out.buffer(), out.length());
            assertArrayEquals(leb128(unsigned), written, "uint(" + Long.toUnsignedString(v) + ")");
            assertEquals(unsigned, readLeb128(written, written.length), "round trip of " + Long.toUnsignedString(v));
        }
    }
}
