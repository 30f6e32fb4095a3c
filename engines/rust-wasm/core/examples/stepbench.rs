//! Native step throughput of the core alone: `cargo run --release --example stepbench`.
use replicant_core::{Config, Node};
use std::time::Instant;

fn main() {
    let mut n = Node::new(Config { id: 0, num_peers: 1, seed: 1, trace: false, ..Config::default() });
    n.step_json(br#"{"type":"timer","timer":"election"}"#);
    let v = "v".repeat(500);
    let events: Vec<Vec<u8>> = (0..1000)
        .map(|i| format!(r#"{{"type":"client","client_id":1,"request_id":{i},"line":"put key{i} {v}"}}"#).into_bytes())
        .collect();
    let t0 = Instant::now();
    let count: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(200_000);
    for i in 0..count {
        n.step_json(&events[i % 1000]);
    }
    let per = t0.elapsed().as_secs_f64() * 1e6 / count as f64;
    println!("single-node put step: {per:.3} us");
    // the pieces
    let t0 = Instant::now();
    for i in 0..count {
        std::hint::black_box(replicant_core::decode_event(&events[i % 1000]).unwrap());
    }
    println!("  decode_event: {:.3} us", t0.elapsed().as_secs_f64() * 1e6 / count as f64);
    let lines: Vec<Vec<u8>> = (0..1000).map(|i| format!("put key{i} {v}").into_bytes()).collect();
    let t0 = Instant::now();
    for i in 0..count {
        std::hint::black_box(replicant_core::parse_command(&lines[i % 1000]).unwrap());
    }
    println!("  parse_command: {:.3} us", t0.elapsed().as_secs_f64() * 1e6 / count as f64);
}
