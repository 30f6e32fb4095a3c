package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import replicant.core.Messages.Effect;
import replicant.core.Messages.EffectType;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;
import replicant.core.Messages.TimerName;

/** Whole-node behaviour through step(); byte-level agreement is the conformance suite's job. */
class NodeTest {
    static {
        Node.checkInvariants = true; // test builds check the core's invariants after every step
    }
    /** A tiny FIFO network: every send is delivered in order; replies are collected. */
    static final class Net {
        final Node[] nodes;
        final ArrayDeque<Message> wire = new ArrayDeque<>();
        final List<Effect> replies = new ArrayList<>();

        Net(int n, boolean trace) {
            nodes = new Node[n];
            for (int i = 0; i < n; i++) {
                Config c = Config.defaults();
                c.id = i;
                c.numPeers = n;
                c.seed = 1 + i;
                c.trace = trace;
                nodes[i] = new Node(c);
                collect(nodes[i].step(Event.start()));
            }
        }

        void collect(List<Effect> effects) {
            for (Effect e : effects) {
                if (e.type == EffectType.SEND) wire.add(e.message);
                if (e.type == EffectType.REPLY) replies.add(e);
            }
        }

        void step(int id, Event ev) {
            collect(nodes[id].step(ev));
        }

        void deliverAll() {
            while (!wire.isEmpty()) {
                Message m = wire.poll();
                collect(nodes[(int) m.to].step(Event.message(m)));
            }
        }
    }

    @Test
    void aSingleNodeLeadsAndExecutesAlone() {
        Net net = new Net(1, true);
        net.step(0, Event.timer(TimerName.ELECTION));
        assertTrue(net.nodes[0].isLeader());
        net.step(0, Event.client(7, 1, "put k v"));
        net.step(0, Event.client(7, 2, "get k"));
        assertEquals(2, net.replies.size());
        assertEquals(Command.ResultType.OK, net.replies.get(1).result.type);
        assertEquals("v", net.replies.get(1).result.value);
        assertTrue(net.wire.isEmpty());
    }

    @Test
    void threeNodesElectReplicateExecuteAndTrim() {
        Net net = new Net(3, false);
        net.step(1, Event.timer(TimerName.ELECTION));
        net.deliverAll();
        assertTrue(net.nodes[1].isLeader());
        net.step(0, Event.client(9, 1, "put a 1"));
        assertEquals(Command.ResultType.LEADER_IS, net.replies.get(0).result.type);
        assertEquals(1, net.replies.get(0).result.leader);
        for (int i = 1; i <= 5; i++) net.step(1, Event.client(7, i, "put k" + i + " v" + i));
        net.deliverAll();
        assertEquals(6, net.replies.size());
        // Two heartbeats: the first commits on followers and learns gle, the second trims.
        for (int round = 0; round < 3; round++) {
            net.step(1, Event.timer(TimerName.COMMIT));
            net.deliverAll();
        }
        for (Node n : net.nodes) {
            assertEquals(5, n.log.lastExecuted());
            assertEquals(5, n.log.globalLastExecuted());
            assertEquals(0, n.log.size());
            assertEquals(net.nodes[1].kv.digest(), n.kv.digest());
        }
        assertTrue(net.nodes[0].inspect().contains("\"role\":\"follower\""));
    }

    @Test
    void aPeersRejectRaisesTheCandidatesNextBallot() {
        Net net = new Net(3, true);
        net.step(0, Event.timer(TimerName.ELECTION));
        net.wire.clear(); // lost
        net.step(0, Event.timer(TimerName.ELECTION)); // retry: above last_prepare_ballot
        assertEquals(0x200, net.nodes[0].prepare.ballot);
    }

    @Test
    void badEventsAreCountedAndChangeNothingElse() {
        Config c = Config.defaults();
        Node n = new Node(c);
        String before = n.inspect();
        String[] bad = {
            "", "{}", "{\"type\":\"start\",\"extra\":true}", "not json",
            // to != id
            "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":1,\"to\":2,\"channel_id\":1,\"ballot\":257}}",
            // from == id
            "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":0,\"to\":0,\"channel_id\":1,\"ballot\":256}}",
            // from >= num_peers
            "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":3,\"to\":0,\"channel_id\":1,\"ballot\":259}}",
            // a request's ballot must be the sender's own
            "{\"type\":\"message\",\"msg\":{\"type\":\"commit_request\",\"from\":1,\"to\":0,\"channel_id\":1,\"ballot\":258,"
                    + "\"last_executed\":0,\"global_last_executed\":0}}",
            // accept_request: index 0, and a state other than in_progress
            "{\"type\":\"message\",\"msg\":{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":1,\"instance\":"
                    + "{\"ballot\":257,\"index\":0,\"client_id\":1,\"request_id\":1,\"state\":\"in_progress\","
                    + "\"command\":{\"type\":\"get\",\"key\":\"k\"}}}}",
            "{\"type\":\"message\",\"msg\":{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":1,\"instance\":"
                    + "{\"ballot\":257,\"index\":1,\"client_id\":1,\"request_id\":1,\"state\":\"committed\","
                    + "\"command\":{\"type\":\"get\",\"key\":\"k\"}}}}",
            // a response's ballot with an id that is no peer
            "{\"type\":\"message\",\"msg\":{\"type\":\"accept_response\",\"from\":1,\"to\":0,\"channel_id\":1,\"ok\":true,"
                    + "\"ballot\":260}}",
            // a prepare_response instance with the no-leader ballot
            "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_response\",\"from\":1,\"to\":0,\"channel_id\":1,\"ok\":true,"
                    + "\"ballot\":257,\"instances\":[{\"ballot\":15,\"index\":1,\"client_id\":1,\"request_id\":1,"
                    + "\"state\":\"in_progress\",\"command\":{\"type\":\"get\",\"key\":\"k\"}}]}}",
        };
        for (String s : bad) {
            assertEquals("{\"type\":\"error\",\"error\":\"bad_event\"}\n", n.stepJson(s.getBytes(StandardCharsets.UTF_8)), s);
        }
        String after = n.inspect();
        assertTrue(after.contains("\"bad_events\":" + bad.length));
        assertTrue(after.contains("\"events\":" + bad.length));
        assertEquals(before.replace("\"events\":0", "\"events\":" + bad.length)
                .replace("\"bad_events\":0", "\"bad_events\":" + bad.length), after);
    }

    @Test
    void aResponseWithTheNoLeaderBallotIsAccepted() {
        Node n = new Node(Config.defaults());
        String ev = "{\"type\":\"message\",\"msg\":{\"type\":\"accept_response\",\"from\":1,\"to\":0,\"channel_id\":1,"
                + "\"ok\":false,\"ballot\":15}}";
        assertEquals("", n.stepJson(ev.getBytes(StandardCharsets.UTF_8)));
        assertTrue(n.inspect().contains("\"stale_responses\":1"));
    }

    @Test
    void theFirstTimerMatchesTheGoReference() {
        Config c = Config.defaults();
        c.seed = 1;
        assertEquals("{\"type\":\"set_timer\",\"timer\":\"election\",\"delay_us\":269038}\n",
                new Node(c).stepJson("{\"type\":\"start\"}".getBytes(StandardCharsets.UTF_8)));
    }
}
