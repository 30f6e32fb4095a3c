package replicant.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Digests come from the Go reference core. */
class KvStoreTest {
    @Test
    void digestMatchesTheGoReference() {
        KvStore kv = new KvStore();
        assertEquals("0000000000000000", Json.hex16(kv.digest()));
        kv.apply(Command.put("a", "1"));
        assertEquals("e5d2e8190426ecef", Json.hex16(kv.digest()));
        kv.apply(Command.put("b", "2"));
        assertEquals("e5a25e3217060726", Json.hex16(kv.digest()));
        kv.apply(Command.put("a", "hello world"));
        assertEquals("6c7628279dfe94ff", Json.hex16(kv.digest()));
        kv.apply(Command.del("b"));
        assertEquals("6ca6b20e8b1f7ac8", Json.hex16(kv.digest()));
        KvStore empty = new KvStore();
        empty.apply(Command.put("k", ""));
        assertEquals("08bdde07b561d17e", Json.hex16(empty.digest()));
    }

    @Test
    void digestIsOrderIndependentAndReturnsToZero() {
        KvStore x = new KvStore();
        KvStore y = new KvStore();
        for (int i = 0; i < 100; i++) x.apply(Command.put("k" + i, "v" + i));
        for (int i = 99; i >= 0; i--) y.apply(Command.put("k" + i, "v" + i));
        assertEquals(x.digest(), y.digest());
        for (int i = 0; i < 100; i++) x.apply(Command.del("k" + i));
        assertEquals(0, x.digest());
        assertEquals(0, x.size());
    }

    @Test
    void resultsFollowTheSpec() {
        KvStore kv = new KvStore();
        assertEquals(Command.ResultType.NOT_FOUND, kv.apply(Command.get("a")).type);
        assertEquals(Command.ResultType.NOT_FOUND, kv.apply(Command.del("a")).type);
        assertEquals(Command.ResultType.OK, kv.apply(Command.put("a", "x")).type);
        Command.Result r = kv.apply(Command.get("a"));
        assertEquals(Command.ResultType.OK, r.type);
        assertEquals("x", r.value);
        Command.Result d = kv.apply(Command.del("a"));
        assertEquals(Command.ResultType.OK, d.type);
        assertEquals("", d.value);
    }

    @Test
    void firstEntriesAreSortedByKeyBytesAndLimited() {
        KvStore kv = new KvStore();
        for (String k : new String[] {"b", "a", "B", "~", "!", "aa"}) kv.apply(Command.put(k, k + "!"));
        List<String[]> e = kv.firstEntries(4);
        assertEquals(4, e.size());
        assertArrayEquals(new String[] {"!", "!!"}, e.get(0));
        assertArrayEquals(new String[] {"B", "B!"}, e.get(1));
        assertArrayEquals(new String[] {"a", "a!"}, e.get(2));
        assertArrayEquals(new String[] {"aa", "aa!"}, e.get(3));
    }
}
