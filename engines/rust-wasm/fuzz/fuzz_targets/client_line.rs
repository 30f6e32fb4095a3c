//! The client-line parser: any bytes a client may send. Checks that parsing never panics, that
//! an accepted line is exactly what its command writes back, and that a node answers a line
//! with `bad_command` exactly when the parser rejects it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replicant_core::command::{valid_key, valid_value};
use replicant_core::{parse_command, CommandType, Config, Effect, Event, Node, ResultType};

fuzz_target!(|line: &[u8]| {
    let parsed = parse_command(line);
    if let Some(cmd) = &parsed {
        assert!(valid_key(cmd.key.as_bytes()));
        assert!(valid_value(cmd.value.as_bytes()));
        let rebuilt = match cmd.typ {
            CommandType::Put => format!("put {} {}", cmd.key, cmd.value),
            t => format!("{} {}", t.name(), cmd.key),
        };
        assert_eq!(rebuilt.as_bytes(), line, "an accepted line must be exactly its command");
    }
    // A follower with no leader answers every line at once: bad_command or retry.
    let mut node = Node::new(Config::default());
    let effects = node.step(Event::Client { client_id: 1, request_id: 1, line: line.to_vec() });
    let [Effect::Reply { result, .. }] = effects else { panic!("one reply expected: {effects:?}") };
    assert_eq!(result.typ == ResultType::BadCommand, parsed.is_none());
});
