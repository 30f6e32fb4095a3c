// Tests of the fuzzer-log readers behind `npm run fuzz` (scripts/fuzz-logs.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoFuzzLog, parseLibFuzzerLog } from '../fuzz-logs.mjs';

test('a go test -fuzz log gives its inputs, time, rate and corpus', () => {
  const log = [
    'fuzz: elapsed: 0s, gathering baseline coverage: 9/9 completed, now fuzzing with 2 workers',
    'fuzz: elapsed: 3s, execs: 30000 (10000/sec), new interesting: 2 (total: 11)',
    'fuzz: elapsed: 1m2s, execs: 1000000 (16129/sec), new interesting: 4 (total: 13)',
    'PASS',
  ].join('\n');
  const f = parseGoFuzzLog(log);
  assert.equal(f.inputs, 1_000_000);
  assert.equal(f.seconds, 62);
  assert.equal(f.exec_per_s, 16129);
  assert.equal(f.corpus, 13);
  assert.equal(f.crashes, 0);
});

test('a failing go fuzz target counts as a crash and names its input', () => {
  const log = 'fuzz: elapsed: 2s, execs: 500 (250/sec), new interesting: 0 (total: 9)\n--- FAIL: FuzzPeerFrame (2.01s)\n    Failing input written to testdata/fuzz/FuzzPeerFrame/abc\n';
  const f = parseGoFuzzLog(log);
  assert.equal(f.crashes, 1);
  assert.deepEqual(f.crash_lines, ['--- FAIL: FuzzPeerFrame (2.01s)', 'Failing input written to testdata/fuzz/FuzzPeerFrame/abc']);
});

test('a libFuzzer log gives inputs, time, rate, coverage and corpus', () => {
  const log = [
    '#2\tINITED cov: 90 ft: 91 corp: 4/60b exec/s: 0 rss: 30Mb',
    '#1000000\tDONE   cov: 412 ft: 1703 corp: 251/9811b lim: 4096 exec/s: 20833 rss: 61Mb',
    'Done 1000000 runs in 48 second(s)',
    'stat::number_of_executed_units: 1000000',
    'stat::average_exec_per_sec:     20833',
  ].join('\n');
  assert.deepEqual(parseLibFuzzerLog(log), { inputs: 1_000_000, seconds: 48, exec_per_s: 20833, coverage: 412, features: 1703, corpus: 251, crashes: 0, crash_lines: [] });
});

test('a libFuzzer crash is counted with the file it wrote', () => {
  const log = '==123== ERROR: AddressSanitizer: heap-buffer-overflow\nSUMMARY: AddressSanitizer: heap-buffer-overflow x.cc:1\nTest unit written to build/fuzz-artifacts/crash-1\n';
  const f = parseLibFuzzerLog(log);
  assert.equal(f.crashes, 1);
  assert.equal(f.crash_lines.length, 3);
});
