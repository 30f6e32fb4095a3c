#!/usr/bin/env node
// Prints a TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice for port 0).
// The browser tests serve the lab on it, so a server left behind by an earlier run, or another
// checkout's run, cannot take their fixed port from them.
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await freePort());
}
