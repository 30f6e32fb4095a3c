export * from './engine.ts';
export { goEngine } from './go-wasm.ts';
export { rustEngine, type RustGlue } from './rust-wasm.ts';
