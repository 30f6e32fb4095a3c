// The byte exports (rc_*, linear-memory.ts) against the string path they replace: the same
// events give the same effects, through the input buffer's growth and the non-ASCII fallback.
// Needs the wasm builds (npm run build); Java has no byte exports (docs/protocol.md).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { wasmNodeEngine, artefacts } from './node-loaders.ts';
import type { RustGlue } from './rust-wasm.ts';
import type { SyncNode } from './engine.ts';

/** A leader of one, then puts whose lines grow past the 4 KiB first buffer, a non-ASCII line
 * (the encoder's second try), a get, and a malformed event. */
function events(): string[] {
  const out = ['{"type":"start"}', '{"type":"timer","timer":"election"}'];
  for (let i = 0; i < 40; i++) out.push(JSON.stringify({ type: 'client', client_id: 1, request_id: i, line: `put k${i} ${'v'.repeat(i * 300)}` }));
  out.push(JSON.stringify({ type: 'client', client_id: 1, request_id: 40, line: `put k40 ${'é'.repeat(3000)}` }));
  out.push(JSON.stringify({ type: 'client', client_id: 1, request_id: 41, line: 'get k39' }));
  out.push('{"type":"client","client_id":1,');
  return out;
}

const CONFIG = { id: 0, num_peers: 1, seed: 3 };

function run(node: SyncNode): string[] {
  const out = events().map((e) => node.step(e));
  node.destroy();
  return out;
}

/** The Rust module's own string export (wasm-bindgen's glue), the path the bytes replace. */
async function rustThroughStrings(): Promise<string[]> {
  const module = new WebAssembly.Module(readFileSync(artefacts.rust.wasm));
  const { createGlue } = (await import(pathToFileURL(artefacts.rust.glue).href)) as { createGlue: () => RustGlue };
  const glue = createGlue();
  glue.initSync({ module });
  const handle = glue.create(JSON.stringify(CONFIG));
  return events().map((e) => glue.step(handle, e));
}

describe('byte exports across the wasm boundary', async () => {
  const rust = run((await wasmNodeEngine('rust')).createNode(CONFIG));

  it('give the Rust core exactly the effects of its string export', async () => {
    const strings = await rustThroughStrings();
    expect(rust).toEqual(strings);
    expect(rust.at(-3)).toContain('"request_id":40'); // the non-ASCII line reached the core
    expect(rust.at(-2)).toContain(`"value":"${'v'.repeat(39 * 300)}"`); // the 11.7 KB value came back whole
    expect(rust.at(-1)).toBe('{"type":"error","error":"bad_event"}\n');
  });

  it('give the C++ and Go cores the same effects as the Rust core', async () => {
    expect(run((await wasmNodeEngine('cpp')).createNode(CONFIG))).toEqual(rust);
    expect(run((await wasmNodeEngine('go')).createNode(CONFIG))).toEqual(rust);
  });

  it('refuse a step after destroy', async () => {
    for (const name of ['cpp', 'rust', 'go'] as const) {
      const n = (await wasmNodeEngine(name)).createNode(CONFIG);
      n.destroy();
      expect(() => n.step('{"type":"start"}'), name).toThrow(/node/);
    }
  });
});
