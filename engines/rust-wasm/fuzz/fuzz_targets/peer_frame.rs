//! The peer-frame decoder (and the strict JSON reader under it): any line a peer may send.
//! Checks that decoding never panics, that a decoded message re-encodes canonically and decodes
//! back to itself, and that a node stepped with the frame (as a message event) never panics
//! and answers a frame it cannot decode with exactly one `bad_event`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replicant_core::{append_message, decode_message, Config, Event, Node};

fuzz_target!(|frame: &[u8]| {
    let decoded = decode_message(frame);
    if let Ok(m) = &decoded {
        let mut canonical = Vec::new();
        append_message(&mut canonical, m);
        let Ok(again) = decode_message(&canonical) else {
            // The codec leaves content rules to the protocol (a snapshot key with a control
            // character decodes, and its canonical form cannot say it): such a message must be
            // one its receiver refuses as a bad event (found by this target; the input is
            // fuzz/corpus/peer_frame/snapshot_control_char_key).
            if m.to < 3 {
                let mut node = Node::new(Config { id: m.to, ..Config::default() });
                let before = node.counters().bad_events;
                node.step(Event::Message(m.clone()));
                assert!(node.counters().bad_events > before, "a message that does not re-encode was accepted: {m:?}");
            }
            return;
        };
        assert_eq!(&again, m);
        let mut twice = Vec::new();
        append_message(&mut twice, &again);
        assert_eq!(canonical, twice);
        // Deliver it to every possible receiver of a 3-node cluster.
        for id in 0..3 {
            let mut node = Node::new(Config { id, ..Config::default() });
            node.step(Event::Message(m.clone()));
            node.inspect();
        }
    }
    // The same bytes as the body of a message event.
    let mut event = b"{\"type\":\"message\",\"msg\":".to_vec();
    event.extend_from_slice(frame);
    event.push(b'}');
    let mut node = Node::new(Config::default());
    let out = node.step_json(&event).to_vec();
    if decoded.is_err() {
        assert_eq!(out, b"{\"type\":\"error\",\"error\":\"bad_event\"}\n");
    }
});
