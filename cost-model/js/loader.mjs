// Runs the replicant_cost Python package inside a Pyodide instance. Environment-neutral:
// the caller supplies the Pyodide instance and the files' text (read from disk in Node,
// fetched in the browser), so the web app can reuse this as it is.
export { PYTHON_FILES, DATA_FILES, ALL_FILES } from './manifest.mjs';

export const DEFAULT_ROOT = '/replicant';

export class CostModelInputError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CostModelInputError';
  }
}

// Writes files ({repoRelativePath: text}) under root in Pyodide's file system, keeping
// the repository layout so that the package finds data/ as it does natively.
export function writeFiles(pyodide, files, root = DEFAULT_ROOT) {
  for (const [rel, text] of Object.entries(files)) {
    if (rel.startsWith('/') || rel.split('/').includes('..')) throw new Error(`not a repository-relative path: ${rel}`);
    const full = `${root}/${rel}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    pyodide.FS.writeFile(full, text, { encoding: 'utf8' });
  }
}

// Installs the package and returns { run(command, inputs, format) -> output text }.
// inputs may be an object or JSON text; format is 'json' or 'csv'. Bad input throws
// CostModelInputError with the same message the command line prints after "error: ".
export function installCostModel(pyodide, files, { root = DEFAULT_ROOT } = {}) {
  writeFiles(pyodide, files, root);
  // Put the package on sys.path and drop any copy imported before (reinstalling reloads).
  pyodide.runPython(
    [
      'import importlib, sys',
      `_src = ${JSON.stringify(`${root}/cost-model/src`)}`,
      'if _src not in sys.path: sys.path.insert(0, _src)',
      "for _m in [m for m in sys.modules if m == 'replicant_cost' or m.startswith('replicant_cost.')]: del sys.modules[_m]",
      'importlib.invalidate_caches()',
    ].join('\n'),
  );
  const api = pyodide.pyimport('replicant_cost.api');
  return {
    run(command, inputs = '', format = 'json') {
      const text = typeof inputs === 'string' ? inputs : JSON.stringify(inputs);
      const envelope = JSON.parse(api.run_for_js(command, text, format, root));
      if (!envelope.ok) throw new CostModelInputError(envelope.error);
      return envelope.output;
    },
    close() {
      api.destroy();
    },
  };
}
