export * from './engine.ts';
export { goEngine } from './go-wasm.ts';
export { cppEngine } from './cpp-wasm.ts';
