import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paperGibOfRatio } from './memory-ratio.mjs';

test("the paper's ratios 8, 2, 1.5 and 1.25 are its 32, 8, 6 and 5 GiB", () => {
  assert.deepEqual([8, 2, 1.5, 1.25].map(paperGibOfRatio), [32, 8, 6, 5]);
});
