package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import replicant.core.Messages.Event;
import replicant.core.Messages.TimerName;

/** The status line's core fields agree with inspect in every role, and stay small as the log grows. */
class StatusFieldsTest {
    private static Json.Value parse(String json) {
        Json.Value v = Json.parse(Json.toBytes(json));
        assertNotNull(v, json);
        return v;
    }

    /** A scalar as text (a number, a string, or null), so that null leaders compare too. */
    private static String scalar(Json.Value v) {
        if (v == null) return "absent";
        switch (v.kind) {
            case NULL: return "null";
            case STRING: return "\"" + v.string + "\"";
            default: return Long.toString(v.number);
        }
    }

    private static void assertAgreesWithInspect(Node n) {
        Json.Value whole = parse(n.inspect());
        Json.Value status = parse(n.statusFields());
        for (String key : new String[] {"role", "ballot", "leader", "last_index", "last_executed", "global_last_executed", "replay_remaining"})
            assertEquals(scalar(whole.field(key)), scalar(status.field(key)), key);
        assertEquals(scalar(whole.field("counters").field("elections")), scalar(status.field("elections")), "elections");
    }

    @Test
    void agreesWithInspectAsFollowerCandidateAndLeader() {
        NodeTest.Net net = new NodeTest.Net(3, false);
        for (Node n : net.nodes) assertAgreesWithInspect(n); // no leader yet
        net.step(1, Event.timer(TimerName.ELECTION));
        assertAgreesWithInspect(net.nodes[1]); // a candidate, its prepare not yet delivered
        net.deliverAll();
        for (int i = 1; i <= 40; i++) net.step(1, Event.client(7, i, "put k" + i + " v" + i));
        for (Node n : net.nodes) assertAgreesWithInspect(n); // accepts in flight
        net.deliverAll();
        net.step(1, Event.timer(TimerName.COMMIT));
        net.deliverAll();
        for (Node n : net.nodes) assertAgreesWithInspect(n);
    }

    @Test
    void staysTheSameSizeWhileInspectGrowsWithTheLog() {
        NodeTest.Net net = new NodeTest.Net(3, false);
        net.step(0, Event.timer(TimerName.ELECTION));
        net.deliverAll();
        String statusBefore = net.nodes[0].statusFields();
        // entries no follower has answered: the leader holds all of them
        for (int i = 1; i <= 2_000; i++) net.step(0, Event.client(7, i, "put key" + (i % 64) + " value" + i));
        String status = net.nodes[0].statusFields();
        String inspect = net.nodes[0].inspect();
        assertTrue(status.length() <= statusBefore.length() + 8, status);
        assertTrue(inspect.length() > 100 * status.length(), "inspect " + inspect.length() + " chars, status fields " + status.length());
        assertAgreesWithInspect(net.nodes[0]);
    }
}
