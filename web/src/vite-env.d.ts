/// <reference types="vite/client" />
declare module '*/wasm_exec.js';
declare module '*/cpp-wasm/dist/replicant.mjs' {
  const factory: import('../../engines/loader/cpp-wasm.ts').CppModuleFactory;
  export default factory;
}
