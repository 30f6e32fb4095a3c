// Serves a built lab (a dist folder) on a free port of 127.0.0.1 with scripts/serve.mjs, for the
// web benches: each bench opens its pages on `base` and calls `stop()` when done.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort() {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Resolves once the server has said it listens. */
export async function serveDist(dist) {
  const port = await freePort();
  const server = spawn(process.execPath, [join(ROOT, 'scripts/serve.mjs'), dist, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((res) => server.stdout.once('data', res));
  return { base: `http://127.0.0.1:${port}`, stop: () => server.kill() };
}
