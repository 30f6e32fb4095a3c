// Smoke test of the Java core's WebAssembly GC build in Chromium (Node 20 cannot run WasmGC).
// Runs the scripted cluster of drive.ts through:
//   1. TeaVM's JavaScript build in Node (what `--target wasm-node` uses), and
//   2. the WasmGC build inside Debian's Chromium, loaded from bytes by engines/loader/java-wasm.ts,
// and demands identical lines; then checks that every node got its own wasm instance and that
// stats() says allocation is not observable. Usage: npx tsx engines/java-wasm/test/wasmgc-smoke.ts
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { chromium } from 'playwright-core';
import { artefacts } from '../../loader/node-loaders.ts';
import { javaJsEngine } from '../../loader/java-wasm.ts';
import { drive } from './drive.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ORIGIN = 'http://replicant.test';

/** A TypeScript module as browser JavaScript (types stripped, ./x.ts imports kept as ./x.js). */
function transpile(path: string): string {
  return ts.transpileModule(readFileSync(path, 'utf8'), {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      rewriteRelativeImportExtensions: true,
      verbatimModuleSyntax: false,
    },
  }).outputText;
}

function fail(message: string): never {
  console.error(`FAIL java wasmgc smoke: ${message}`);
  process.exit(1);
}

const expected = drive(javaJsEngine(readFileSync(artefacts.java.js, 'utf8')));

const files: Record<string, { body: string | Buffer; type: string }> = {
  '/index.html': { body: '<!doctype html><title>java wasmgc</title>', type: 'text/html' },
  '/loader/engine.js': { body: transpile(join(HERE, '../../loader/engine.ts')), type: 'text/javascript' },
  '/loader/java-wasm.js': { body: transpile(join(HERE, '../../loader/java-wasm.ts')), type: 'text/javascript' },
  '/java-wasm/test/drive.js': { body: transpile(join(HERE, 'drive.ts')), type: 'text/javascript' },
  '/runtime.js': { body: readFileSync(artefacts.java.wasmRuntime), type: 'text/javascript' },
  // Go's glue defines globalThis.process, which sends TeaVM's own loader down its Node path;
  // the page loads it too, to show that the adapter does not depend on that sniffing.
  '/wasm_exec.js': { body: readFileSync(artefacts.go.wasmExec), type: 'text/javascript' },
  '/replicant-java.wasm': { body: readFileSync(artefacts.java.wasm), type: 'application/wasm' },
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(`${ORIGIN}/**`, (route) => {
    const f = files[new URL(route.request().url()).pathname];
    return f ? route.fulfill({ body: f.body, contentType: f.type }) : route.fulfill({ status: 404, body: 'not found' });
  });
  await page.goto(`${ORIGIN}/index.html`);
  await page.addScriptTag({ url: `${ORIGIN}/wasm_exec.js` });
  await page.addScriptTag({ url: `${ORIGIN}/runtime.js` });
  if (!(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process === 'object'))) {
    fail('wasm_exec.js did not define globalThis.process; the test no longer covers that case');
  }
  const t0 = Date.now();
  const result = await page.evaluate(async () => {
    const { javaWasmGcEngine } = await import('/loader/java-wasm.js' as string);
    const { drive } = await import('/java-wasm/test/drive.js' as string);
    const bytes = await (await fetch('/replicant-java.wasm')).arrayBuffer();
    const engine = await javaWasmGcEngine(bytes);
    const lines: string[] = drive(engine);
    // One instance per node: two nodes created in a row both get handle 1 of their own
    // instance, and state set in one is not seen by the other.
    const a = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    const b = engine.createNode({ id: 0, num_peers: 1, seed: 1 });
    a.step('{"type":"timer","timer":"election"}');
    const isolated = JSON.parse(a.inspect()).role === 'leader' && JSON.parse(b.inspect()).role === 'follower';
    let badConfig = '';
    try {
      engine.createNode({ id: 3, num_peers: 3, seed: 1 });
    } catch (e) {
      badConfig = (e as Error).message;
    }
    return { lines, isolated, stats: a.stats(), badConfig, engine: `${engine.name}/${engine.target}` };
  });
  const ms = Date.now() - t0;
  if (errors.length) fail(`page errors: ${errors.join('; ')}`);
  if (result.lines.length !== expected.length || result.lines.some((l, i) => l !== expected[i])) {
    const i = result.lines.findIndex((l, k) => l !== expected[k]);
    fail(`line ${i + 1} differs:\n  js (node):       ${expected[i]}\n  wasmgc (chromium): ${result.lines[i]}`);
  }
  if (!result.isolated) fail('two nodes shared state: expected one wasm instance per node');
  const stats = JSON.parse(result.stats) as { runtime: string; alloc_bytes_total: unknown };
  if (stats.runtime !== 'java-teavm-wasmgc' || stats.alloc_bytes_total !== null) fail(`unexpected stats ${result.stats}`);
  if (!result.badConfig.includes('id must be below num_peers')) fail(`bad config not refused clearly: ${result.badConfig}`);
  console.log(`java wasmgc smoke (${result.engine}, Chromium): ${expected.length} lines identical to the JS build; ` +
    `one instance per node; ${ms} ms`);
} finally {
  await browser.close();
}
