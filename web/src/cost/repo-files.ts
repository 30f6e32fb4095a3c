// Maps Vite's glob keys ("../../../cost-model/src/x.py") to repository paths and checks that
// every file the cost model needs is there.
export function repoFiles(raw: Record<string, string>, wanted: readonly string[]): Record<string, string> {
  const byRepoPath = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.replace(/^(\.\.\/)+/, ''), v]));
  const missing = wanted.filter((p) => !(p in byRepoPath));
  if (missing.length) throw new Error(`this build lacks cost-model files: ${missing.join(', ')}`);
  return Object.fromEntries(wanted.map((p) => [p, byRepoPath[p]!]));
}
