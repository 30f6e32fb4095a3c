//! The write-ahead log reader (the server's own `wal.rs`, compiled in here) and the record
//! decoder and restart behind it: whatever a wal.log holds, the server gets records or a clear
//! error, never a panic. The first input byte picks the shape, as in the other engines' WAL
//! targets: even, the rest is the file as it is (torn tails, corrupt middles); odd, the rest is
//! records separated by newlines, each framed with a good checksum, so the mutations reach the
//! record decoder and the core's restart instead of dying at the checksum.
#![no_main]

#[allow(dead_code)]
#[path = "../../server/src/wal.rs"]
mod wal;

use libfuzzer_sys::fuzz_target;
use replicant_core::codec::{append_record, decode_record_json};
use replicant_core::{Config, Durability, Event, Node};

fn wal_file(input: &[u8]) -> Vec<u8> {
    match input.split_first() {
        None => Vec::new(),
        Some((mode, rest)) if mode % 2 == 0 => rest.to_vec(),
        Some((_, rest)) => {
            let mut out = Vec::new();
            for rec in rest.split(|&b| b == b'\n') {
                out.extend_from_slice(&(rec.len() as u32).to_le_bytes());
                out.extend_from_slice(&wal::crc32c(rec).to_le_bytes());
                out.extend_from_slice(rec);
            }
            out
        }
    }
}

fuzz_target!(|input: &[u8]| {
    let Ok((raw, _, _)) = wal::read_frames("wal.log", &wal_file(input)) else { return };
    let mut records = Vec::with_capacity(raw.len());
    // The codec leaves content rules to the protocol: a snapshot key with a control character
    // decodes, and the canonical writer (printable ASCII only) cannot say it. A restart with
    // such a record must be refused (fuzz/corpus/wal_records/snapshot_control_char_key; it
    // failed this target before).
    let mut unsayable = false;
    for r in &raw {
        let Ok(record) = decode_record_json(r) else { return };
        let mut once = Vec::new();
        append_record(&mut once, &record);
        match decode_record_json(&once) {
            Err(_) => unsayable = true,
            Ok(again) => {
                let mut twice = Vec::new();
                append_record(&mut twice, &again);
                assert_eq!(once, twice, "a record does not re-encode to itself");
            }
        }
        records.push(record);
    }
    let mut node = Node::new(Config { id: 0, durability: Durability::Log, ..Config::default() });
    let before = node.counters().bad_events;
    node.step(Event::Restart(records));
    assert!(!unsayable || node.counters().bad_events > before, "a restart with a record whose canonical form does not decode was accepted");
    node.inspect();
});
