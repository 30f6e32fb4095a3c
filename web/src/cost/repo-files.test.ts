import { describe, expect, it } from 'vitest';
import { repoFiles } from './repo-files.ts';
import { ALL_FILES } from '@replicant/cost-model';

// The same glob the worker uses: a file the manifest adds must be bundled too.
const RAW = import.meta.glob(['@replicant/cost-model/src/replicant_cost/*.py', '@replicant/data/paper/paper-results.json', '@replicant/data/prices/*.csv'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

describe('repoFiles', () => {
  it('finds every file of the cost model’s manifest in the worker’s bundle', () => {
    const files = repoFiles(RAW, ALL_FILES);
    expect(Object.keys(files)).toEqual(ALL_FILES);
    expect(files['cost-model/src/replicant_cost/api.py']).toContain('def run_for_js');
  });
  it('names the files a build lacks', () => {
    expect(() => repoFiles({ '../../a.py': '' }, ['a.py', 'b.py'])).toThrow('this build lacks cost-model files: b.py');
  });
});
