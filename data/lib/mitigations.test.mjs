import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMitigationValues, bladeTable7, TABLE7_PERCENTILES } from './mitigations.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'mitigations');
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
const blade = parseMitigationValues(read('blade-values.csv'), 'blade-values.csv');
const mitmem = parseMitigationValues(read('mitmem-values.csv'), 'mitmem-values.csv');

test('BLADE Table 7 comes out in the table layout, with p99.9 as the paper prints it', () => {
  const t = bladeTable7(blade);
  assert.deepEqual(t.map((r) => r.percentile), TABLE7_PERCENTILES);
  const p999 = t.find((r) => r.percentile === 'p99.9').cells.map((c) => [c.configuration, c.latency_ms]);
  assert.deepEqual(p999, [['BLADE', 0.62], ['GC-Off', 0.67], ['GC-On', 28.81]]);
  assert.equal(t.find((r) => r.percentile === 'p99.99').cells[0].printed, '0.70');
});

test('every percentile of Table 7 rises or stays level with the percentile (a typo check)', () => {
  for (const c of [0, 1, 2]) {
    const col = bladeTable7(blade).map((r) => r.cells[c].latency_ms);
    for (let i = 1; i < col.length; i++) assert.ok(col[i] >= col[i - 1], `column ${c}: ${col}`);
  }
});

test('Table 6 max and Table 7 top percentile agree for GC-On (95.969 vs 95.96)', () => {
  const max = blade.find((r) => r.id === 'table6-etcd-gc-on-set-latency-max').value;
  const top = blade.find((r) => r.id === 'table7-etcd-gc-on-latency-p99-9999').value;
  assert.ok(Math.abs(max - top) < 0.01);
});

test('qualifiers come out of the note: MITMEM’s “up to 99 %” is an upper bound', () => {
  const r = mitmem.find((x) => x.id === 'abstract-cassandra-mitmem-tail-reduction');
  assert.equal(r.qualifier, 'upper_bound');
  assert.equal(r.value, 99);
  assert.doesNotMatch(r.note, /qualifier=/);
  assert.equal(mitmem.find((x) => x.id === 'fig7d-prediction-error').value, 4);
});

test('a bad header, a unit-glued number or a missing Table 7 cell is an error, never a silent value', () => {
  assert.throws(() => parseMitigationValues('id,value\nx,1\n', 'f.csv'), /f\.csv: the header must be/);
  const text = read('blade-values.csv').replace(',0.62,ms,', ',0.62ms,ms,');
  assert.throws(() => parseMitigationValues(text, 'b.csv'), /b\.csv: row \d+: value "0\.62ms" is not a number/);
  assert.throws(() => bladeTable7(blade.filter((r) => r.id !== 'table7-etcd-gc-off-latency-p99-99')), /no GC-Off p99\.99/);
});
