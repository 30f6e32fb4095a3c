//! The WebAssembly build of the Rust core, exported through wasm-bindgen:
//! `create(config_json) -> handle`, `step(handle, event_json) -> effects`, `inspect(handle)`,
//! `stats(handle)`, `destroy(handle)` (docs/protocol.md, "WebAssembly exports").
//!
//! The hot path also has byte exports over linear memory, the same convention as the C++
//! module (engines/cpp-wasm/wasm/replicant_wasm.cc): `rc_input(n)` hands out an n-byte input
//! buffer, `rc_step(handle, n)` steps on the n bytes written there and returns the effects'
//! length (-1: unknown handle), `rc_output()` is their address. This spares the glue's string
//! copies in both directions (engines/loader/linear-memory.ts writes and reads the bytes).
//! `rc_step_binary` is the same call in the binary encoding (core/src/binary_codec.rs), and
//! `rc_step_batch` several such events for one node in one call (docs/protocol.md, "Batch step").
//!
//! A module instance can hold several nodes by handle; the TypeScript adapter
//! (engines/loader/rust-wasm.ts) gives every node an instance of its own, so each node has
//! its own linear memory and allocator, like a process.

use replicant_core::{decode_config, Node};
use replicant_runtimestats::{stats_json, CountingAlloc};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[global_allocator]
static ALLOC: CountingAlloc<std::alloc::System> = CountingAlloc::new(std::alloc::System);

#[derive(Default)]
struct Nodes {
    by_handle: BTreeMap<u32, Node>,
    next_handle: u32,
}

thread_local! {
    static NODES: RefCell<Nodes> = RefCell::new(Nodes::default());
    /// The byte exports' input buffer: the driver's, kept between calls.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Where the last rc_step left its effects (inside the node's own output buffer, valid
    /// until that node steps again).
    static OUTPUT: Cell<usize> = const { Cell::new(0) };
}

fn with_node<T>(handle: u32, f: impl FnOnce(&mut Node) -> T) -> Result<T, JsError> {
    NODES.with(|nodes| match nodes.borrow_mut().by_handle.get_mut(&handle) {
        Some(node) => Ok(f(node)),
        None => Err(JsError::new(&format!("rust: no node with handle {handle}"))),
    })
}

/// Creates a node from its configuration JSON; an invalid configuration throws.
#[wasm_bindgen]
pub fn create(config_json: &str) -> Result<u32, JsError> {
    let cfg = decode_config(config_json.as_bytes()).map_err(|e| JsError::new(&e))?;
    Ok(NODES.with(|nodes| {
        let mut nodes = nodes.borrow_mut();
        nodes.next_handle += 1;
        let handle = nodes.next_handle;
        nodes.by_handle.insert(handle, Node::new(cfg));
        handle
    }))
}

/// Feeds one canonical event; returns the effects as JSON Lines.
#[wasm_bindgen]
pub fn step(handle: u32, event_json: &str) -> Result<String, JsError> {
    with_node(handle, |node| {
        let effects = node.step_json(event_json.as_bytes());
        // Effects are canonical JSON of printable ASCII: always valid UTF-8.
        String::from_utf8_lossy(effects).into_owned()
    })
}

/// An input buffer of at least `length` bytes for rc_step; its address.
#[wasm_bindgen]
pub fn rc_input(length: u32) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        let need = (length as usize).max(1);
        if input.len() < need {
            input.resize(need.next_power_of_two().max(4096), 0);
        }
        input.as_mut_ptr()
    })
}

/// Steps on the `length` bytes written at rc_input's address; returns the effects' length
/// (JSON Lines at rc_output's address), or -1 for an unknown handle.
#[wasm_bindgen]
pub fn rc_step(handle: u32, length: u32) -> i32 {
    step_input(handle, length, Node::step_json)
}

/// rc_step in the binary encoding (docs/protocol.md, "Binary step"): a binary event in, the
/// effects in the binary encoding at rc_output's address.
#[wasm_bindgen]
pub fn rc_step_binary(handle: u32, length: u32) -> i32 {
    step_input(handle, length, Node::step_binary)
}

/// The batch step (docs/protocol.md, "Batch step"): frames of binary events in, one frame of
/// effects per event at rc_output's address; -2 (nothing stepped) on bad framing.
#[wasm_bindgen]
pub fn rc_step_batch(handle: u32, length: u32) -> i32 {
    INPUT.with(|input| {
        let input = input.borrow();
        let batch = &input[..(length as usize).min(input.len())];
        with_node(handle, |node| match node.step_batch(batch) {
            Some(effects) => {
                OUTPUT.with(|out| out.set(effects.as_ptr() as usize));
                effects.len() as i32
            }
            None => -2,
        })
        .unwrap_or(-1)
    })
}

fn step_input(handle: u32, length: u32, step: for<'n> fn(&'n mut Node, &[u8]) -> &'n [u8]) -> i32 {
    INPUT.with(|input| {
        let input = input.borrow();
        let event = &input[..(length as usize).min(input.len())];
        with_node(handle, |node| {
            let effects = step(node, event);
            OUTPUT.with(|out| out.set(effects.as_ptr() as usize));
            effects.len() as i32
        })
        .unwrap_or(-1)
    })
}

/// The address of the last rc_step's effects.
#[wasm_bindgen]
pub fn rc_output() -> *const u8 {
    OUTPUT.with(|out| out.get() as *const u8)
}

/// The node's inspect view.
#[wasm_bindgen]
pub fn inspect(handle: u32) -> Result<String, JsError> {
    with_node(handle, |node| String::from_utf8_lossy(&node.inspect()).into_owned())
}

/// The allocator's figures for this module instance (every node it holds).
#[wasm_bindgen]
pub fn stats(handle: u32) -> Result<String, JsError> {
    with_node(handle, |_| ())?;
    Ok(stats_json("dlmalloc", ALLOC.snapshot(), &[("memory_bytes", memory_bytes())]))
}

/// Forgets a node (its memory returns to this instance's allocator).
#[wasm_bindgen]
pub fn destroy(handle: u32) {
    NODES.with(|nodes| nodes.borrow_mut().by_handle.remove(&handle));
}

/// The instance's linear memory size.
fn memory_bytes() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) as u64 * 65536
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}
