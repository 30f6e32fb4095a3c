// The data workspace's schema helpers (plain JavaScript).
declare module '*/data/lib/results.mjs' {
  export function compileResultsSchema(schemaDir: string): ((doc: unknown) => boolean) & { errors: unknown };
}
