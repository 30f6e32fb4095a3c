// Tests of the failure digest `npm test` prints under its summary (scripts/failure-lines.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureLines } from '../failure-lines.mjs';

test('a vitest failure is quoted by its test name and assertion, colours removed', () => {
  const log = [
    '\x1b[32m✓\x1b[39m go survives ratio 1.25',
    '\x1b[31m×\x1b[39m rust survives ratio 1.25 of 5000 records',
    'AssertionError: OOM kills per node: expected [ 1, 1, 1 ] to deeply equal [ 0, 0, 0 ]',
    'some stack line',
  ].join('\n');
  assert.deepEqual(failureLines(log, 8), [
    '× rust survives ratio 1.25 of 5000 records',
    'AssertionError: OOM kills per node: expected [ 1, 1, 1 ] to deeply equal [ 0, 0, 0 ]',
  ]);
});

test('a Playwright failure is quoted once even when the reporter repeats it', () => {
  const log = '  ✘  16 e2e/lab-race.spec.ts:126:1 › the Race keeps its layout still\n  ✘  16 e2e/lab-race.spec.ts:126:1 › the Race keeps its layout still\n    Error: Timed out 170000ms waiting for expect(locator).toHaveCount(expected)\n';
  assert.deepEqual(failureLines(log, 8), [
    '✘  16 e2e/lab-race.spec.ts:126:1 › the Race keeps its layout still',
    'Error: Timed out 170000ms waiting for expect(locator).toHaveCount(expected)',
  ]);
});

test('at most N lines; the end of the log when nothing says what failed', () => {
  assert.equal(failureLines(Array(20).fill('Error: x').map((l, i) => `${l}${i}`).join('\n'), 3).length, 3);
  assert.deepEqual(failureLines('a\nb\n\nc\n', 2), ['b', 'c']);
});
