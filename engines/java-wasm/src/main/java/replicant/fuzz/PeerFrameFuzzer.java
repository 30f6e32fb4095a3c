package replicant.fuzz;

import replicant.core.Codec;
import replicant.core.Config;
import replicant.core.Json;
import replicant.core.Messages.Event;
import replicant.core.Messages.Message;
import replicant.core.Node;

/**
 * Jazzer target for the peer-frame decoder (engines/java-wasm/fuzz.sh): one line as a server
 * reads it from a peer. Checked: the JSON reader and the decoder never throw (deep nesting
 * included); an accepted frame re-encodes to a canonical form that decodes to the same bytes
 * again, or is one its receiver refuses as a bad event; and a node stepping the frame (as a message event, and as a raw event) never throws.
 */
public final class PeerFrameFuzzer {
    private PeerFrameFuzzer() {}

    private static Node[] nodes;
    private static long inputs;

    public static void fuzzerInitialize() {
        nodes = new Node[3];
        for (int i = 0; i < 3; i++) {
            Config c = Config.defaults();
            c.id = i;
            c.numPeers = 3;
            c.seed = i;
            nodes[i] = new Node(c);
            nodes[i].step(Event.start());
        }
    }

    private static long badEvents(Node node) {
        return Json.parse(Json.toBytes(node.inspect())).field("counters").field("bad_events").number;
    }

    public static void fuzzerTestOneInput(byte[] data) {
        if (nodes == null) fuzzerInitialize();
        Json.parse(data);
        Message m = Codec.decodeMessage(data);
        if (m != null) {
            String canonical = Codec.encodeMessage(m);
            Message again = Codec.decodeMessage(Json.toBytes(canonical));
            if (again == null) {
                // The codec leaves content rules to the protocol: a snapshot key with a control
                // character decodes, and the canonical writer (printable ASCII only) cannot say
                // it. Such a message must be one its receiver refuses as a bad event
                // (fuzz/corpus/peer-frame/snapshot_control_char_key, found by the Rust target;
                // it failed this target before).
                if (m.to < 3) {
                    Config c = Config.defaults();
                    c.id = m.to;
                    c.numPeers = 3;
                    Node fresh = new Node(c);
                    long before = badEvents(fresh);
                    fresh.step(Event.message(m));
                    ClientLineFuzzer.check(badEvents(fresh) > before,
                            "canonical form does not decode, and the receiver accepted the message", canonical);
                }
            } else {
                ClientLineFuzzer.check(canonical.equals(Codec.encodeMessage(again)), "canonical form is not stable",
                        canonical);
                if (m.to < 3) nodes[(int) m.to].step(Event.message(m));
            }
        }
        nodes[(int) (data.length % 3)].stepJson(data);
        if (++inputs % 1024 == 0) fuzzerInitialize(); // fresh nodes: state must not pile up
    }
}
