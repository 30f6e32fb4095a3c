// Text across a WebAssembly module's linear memory, for the cores whose wasm exports take
// bytes (C++: engines/cpp-wasm/wasm/replicant_wasm.cc; Rust: engines/rust-wasm/wasm/src/lib.rs,
// the rc_* exports). The convention is the same in both: rc_input(n) hands out an n-byte input
// buffer, the call reads its input there, and leaves its result in an output buffer whose
// address rc_output() returns and whose length the call returns.
//
// Events are ASCII almost always, so the input is first reserved at one byte per UTF-16 unit
// and encoded straight into the module's memory (no intermediate Uint8Array); only text that
// does not fit (non-ASCII) is reserved again at the UTF-8 worst case.

/** What rc_step_batch returns on bad framing (docs/protocol.md, "Batch step"); -1 is an
 * unknown handle in every rc_ call. */
export const BAD_BATCH_FRAMING = -2;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface LinearMemoryExports {
  /** the module's memory as bytes, re-read on every call: memory may have grown */
  heap(): Uint8Array;
  /** an input buffer of at least `length` bytes (its address), or 0 when memory ran out */
  reserve(length: number): number;
}

/** Writes `text` as UTF-8 into the module's input buffer; returns its length in bytes, or -1
 * when the module could not reserve the buffer. */
export function writeText(m: LinearMemoryExports, text: string): number {
  let capacity = text.length;
  for (;;) {
    const ptr = m.reserve(capacity);
    if (!ptr) return -1;
    const { read, written } = encoder.encodeInto(text, m.heap().subarray(ptr, ptr + capacity));
    if (read === text.length) return written;
    capacity = text.length * 3; // every UTF-16 unit fits in 3 UTF-8 bytes
  }
}

/** The `length` bytes at `ptr` as text. */
export function readText(m: LinearMemoryExports, ptr: number, length: number): string {
  return decoder.decode(m.heap().subarray(ptr, ptr + length));
}

/** Copies `bytes` into the module's input buffer; false when it could not be reserved. */
export function writeBytes(m: LinearMemoryExports, bytes: Uint8Array): boolean {
  const ptr = m.reserve(bytes.length);
  if (!ptr) return false;
  m.heap().set(bytes, ptr);
  return true;
}

/** The bytes a batch frame's length takes (unsigned LEB128, docs/protocol.md "Binary step"). */
export function frameHeaderBytes(length: number): number {
  let n = 1;
  while (length >= 0x80) {
    length = Math.floor(length / 0x80);
    n++;
  }
  return n;
}

/** Writes a batch frame's length at `at` of `bytes`; returns where its body starts. */
export function writeFrameHeader(bytes: Uint8Array, at: number, length: number): number {
  while (length >= 0x80) {
    bytes[at++] = (length % 0x80) | 0x80;
    length = Math.floor(length / 0x80);
  }
  bytes[at++] = length;
  return at;
}

/** Writes `events` as one batch (docs/protocol.md, "Batch step": each framed by its length)
 * straight into the module's input buffer, with no batch assembled outside it; returns the
 * batch's length, or -1 when the module could not reserve the buffer. */
export function writeFrames(m: LinearMemoryExports, events: readonly Uint8Array[]): number {
  let total = 0;
  for (let i = 0; i < events.length; i++) total += frameHeaderBytes(events[i]!.length) + events[i]!.length;
  const ptr = m.reserve(total);
  if (!ptr) return -1;
  const heap = m.heap();
  let at = ptr;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    at = writeFrameHeader(heap, at, e.length);
    heap.set(e, at);
    at += e.length;
  }
  return total;
}
