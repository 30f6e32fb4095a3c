// The wasm-browser target: engines run inside Debian's Chromium, driven through Playwright.
import type { AsyncEngine, EngineName } from '../../loader/engine.ts';

export async function browserEngine(name: EngineName): Promise<AsyncEngine> {
  throw new Error(`wasm-browser target for ${name} is not available yet`);
}
