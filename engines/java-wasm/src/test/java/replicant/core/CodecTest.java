package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import replicant.core.Messages.Event;
import replicant.core.Messages.EventType;
import replicant.core.Messages.Message;

class CodecTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final String[] CANONICAL_MESSAGES = {
        "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3,\"ballot\":257}",
        "{\"type\":\"prepare_response\",\"from\":0,\"to\":1,\"channel_id\":3,\"ok\":true,\"ballot\":257,\"instances\":[]}",
        "{\"type\":\"prepare_response\",\"from\":0,\"to\":1,\"channel_id\":3,\"ok\":false,\"ballot\":513,\"instances\":["
                + "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"executed\","
                + "\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"a \\\"b\\\\\"}},"
                + "{\"ballot\":257,\"index\":2,\"client_id\":7,\"request_id\":2,\"state\":\"committed\","
                + "\"command\":{\"type\":\"del\",\"key\":\"k\"}}]}",
        "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":{\"ballot\":257,\"index\":1,"
                + "\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\",\"command\":{\"type\":\"get\",\"key\":\"k\"}}}",
        "{\"type\":\"accept_response\",\"from\":0,\"to\":1,\"channel_id\":4,\"ok\":true,\"ballot\":257}",
        "{\"type\":\"commit_request\",\"from\":1,\"to\":0,\"channel_id\":5,\"ballot\":257,\"last_executed\":4,"
                + "\"global_last_executed\":2}",
        "{\"type\":\"commit_response\",\"from\":0,\"to\":1,\"channel_id\":5,\"ok\":true,\"ballot\":257,\"last_executed\":4}",
    };

    @Test
    void messagesRoundTripByteForByte() {
        for (String s : CANONICAL_MESSAGES) {
            Message m = Codec.decodeMessage(b(s));
            assertNotNull(m, s);
            assertEquals(s, Codec.encodeMessage(m));
        }
    }

    @Test
    void fieldOrderAndWhitespaceDoNotMatterWhenReading() {
        Message m = Codec.decodeMessage(b(" { \"ballot\" : 257 , \"channel_id\":3,\"to\":0,\"from\":1,"
                + "\"type\":\"prepare_request\" } "));
        assertEquals(CANONICAL_MESSAGES[0], Codec.encodeMessage(m));
    }

    @Test
    void rejectsMissingUnknownAndMistypedFields() {
        assertNull(Codec.decodeMessage(b("{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3}")));
        assertNull(Codec.decodeMessage(b("{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3,"
                + "\"ballot\":257,\"extra\":1}")));
        assertNull(Codec.decodeMessage(b("{\"type\":\"prepare_request\",\"from\":\"1\",\"to\":0,\"channel_id\":3,"
                + "\"ballot\":257}")));
        assertNull(Codec.decodeMessage(b("{\"type\":\"accept_response\",\"from\":0,\"to\":1,\"channel_id\":4,"
                + "\"ok\":1,\"ballot\":257}")));
        assertNull(Codec.decodeMessage(b("{\"type\":\"nope\",\"from\":0}")));
        assertNull(Codec.decodeMessage(b("{\"from\":0}")));
        assertNull(Codec.decodeMessage(b("{\"type\":1}")));
        assertNull(Codec.decodeMessage(b("[]")));
        // An instance's command is checked: bad key, a get with a value, an unknown state.
        String acceptPrefix = "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
                + "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,";
        assertNotNull(Codec.decodeMessage(b(acceptPrefix + "\"state\":\"in_progress\",\"command\":"
                + "{\"type\":\"get\",\"key\":\"k\"}}}")));
        assertNull(Codec.decodeMessage(b(acceptPrefix + "\"state\":\"in_progress\",\"command\":"
                + "{\"type\":\"get\",\"key\":\"a b\"}}}")));
        assertNull(Codec.decodeMessage(b(acceptPrefix + "\"state\":\"in_progress\",\"command\":"
                + "{\"type\":\"get\",\"key\":\"k\",\"value\":\"v\"}}}")));
        assertNull(Codec.decodeMessage(b(acceptPrefix + "\"state\":\"done\",\"command\":"
                + "{\"type\":\"get\",\"key\":\"k\"}}}")));
        assertNull(Codec.decodeMessage(b(acceptPrefix + "\"state\":\"in_progress\",\"command\":"
                + "{\"type\":\"put\",\"key\":\"k\",\"value\":\"\\u00e9\"}}}")));
        assertNull(Codec.decodeMessage(b(acceptPrefix + "\"state\":\"in_progress\",\"command\":"
                + "{\"type\":\"put\",\"key\":\"k\",\"value\":\"tab\\there\"}}}")));
    }

    @Test
    void decodesEvents() {
        assertEquals(EventType.START, Codec.decodeEvent(b("{\"type\":\"start\"}")).type);
        assertEquals(Messages.TimerName.COMMIT, Codec.decodeEvent(b("{\"type\":\"timer\",\"timer\":\"commit\"}")).timer);
        Event c = Codec.decodeEvent(b("{\"type\":\"client\",\"client_id\":7,\"request_id\":1,\"line\":\"put k v\"}"));
        assertEquals(7, c.clientId);
        assertEquals("put k v", c.line);
        // A client line is any string: the protocol, not the decoder, judges it.
        assertNotNull(Codec.decodeEvent(b("{\"type\":\"client\",\"client_id\":7,\"request_id\":1,\"line\":\"\\u0000\"}")));
        Event m = Codec.decodeEvent(b("{\"type\":\"message\",\"msg\":" + CANONICAL_MESSAGES[4] + "}"));
        assertEquals(Messages.MessageType.ACCEPT_RESPONSE, m.message.type);
        assertNull(Codec.decodeEvent(b("{\"type\":\"start\",\"x\":1}")));
        assertNull(Codec.decodeEvent(b("{\"type\":\"timer\",\"timer\":\"other\"}")));
        assertNull(Codec.decodeEvent(b("{\"type\":\"client\",\"client_id\":7,\"request_id\":1,\"line\":5}")));
        assertNull(Codec.decodeEvent(b("{\"type\":\"message\",\"msg\":{}}")));
        assertNull(Codec.decodeEvent(b("{\"type\":\"start\"} ,")));
    }

    @Test
    void writesEffectsAsJsonLines() {
        assertEquals("", Codec.encodeEffects(List.of()));
        Messages.Effect e = new Messages.Effect(Messages.EffectType.REPLY);
        e.clientId = 7;
        e.requestId = 1;
        e.result = Command.Result.leaderIs(2);
        assertEquals("{\"type\":\"reply\",\"client_id\":7,\"request_id\":1,\"result\":\"leader_is\",\"leader\":2}\n",
                Codec.encodeEffects(List.of(e)));
    }

    @Test
    void decodesConfigsWithDefaultsAndClearErrors() throws Exception {
        Config c = Codec.decodeConfig(b("{\"id\":1,\"num_peers\":3,\"seed\":2}"));
        assertEquals(150_000, c.commitIntervalUs);
        assertEquals(3, c.acceptTimeoutTicks);
        assertEquals(4096, c.maxPendingAccepts);
        assertEquals(true, c.trace);
        c = Codec.decodeConfig(b("{\"trace\":false,\"seed\":0,\"num_peers\":1,\"id\":0,\"commit_interval_us\":1000,"
                + "\"accept_timeout_ticks\":1000,\"max_pending_accepts\":1}"));
        assertEquals(false, c.trace);
        String[][] bad = {
            {"nope", "config: not valid JSON"},
            {"[]", "config: not a JSON object"},
            {"{\"id\":0,\"num_peers\":3}", "config: id, num_peers and seed are required"},
            {"{\"id\":0,\"num_peers\":3,\"seed\":1,\"colour\":1}", "config: unknown field \"colour\""},
            {"{\"id\":0,\"num_peers\":3,\"seed\":1,\"trace\":1}", "config: trace must be true or false"},
            {"{\"id\":-1,\"num_peers\":3,\"seed\":1}", "config: not valid JSON"},
            {"{\"id\":\"0\",\"num_peers\":3,\"seed\":1}", "config: id must be a non-negative integer below 2^53"},
            {"{\"id\":3,\"num_peers\":3,\"seed\":1}", "config: id must be below num_peers"},
            {"{\"id\":0,\"num_peers\":16,\"seed\":1}", "config: num_peers must be between 1 and 15"},
            {"{\"id\":0,\"num_peers\":0,\"seed\":1}", "config: num_peers must be between 1 and 15"},
            {"{\"id\":0,\"num_peers\":3,\"seed\":1,\"commit_interval_us\":999}",
                "config: commit_interval_us must be between 1000 and 60000000"},
            {"{\"id\":0,\"num_peers\":3,\"seed\":1,\"accept_timeout_ticks\":0}",
                "config: accept_timeout_ticks must be between 1 and 1000"},
            {"{\"id\":0,\"num_peers\":3,\"seed\":1,\"max_pending_accepts\":1000001}",
                "config: max_pending_accepts must be between 1 and 1000000"},
        };
        for (String[] t : bad) {
            Config.ConfigException e = assertThrows(Config.ConfigException.class, () -> Codec.decodeConfig(b(t[0])));
            assertEquals(t[1], e.getMessage(), t[0]);
        }
    }
}
