// The wasm-browser target: every engine's wasm build runs inside Debian's Chromium, driven
// through Playwright. A tiny HTTP server serves the bundled host page and the engines' build
// outputs; each AsyncNode call becomes one page.evaluate round trip.
import { createServer, type Server } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EngineError, type AsyncEngine, type AsyncNode, type EngineName, type NodeConfig } from '../../loader/engine.ts';
import { ENGINES_DIR } from '../../loader/node-loaders.ts';
import { chromiumLaunchOptions } from './chromium.mjs';


const MIME: Record<string, string> = {
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html',
};

interface Shared {
  browser: Browser;
  page: Page;
  server: Server;
  users: number;
}

let shared: Promise<Shared> | null = null;

async function start(): Promise<Shared> {
  const bundle = await build({
    entryPoints: [join(ENGINES_DIR, 'conformance/browser/host-page.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
  });
  const hostJs = bundle.outputFiles[0]!.text;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/host.js"></script>');
    if (path === '/host.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostJs);
    if (path.startsWith('/repo/')) {
      const file = normalize(join(ENGINES_DIR, path.slice('/repo/'.length)));
      if (file.startsWith(ENGINES_DIR) && file.includes('/dist/') && existsSync(file)) {
        return res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as import('node:net').AddressInfo).port;
  const browser = await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`[chromium] ${e.message}`));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => 'replicantHost' in globalThis);
  return { browser, page, server, users: 0 };
}

async function release(): Promise<void> {
  if (!shared) return;
  const s = await shared;
  if (--s.users > 0) return;
  shared = null;
  await s.browser.close();
  await new Promise((r) => s.server.close(r));
}

type Host = {
  load(name: string): Promise<void>;
  create(name: string, config: NodeConfig): number;
  step(handle: number, event: string): string;
  hasBinaryStep(handle: number): boolean;
  stepBinaryAsJson(handle: number, event: string): string;
  hasBatchStep(handle: number): boolean;
  stepBatchAsJson(handle: number, events: string[]): string[];
  inspect(handle: number): string;
  stats(handle: number): string;
  destroy(handle: number): void;
};

/** A core's refusal thrown in the page reaches Node as Playwright's error with the page's
 * message in its text; rebuilt as the EngineError every other target throws, so callers (the
 * transcript runner's config refusals) see one kind of error whatever the target. */
export function engineErrorFromPage(err: unknown): EngineError | null {
  const m = err instanceof Error ? /EngineError: ([a-z]+): ([^\n]*)/.exec(err.message) : null;
  return m ? new EngineError(m[1]!, m[2]!.trim()) : null;
}

export async function browserEngine(name: EngineName): Promise<AsyncEngine> {
  shared ??= start();
  const s = await shared;
  s.users++;
  const page = s.page;
  const call = async <T>(fn: (host: Host, arg: never) => T, arg: unknown): Promise<T> => {
    try {
      return (await page.evaluate(([f, a]) => {
        const host = (globalThis as unknown as { replicantHost: Host }).replicantHost;
        return new Function('host', 'arg', `return (${f})(host, arg)`)(host, a);
      }, [fn.toString(), arg] as const)) as T;
    } catch (err) {
      throw engineErrorFromPage(err) ?? err;
    }
  };
  await call((h, n: string) => h.load(n), name);
  return {
    name,
    target: 'wasm-browser',
    async createNode(config: NodeConfig): Promise<AsyncNode> {
      const handle = await call((h, a: [string, NodeConfig]) => h.create(a[0], a[1]), [name, config]);
      const binary = await call((h, a: number) => h.hasBinaryStep(a), handle);
      const batch = await call((h, a: number) => h.hasBatchStep(a), handle);
      return {
        step: (e) => call((h, a: [number, string]) => h.step(a[0], a[1]), [handle, e]),
        ...(binary ? { stepBinaryAsJson: (e: string) => call((h, a: [number, string]) => h.stepBinaryAsJson(a[0], a[1]), [handle, e]) } : {}),
        ...(batch ? { stepBatchAsJson: (es: readonly string[]) => call((h, a: [number, string[]]) => h.stepBatchAsJson(a[0], a[1]), [handle, [...es]]) } : {}),
        inspect: () => call((h, a: number) => h.inspect(a), handle),
        stats: () => call((h, a: number) => h.stats(a), handle),
        destroy: () => call((h, a: number) => h.destroy(a), handle),
      };
    },
    close: release,
  };
}
