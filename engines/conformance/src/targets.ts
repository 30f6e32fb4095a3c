// Opens an engine on any target: native host processes and wasm in Node here; wasm in
// Chromium through Playwright (browser-engine.ts).
import type { AsyncEngine, EngineName, Target } from '../../loader/engine.ts';
import { loadEngine } from '../../loader/node-loaders.ts';

export async function openEngine(name: EngineName, target: Target): Promise<AsyncEngine> {
  if (target === 'wasm-browser') {
    const { browserEngine } = await import('./browser-engine.ts');
    return browserEngine(name);
  }
  return loadEngine(name, target);
}
