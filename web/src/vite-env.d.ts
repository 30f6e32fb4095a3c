/// <reference types="vite/client" />

// The lessons, validated at build time (vite-plugins/lessons.ts).
declare module 'virtual:replicant-lessons' {
  const catalogue: import('@replicant/lessons/runtime').CatalogueJson;
  export default catalogue;
}
