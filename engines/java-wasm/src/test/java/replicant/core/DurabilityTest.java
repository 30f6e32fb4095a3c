package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Persist effects, held replies and restarts (docs/protocol.md, "Durability"). */
class DurabilityTest {
    static {
        Node.checkInvariants = true;
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static Node durableNode() throws Config.ConfigException {
        return new Node(Codec.decodeConfig(b("{\"id\":0,\"num_peers\":1,\"seed\":1,\"durability\":\"log\"}")));
    }

    @Test
    void aReplyWaitsForItsPersist() throws Exception {
        Node n = durableNode();
        n.stepJson(b("{\"type\":\"start\"}"));
        n.stepJson(b("{\"type\":\"timer\",\"timer\":\"election\"}"));
        String out = n.stepJson(b("{\"type\":\"client\",\"client_id\":1,\"request_id\":1,\"line\":\"put k v\"}"));
        assertFalse(out.contains("\"reply\""), out);
        assertTrue(out.contains("\"persist_id\":2"), out);
        assertEquals("", n.stepJson(b("{\"type\":\"persisted\",\"persist_id\":1}")));
        assertTrue(n.stepJson(b("{\"type\":\"persisted\",\"persist_id\":2}")).contains("\"reply\""));
    }

    @Test
    void aRestartKeepsThePromiseAndTheExecutedPrefix() throws Exception {
        Node n = durableNode();
        String out = n.stepJson(b("{\"type\":\"restart\",\"records\":[{\"kind\":\"promise\",\"ballot\":512},"
                + "{\"kind\":\"instance\",\"instance\":{\"ballot\":512,\"index\":1,\"client_id\":1,\"request_id\":1,"
                + "\"state\":\"committed\",\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"v\"}}}]}"));
        assertTrue(out.contains("\"kind\":\"recovered\",\"ballot\":527"), out);
        assertEquals(1, n.log.lastExecuted());
        assertEquals(1, n.kv.size());
        assertTrue(n.stepJson(b("{\"type\":\"restart\",\"records\":[]}")).contains("bad_event"));
    }

    @Test
    void anUnknownDurabilityIsRefused() {
        assertThrows(Config.ConfigException.class,
                () -> Codec.decodeConfig(b("{\"id\":0,\"num_peers\":1,\"seed\":1,\"durability\":\"disk\"}")));
    }
}
