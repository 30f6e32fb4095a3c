//! What a status line costs the core against the whole inspect view, at a large store:
//! `cargo run --release --example statusbench -p replicant-core [KEYS]` (100,000 by default).
//! The two are timed in interleaved rounds in one run; compare the ratio, not the microseconds.
use replicant_core::{Config, Event, Node, TimerName};
use std::hint::black_box;
use std::time::Instant;

fn per_call_us(calls: usize, f: impl Fn() -> Vec<u8>) -> f64 {
    let t0 = Instant::now();
    for _ in 0..calls {
        black_box(f());
    }
    t0.elapsed().as_secs_f64() * 1e6 / calls as f64
}

fn main() {
    let keys: u64 = std::env::args().nth(1).map(|s| s.parse().expect("KEYS is a number")).unwrap_or(100_000);
    let mut n = Node::new(Config { id: 0, num_peers: 1, seed: 1, trace: false, ..Config::default() });
    n.step(Event::Timer(TimerName::Election));
    for i in 1..=keys {
        n.step(Event::Client { client_id: 1, request_id: i, line: format!("put key{i} value{i}").into_bytes() });
        if i % 1000 == 0 {
            n.step(Event::Timer(TimerName::Commit)); // lets the log trim, as a running server's would
        }
    }
    let (inspect, status) = (n.inspect(), n.status_fields());
    println!("{keys} keys: inspect {} bytes, status_fields {} bytes", inspect.len(), status.len());
    for round in 1..=5 {
        let whole = per_call_us(20, || n.inspect());
        let fields = per_call_us(20_000, || n.status_fields());
        println!("round {round}: inspect {whole:.1} us, status_fields {fields:.3} us, ratio {:.0}", whole / fields);
    }
}
