// npm run cluster:load-memory -- --engine rust --variants a=PATH,b=PATH[,…] [--repetitions 3]
//                               [--records 100000] [--value-bytes 510] [--clients 64] [--out FILE.jsonl]
// What each node of a 3-node cluster holds while it loads records, per server variant (issue 16:
// Rust followers peaked at twice the store in the benchmark's load phase). For each repetition
// and variant (order rotated each repetition), one cluster (that server binary on all three
// nodes, through REPLICANT_SERVER_<ENGINE>; durability none) takes `records` puts of
// `value-bytes` from `clients` connections as fast as it answers; then each node's peak and
// current resident memory (/proc VmHWM, VmRSS), its role, elections and dropped peer messages
// (its last status line) are printed with the load time and the load average. The default
// value size makes 100,000 records about the benchmark's 52.3 MB of YCSB data.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { ReplicantClient, waitUntil } from './client.ts';
import { eachVariantRotated, parseVariants, type ServerVariant } from './server-variants.ts';

interface NodeMemory {
  node: number;
  role: string;
  hwm_mib: number;
  rss_mib: number;
  elections: number | null;
  dropped_sends: number | null;
}

interface LoadRun {
  variant: string;
  repetition: number;
  load_s: number;
  load_avg_1m: number;
  nodes: NodeMemory[];
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;

/** VmHWM and VmRSS of a process, in KiB. */
function residentKib(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { hwm: field('VmHWM'), rss: field('VmRSS') };
}

/** The last status line of a node log, parsed; {} when it has none. */
function lastStatus(log: string): Record<string, unknown> {
  const line = log.split('\n').filter((l) => l.includes('status {')).pop();
  if (!line) return {};
  try {
    return JSON.parse(line.slice(line.indexOf('status {') + 'status '.length)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function loadOnce(engine: EngineName, records: number, valueBytes: number, clients: number): Promise<Omit<LoadRun, 'variant' | 'repetition'>> {
  const cluster = await NativeCluster.start({ engines: [engine, engine, engine], durability: 'none' });
  try {
    const value = 'v'.repeat(valueBytes);
    let next = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        const client = new ReplicantClient(cluster.config.clients, { timeoutMs: 10_000 });
        try {
          while (next < records) await client.request(`put user${next++} ${value}`, 120_000);
        } finally {
          client.close();
        }
      }),
    );
    const load_s = (Date.now() - t0) / 1000;
    // Each node's next status line (once a second) tells its role and counters after the load.
    const statusLines = (node: number) => readFileSync(cluster.logPath(node), 'utf8').split('status {').length;
    const atLoadEnd = cluster.processes.map((_, node) => statusLines(node));
    await waitUntil(() => atLoadEnd.every((n, node) => statusLines(node) > n), 5000);
    const load_avg_1m = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
    const nodes = cluster.processes.map((p, node): NodeMemory => {
      const { hwm, rss } = residentKib(p!.pid!);
      const st = lastStatus(readFileSync(cluster.logPath(node), 'utf8'));
      const num = (v: unknown) => (typeof v === 'number' ? v : null);
      return { node, role: String(st.role ?? '?'), hwm_mib: mib(hwm), rss_mib: mib(rss), elections: num(st.elections), dropped_sends: num(st.dropped_sends) };
    });
    return { load_s, load_avg_1m, nodes };
  } finally {
    await cluster.stop();
  }
}

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'rust' },
    variants: { type: 'string' },
    repetitions: { type: 'string', default: '3' },
    records: { type: 'string', default: '100000' },
    'value-bytes': { type: 'string', default: '510' },
    clients: { type: 'string', default: '64' },
    out: { type: 'string' },
  },
});
const engine = values.engine as EngineName;
if (!ENGINE_NAMES.includes(engine)) fail(`unknown engine ${JSON.stringify(engine)}; choose from ${ENGINE_NAMES.join(', ')}`);
let variants: ServerVariant[] = [];
try {
  variants = parseVariants(values.variants, 1);
} catch (e) {
  fail((e as Error).message);
}
const [repetitions, records, valueBytes, clients] = [values.repetitions, values.records, values['value-bytes'], values.clients].map(Number) as [number, number, number, number];
if (![repetitions, records, valueBytes, clients].every((n) => Number.isInteger(n) && n >= 1))
  fail('--repetitions, --records, --value-bytes and --clients must be positive integers');

const runs: LoadRun[] = [];
await eachVariantRotated(engine, variants, repetitions, async (v, repetition) => {
  const run: LoadRun = { variant: v.name, repetition, ...(await loadOnce(engine, records, valueBytes, clients)) };
  runs.push(run);
  console.log(JSON.stringify(run));
  if (values.out) writeFileSync(values.out, runs.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
