// The Rust wasm adapter: one WebAssembly instance per node (own memory, own allocator
// counters), configuration errors as EngineError, destroyed nodes refuse further calls.
// Needs engines/rust-wasm/dist (npm run build).
import { describe, expect, it } from 'vitest';
import { EngineError } from './engine.ts';
import { wasmNodeEngine } from './node-loaders.ts';

const engine = await wasmNodeEngine('rust');

describe('rust wasm adapter', () => {
  it('gives every node its own instance and allocator', () => {
    const a = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    const b = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    a.step('{"type":"timer","timer":"election"}');
    const before = JSON.parse(b.stats()) as { allocs_total: number; runtime: string };
    for (let i = 0; i < 200; i++) {
      const out = a.step(JSON.stringify({ type: 'client', client_id: 1, request_id: i, line: `put k${i} ${'v'.repeat(100)}` }));
      expect(out).toContain('"type":"reply","client_id":1');
    }
    const after = JSON.parse(b.stats()) as { allocs_total: number };
    const statsA = JSON.parse(a.stats()) as { allocs_total: number; live_bytes: number; memory_bytes: number };
    expect(before.runtime).toBe('rust');
    // b's counters only moved by what its own stats() calls allocated
    expect(after.allocs_total - before.allocs_total).toBeLessThan(20);
    expect(statsA.allocs_total).toBeGreaterThan(after.allocs_total + 1000);
    expect(statsA.live_bytes).toBeGreaterThan(200 * 100);
    // same events, same state: b never saw a's commands
    expect(JSON.parse(b.inspect()).kv.size).toBe(0);
    expect(JSON.parse(a.inspect()).kv.size).toBe(200);
    a.destroy();
    b.destroy();
  });

  it('refuses a bad configuration with an EngineError naming the problem', () => {
    expect(() => engine.createNode({ id: 3, num_peers: 3, seed: 1 })).toThrow(EngineError);
    expect(() => engine.createNode({ id: 0, num_peers: 3, seed: 1, commit_interval_us: 5 })).toThrow(/commit_interval_us/);
  });

  it('answers bad events with bad_event and refuses calls after destroy', () => {
    const n = engine.createNode({ id: 1, num_peers: 3, seed: 7 });
    expect(n.step('{"type":"nope"}')).toBe('{"type":"error","error":"bad_event"}\n');
    expect(n.step('{"type":"start"}')).toMatch(/^\{"type":"set_timer","timer":"election","delay_us":\d+\}\n$/);
    n.destroy();
    expect(() => n.step('{"type":"start"}')).toThrow(EngineError);
    expect(() => n.inspect()).toThrow(EngineError);
  });
});
