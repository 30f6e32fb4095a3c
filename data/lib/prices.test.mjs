import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { parseCatalogue } from './prices.mjs';

const FILE = new URL('../prices/ec2-prices-us-east-1.csv', import.meta.url);

test('reads every instance of the kept catalogue, quoted notes and all', () => {
  const types = parseCatalogue(fs.readFileSync(FILE, 'utf8'));
  const m5 = types.find((t) => t.name === 'm5.2xlarge');
  assert.deepEqual(m5, { name: 'm5.2xlarge', vcpus: 8, memory_gib: 32, usd_per_hour: 0.384 });
  assert.ok(types.every((t) => t.vcpus > 0 && t.memory_gib > 0 && t.usd_per_hour > 0));
});

test('refuses a file with other leading columns', () => {
  assert.throws(() => parseCatalogue('name,cpus\nx,1\n'), /does not start with the expected columns/);
});

test('a short row is refused with the file and line', () => {
  const text = 'instance,vcpu,memory_gib,usd_per_hour_on_demand_linux\nm5.large,2,8,0.096\nm5.xlarge,4\n';
  assert.throws(() => parseCatalogue(text, 'prices.csv'), /^CsvError: prices\.csv, line 3: 2 fields; the header has 4$/);
});
