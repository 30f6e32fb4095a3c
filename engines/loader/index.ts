export * from './engine.ts';
export { goEngine } from './go-wasm.ts';
