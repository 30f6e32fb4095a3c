// Runs the simulator in headless Chromium (Debian's /usr/bin/chromium through Playwright), in a
// Web Worker, as the web lab does: bundles the worker with esbuild, serves it and the engines'
// wasm builds on 127.0.0.1, and hands requests to the page.
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '@replicant/engines/chromium';
import type { WorkerRequest, WorkerResponse } from '../src/worker-protocol.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

function contentType(file: string): string {
  if (file.endsWith('.wasm')) return 'application/wasm';
  if (file.endsWith('.js') || file.endsWith('.mjs')) return 'text/javascript';
  return 'application/octet-stream';
}

export class ChromiumSim {
  private constructor(
    private readonly server: Server,
    private readonly browser: Browser,
    readonly page: Page,
  ) {}

  static async start(): Promise<ChromiumSim> {
    const bundle = await build({
      entryPoints: [join(HERE, 'browser/worker-entry.ts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const workerJs = bundle.outputFiles[0]!.text;
    const files: Record<string, { body: Buffer | string; type: string }> = {
      '/': { body: readFileSync(join(HERE, 'browser/index.html')), type: 'text/html' },
      '/worker.js': { body: workerJs, type: 'text/javascript' },
    };
    const server = createServer((req, res) => {
      const url = (req.url ?? '/').split('?')[0]!;
      let f = files[url];
      if (!f && url.startsWith('/repo/') && !url.includes('..')) {
        // /repo/<engine>-wasm/dist/<file>: the engines' build outputs
        const file = join(ROOT, 'engines', url.slice('/repo/'.length));
        if (/^\/repo\/[a-z]+-wasm\/dist\/[A-Za-z0-9_.-]+$/.test(url) && existsSync(file)) f = { body: readFileSync(file), type: contentType(file) };
      }
      if (!f) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': f.type }).end(f.body);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const browser = await chromium.launch(chromiumLaunchOptions());
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => (window as unknown as { simReady?: boolean }).simReady === true);
    return new ChromiumSim(server, browser, page);
  }

  async request(req: WorkerRequest): Promise<WorkerResponse> {
    return this.page.evaluate((r) => (window as unknown as { simRequest(x: unknown): Promise<WorkerResponse> }).simRequest(r), req as never);
  }

  async stepScript(spec: unknown, calls: unknown[][]): Promise<unknown> {
    return this.page.evaluate((args: unknown[]) => (window as unknown as { simStepScript(a: unknown, b: unknown): Promise<unknown> }).simStepScript(args[0], args[1]), [spec, calls]);
  }

  async browserVersion(): Promise<string> {
    return this.browser.version();
  }

  async close(): Promise<void> {
    await this.browser.close();
    await new Promise((ok) => this.server.close(ok));
  }
}
