// The Java adapter's JavaScript build (what Node runs): the module is evaluated once per
// engine and every node is a handle in it, each with its own state. Needs
// engines/java-wasm/dist (npm run build).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { javaJsEngine } from './java-wasm.ts';
import { artefacts } from './node-loaders.ts';

const source = readFileSync(artefacts.java.js, 'utf8');

describe('java JavaScript adapter', () => {
  it('evaluates the module once for all its nodes, and keeps their states apart', () => {
    const counter = globalThis as { javaEvaluations?: number };
    counter.javaEvaluations = 0;
    const engine = javaJsEngine(`globalThis.javaEvaluations++;\n${source}`);
    const a = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    const b = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    const fresh = b.inspect();
    a.step('{"type":"timer","timer":"election"}');
    for (let i = 0; i < 50; i++) {
      expect(a.step(JSON.stringify({ type: 'client', client_id: 1, request_id: i, line: `put k${i} v${i}` }))).toContain('"type":"reply","client_id":1');
    }
    expect(JSON.parse(a.inspect()).kv.size).toBe(50);
    expect(b.inspect()).toBe(fresh); // b never saw a's commands
    a.destroy();
    expect(() => a.inspect()).toThrow(/unknown node/);
    const c = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    expect(c.inspect()).toBe(fresh);
    expect(counter.javaEvaluations).toBe(1);
    b.destroy();
    c.destroy();
  });

  it('tells bad batch framing from an empty batch', () => {
    const node = javaJsEngine(source).createNode({ id: 0, num_peers: 1, seed: 1 });
    const before = node.inspect();
    expect(node.stepBatch!(new Uint8Array(0))).toHaveLength(0);
    expect(() => node.stepBatch!(new Uint8Array([0x80]))).toThrow(/bad batch framing/);
    expect(() => node.stepBatch!(new Uint8Array([0x05, 0x00]))).toThrow(/bad batch framing/);
    expect(node.inspect()).toBe(before); // nothing stepped
    node.destroy();
  });
});
