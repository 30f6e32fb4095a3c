package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class CommandTest {
    @Test
    void parsesGoodLines() {
        assertEquals(Command.get("k"), Command.parse("get k"));
        assertEquals(Command.del("key-1"), Command.parse("del key-1"));
        assertEquals(Command.put("k", "v"), Command.parse("put k v"));
        assertEquals(Command.put("k", "a value with  spaces "), Command.parse("put k a value with  spaces "));
        assertEquals(Command.put("k", ""), Command.parse("put k "));
        assertEquals(Command.put("~!", "\"quoted\\\""), Command.parse("put ~! \"quoted\\\""));
        String key = "k".repeat(256);
        assertEquals(Command.get(key), Command.parse("get " + key));
        String value = "v".repeat(65536);
        assertEquals(Command.put("k", value), Command.parse("put k " + value));
    }

    @Test
    void rejectsBadLines() {
        String[] bad = {
            "", "get", "get ", "get  k", "get k ", "get k x", "GET k", "put k", "put  k v", "put k\tv", "del",
            "del k v", "list k", " get k", "get\tk", "get k\u007f", "get \u00e9", "put k caf\u00e9",
            "get " + "k".repeat(257), "put k " + "v".repeat(65537), "put " + "k".repeat(257) + " v",
            "put k v\n", "get k\r",
        };
        for (String line : bad) assertNull(Command.parse(line), line);
    }

    @Test
    void rendersReplyLines() {
        assertEquals("v", Command.replyLine(Command.Result.ok("v")));
        assertEquals("", Command.replyLine(Command.Result.OK_EMPTY));
        assertEquals("key not found", Command.replyLine(Command.Result.NOT_FOUND));
        assertEquals("retry", Command.replyLine(Command.Result.RETRY));
        assertEquals("leader is 2", Command.replyLine(Command.Result.leaderIs(2)));
        assertEquals("bad command", Command.replyLine(Command.Result.BAD_COMMAND));
    }
}
