export * from './engine.ts';
export * from './catalogue.ts';
export { goEngine } from './go-wasm.ts';
export { rustEngine, type RustGlue } from './rust-wasm.ts';
export { javaJsEngine, javaWasmGcEngine } from './java-wasm.ts';
export type { TeaVMWasmGC } from './java-wasm.ts';
export { cppEngine } from './cpp-wasm.ts';
