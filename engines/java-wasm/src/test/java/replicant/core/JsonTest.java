package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class JsonTest {
    private static Json.Value parse(String s) {
        return Json.parse(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void accepts(String s) {
        assertNotNull(parse(s), () -> "should accept: " + s);
    }

    private static void rejects(String s) {
        assertNull(parse(s), () -> "should reject: " + s);
    }

    @Test
    void acceptsPlainJson() {
        accepts("{}");
        accepts("[]");
        accepts("0");
        accepts("true");
        accepts("false");
        accepts("null");
        accepts("\"\"");
        accepts(" \t\r\n{ \"a\" : [ 1 , 2 , { } ] , \"b\" : null }\n ");
        accepts("9007199254740991"); // 2^53 - 1
        accepts("[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]"); // depth 16
        accepts("\"raw bytes \u00e9 \u007f pass the reader\"");
    }

    @Test
    void readsValues() {
        Json.Value v = parse("{\"n\":9007199254740991,\"s\":\"a\\\"b\",\"t\":true,\"x\":[1,\"2\"]}");
        assertEquals(Json.Kind.OBJECT, v.kind);
        assertEquals(9007199254740991L, v.field("n").number);
        assertEquals("a\"b", v.field("s").string);
        assertEquals(true, v.field("t").bool);
        assertEquals(2, v.field("x").items.size());
        assertNull(v.field("missing"));
    }

    @Test
    void decodesEveryEscape() {
        assertEquals("\"\\/\b\f\n\r\tA~", parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u007E\"").string);
        // Code points at or above 0x80 become a two-byte non-ASCII marker, as in the Go reader.
        assertEquals("\u00c3\u00a9", parse("\"\\u00e9\"").string);
        assertEquals("\u00df\u00bf", parse("\"\\uffff\"").string); // (0xc0 | 0x1f, 0x80 | 0x3f): a marker, not UTF-8
        // A raw UTF-8 character stays as its bytes, one char each.
        assertEquals("\u00c3\u00a9", parse("\"\u00e9\"").string);
    }

    @Test
    void rejectsDuplicateKeysEvenWhenEscaped() {
        rejects("{\"a\":1,\"a\":2}");
        rejects("{\"a\":1,\"\\u0061\":2}");
        rejects("{\"x\":{\"a\":1,\"b\":2,\"a\":3}}");
    }

    @Test
    void rejectsNumbersOutsideOurSchemas() {
        rejects("1.0");
        rejects("1.");
        rejects("1e3");
        rejects("1E3");
        rejects("-1");
        rejects("+1");
        rejects("01");
        rejects("00");
        rejects("9007199254740992"); // 2^53
        rejects("18446744073709551616");
        rejects("12345678901234567"); // 17 digits
        rejects("0x10");
        rejects("Infinity");
        rejects("NaN");
    }

    @Test
    void rejectsNestingDeeperThan16() {
        rejects("[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]");
        rejects("{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":"
                + "{\"a\":{\"a\":{}}}}}}}}}}}}}}}}}}}");
    }

    @Test
    void rejectsBadEscapesAndControlCharacters() {
        rejects("\"\\x\"");
        rejects("\"\\'\"");
        rejects("\"\\u12\"");
        rejects("\"\\u12G4\"");
        rejects("\"\\U0041\"");
        rejects("\"\\");
        rejects("\"a\tb\"");
        rejects("\"a\nb\"");
        rejects("\"\u0000\"");
        rejects("\"\u001f\"");
    }

    @Test
    void rejectsTrailingGarbageAndBrokenStructure() {
        rejects("");
        rejects("   ");
        rejects("{} x");
        rejects("{}{}");
        rejects("1 2");
        rejects("[1,]");
        rejects("[,1]");
        rejects("{\"a\":1,}");
        rejects("{\"a\" 1}");
        rejects("{a:1}");
        rejects("{'a':1}");
        rejects("[1");
        rejects("{\"a\":1");
        rejects("\"open");
        rejects("tru");
        rejects("nul");
        rejects("True");
        rejects("\f{}"); // form feed is not JSON whitespace
        rejects("{}\u0000");
    }

    @Test
    void writesCanonicalForms() {
        StringBuilder b = new StringBuilder();
        Json.appendString(b, "a\"b\\c");
        assertEquals("\"a\\\"b\\\\c\"", b.toString());
        assertEquals("18446744073709551615", Json.formatUint(-1L));
        assertEquals("9223372036854775808", Json.formatUint(Long.MIN_VALUE));
        assertEquals("10000000000000000000", Json.formatUint(Long.parseUnsignedLong("10000000000000000000")));
        assertEquals("0", Json.formatUint(0));
        assertEquals("ffffffffffffffff", Json.hex16(-1L));
        assertEquals("000000000000000a", Json.hex16(10));
    }
}
