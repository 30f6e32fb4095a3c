//! replicant-host drives Rust cores over stdin/stdout for the conformance harness, speaking the
//! host protocol of engines/conformance/README.md: each request is a line
//! "<op> <handle> <length>" followed by <length> bytes; each response is "ok <length>" or
//! "err <length>" followed by that many bytes.

use replicant_core::{decode_config, Node};
use replicant_runtimestats::{stats_json, CountingAlloc};
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::exit;

#[global_allocator]
static ALLOC: CountingAlloc<std::alloc::System> = CountingAlloc::new(std::alloc::System);

const MAX_PAYLOAD_BYTES: usize = 256 << 20;

fn fail(msg: &str) -> ! {
    eprintln!("replicant-host: {msg}");
    exit(2);
}

fn respond(out: &mut impl Write, status: &str, payload: &[u8]) {
    let r = write!(out, "{status} {}\n", payload.len()).and_then(|_| out.write_all(payload)).and_then(|_| out.flush());
    if let Err(e) = r {
        fail(&format!("writing response: {e}"));
    }
}

fn main() {
    // The host serves only the test harnesses, so every step checks the core's invariants.
    replicant_core::CHECK_INVARIANTS.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut input = BufReader::with_capacity(1 << 20, io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut nodes: HashMap<u64, Node> = HashMap::new();
    let mut next_handle: u64 = 1;
    let mut header = Vec::new();
    let mut payload = Vec::new();
    loop {
        header.clear();
        match input.read_until(b'\n', &mut header) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => fail(&format!("reading request: {e}")),
        }
        let text = String::from_utf8_lossy(&header);
        let parts: Vec<&str> = text.split_whitespace().collect();
        if parts.len() != 3 {
            fail(&format!("malformed request header {text:?}"));
        }
        let (Ok(handle), Ok(length)) = (parts[1].parse::<u64>(), parts[2].parse::<usize>()) else {
            fail(&format!("malformed request header {text:?}"));
        };
        if length > MAX_PAYLOAD_BYTES {
            fail(&format!("malformed request header {text:?}"));
        }
        payload.resize(length, 0);
        if let Err(e) = input.read_exact(&mut payload) {
            fail(&format!("reading payload: {e}"));
        }
        let op = parts[0];
        if op == "create" {
            match decode_config(&payload) {
                Ok(cfg) => {
                    nodes.insert(next_handle, Node::new(cfg));
                    respond(&mut out, "ok", next_handle.to_string().as_bytes());
                    next_handle += 1;
                }
                Err(e) => respond(&mut out, "err", e.as_bytes()),
            }
            continue;
        }
        let Some(node) = nodes.get_mut(&handle) else {
            respond(&mut out, "err", format!("no node with handle {}", parts[1]).as_bytes());
            continue;
        };
        match op {
            "step" => {
                let effects = node.step_json(&payload);
                respond(&mut out, "ok", effects);
            }
            "inspect" => respond(&mut out, "ok", &node.inspect()),
            "stats" => respond(&mut out, "ok", stats_json("system", ALLOC.snapshot(), &[]).as_bytes()),
            "destroy" => {
                nodes.remove(&handle);
                respond(&mut out, "ok", b"");
            }
            _ => respond(&mut out, "err", format!("unknown op {op}").as_bytes()),
        }
    }
}
