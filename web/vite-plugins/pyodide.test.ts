import { describe, expect, it } from 'vitest';
import { buildOutDir } from './pyodide.ts';

describe('buildOutDir', () => {
  it('puts a relative outDir under the root', () => {
    expect(buildOutDir('/repo/web', 'dist')).toBe('/repo/web/dist');
  });
  it('keeps an absolute outDir as given (was /repo/web/tmp/site: the root joined onto it)', () => {
    expect(buildOutDir('/repo/web', '/tmp/site')).toBe('/tmp/site');
  });
});
