// How every part of the project starts Chromium (the wasm-browser target, the simulator's
// Chromium run, the web lab's browser tests and benches): Debian's build (Playwright's own
// download is not reachable here), no sandbox (it will not start as root, which the
// project's jobs run as), no GPU, and none of the background work (updates, sync) that would only add noise.
// Plain JavaScript so that the Node scripts (web/bench) can import it as well as TypeScript.
// A fresh object on each call: Playwright's launch options are mutable, and no caller should change
// another's.
export function chromiumLaunchOptions() {
  return {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  };
}
