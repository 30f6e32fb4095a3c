import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../free-port.mjs', import.meta.url));

const listen = (port) =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

test('prints a port that is free: a server can listen on it, and not on one already taken', async () => {
  const taken = await listen(0);
  try {
    const printed = Number(execFileSync(process.execPath, [script]).toString().trim());
    assert.ok(Number.isInteger(printed) && printed > 0 && printed < 65536, `a port number: ${printed}`);
    assert.notEqual(printed, taken.address().port);
    const server = await listen(printed);
    await new Promise((r) => server.close(r));
  } finally {
    await new Promise((r) => taken.close(r));
  }
});
