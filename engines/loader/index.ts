export * from './engine.ts';
export { goEngine } from './go-wasm.ts';
export { javaJsEngine, javaWasmGcEngine } from './java-wasm.ts';
export type { TeaVMWasmGC } from './java-wasm.ts';
