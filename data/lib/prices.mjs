// The EC2 price catalogue (data/prices/*.csv) as instance types, for the Cost view's picker; the
// cost model (cost-model/) reads the same file itself.
import { csvObjects } from './csv.mjs';

const LEADING_COLUMNS = ['instance', 'vcpu', 'memory_gib', 'usd_per_hour_on_demand_linux'];

export function parseCatalogue(text, source = 'price catalogue') {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (!header.startsWith(LEADING_COLUMNS.join(','))) {
    throw new Error('the price catalogue does not start with the expected columns');
  }
  return csvObjects(text, source).map((r) => ({
    name: r.instance,
    vcpus: Number(r.vcpu),
    memory_gib: Number(r.memory_gib),
    usd_per_hour: Number(r.usd_per_hour_on_demand_linux),
  }));
}
