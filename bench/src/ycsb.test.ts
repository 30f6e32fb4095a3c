import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failedOperations, parseBindingCounters, parseYcsbSummary, ycsbArgv, YCSB_CLASSPATH } from './ycsb.ts';

const props = (argv: string[]) =>
  Object.fromEntries(argv.flatMap((a, i) => (argv[i - 1] === '-p' ? [a.split(/=(.*)/s).slice(0, 2)] : [])));

describe('ycsbArgv', () => {
  const base = { db: 'lab.replicant.ycsb.ReplicantClient', workloadFile: 'w', records: 1000, threads: 64, properties: { 'replicant.hosts': 'h:1' } };

  it('always measures both intended and uncorrected latency with HdrHistograms', () => {
    const argv = ycsbArgv({ ...base, phase: 'run', target_ops_per_s: 2500, max_execution_s: 25, hdrDir: '/tmp/x' });
    const p = props(argv);
    expect(p['measurement.interval']).toBe('both');
    expect(p.measurementtype).toBe('hdrhistogram');
    expect(p['hdrhistogram.fileoutput']).toBe('true');
    expect(p['hdrhistogram.output.path']).toBe('/tmp/x/');
    expect(p.maxexecutiontime).toBe('25');
    expect(Number(p.operationcount)).toBeGreaterThan(2500 * 25);
    expect(argv.slice(argv.indexOf('-target'), argv.indexOf('-target') + 2)).toEqual(['-target', '2500']);
    expect(argv).toContain('-t');
    expect(argv[argv.indexOf('-cp') + 1]).toBe(YCSB_CLASSPATH);
    expect(p['replicant.hosts']).toBe('h:1');
  });

  it('loads without a target and inserts every record', () => {
    const argv = ycsbArgv({ ...base, phase: 'load' });
    expect(argv).toContain('-load');
    expect(argv).not.toContain('-target');
    expect(props(argv).operationcount).toBe('1000');
  });

  it('refuses a run phase without a time limit or a histogram folder', () => {
    expect(() => ycsbArgv({ ...base, phase: 'run' })).toThrow(/max_execution_s/);
  });
});

describe('YCSB output', () => {
  const summary = parseYcsbSummary(readFileSync(join(import.meta.dirname, 'testdata/ycsb-run.out'), 'utf8'));

  it('reads the summary by section and metric', () => {
    expect(summary.OVERALL!['Throughput(ops/sec)']).toBeGreaterThan(0);
    expect(summary['Intended-READ']!.Operations).toBe(summary.READ!.Operations);
    expect(summary.READ!['Return=OK']).toBe(summary.READ!.Operations);
  });

  it('counts failures from -FAILED sections or non-OK returns', () => {
    expect(failedOperations(summary, 'READ')).toBe(0);
    expect(failedOperations({ READ: { 'Return=OK': 5, 'Return=SERVICE_UNAVAILABLE': 3, 'Return=NOT_FOUND': 1 } }, 'READ')).toBe(3);
    expect(failedOperations({ 'UPDATE-FAILED': { Operations: 4 } }, 'UPDATE')).toBe(4);
  });

  it("reads the binding's counters line", () => {
    expect(parseBindingCounters('x\n[replicant-binding] redirects=64 retries=2 reconnects=128\n')).toEqual({ redirects: 64, retries: 2, reconnects: 128 });
    expect(parseBindingCounters('nothing')).toBeNull();
  });
});
