// Step throughput of the engines' wasm builds in Node: a 3-node cluster (one instance per
// node) elects a leader, then runs put commands with every message delivered at once,
// heartbeats every 100 commands. Prints steps per second per engine. A benchmark, not a test:
//
//   npm run bench:engines -- [--engines go,cpp,rust,java] [--commands 20000] [--value-bytes 500]
import { parseArgs } from 'node:util';
import { wasmNodeEngine } from '../../loader/node-loaders.ts';
import type { EngineName, SyncNode } from '../../loader/engine.ts';

const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'go,cpp,rust,java' },
    commands: { type: 'string', default: '20000' },
    'value-bytes': { type: 'string', default: '500' },
  },
});
const SEND = '{"type":"send","msg":';

async function bench(name: EngineName): Promise<void> {
  const engine = await wasmNodeEngine(name);
  const nodes: SyncNode[] = [0, 1, 2].map((id) => engine.createNode({ id, num_peers: 3, seed: id + 1, trace: false }));
  let steps = 0;
  const queue: [number, string][] = [];
  const run = (id: number, event: string) => {
    queue.push([id, event]);
    while (queue.length) {
      const [to, ev] = queue.shift()!;
      const out = nodes[to]!.step(ev);
      steps++;
      for (let i = 0; i < out.length; ) {
        const nl = out.indexOf('\n', i);
        if (out.startsWith(SEND, i)) {
          const msg = out.slice(i + SEND.length, nl - 1);
          const m = /"to":(\d+)/.exec(msg)!;
          queue.push([Number(m[1]), `{"type":"message","msg":${msg}}`]);
        }
        i = nl + 1;
      }
    }
  };
  for (let id = 0; id < 3; id++) run(id, '{"type":"start"}');
  run(0, '{"type":"timer","timer":"election"}');
  const value = 'v'.repeat(Number(values['value-bytes']));
  const n = Number(values.commands);
  steps = 0;
  const t0 = performance.now();
  for (let i = 1; i <= n; i++) {
    run(0, JSON.stringify({ type: 'client', client_id: 1, request_id: i, line: `put key${i % 1000} ${value}` }));
    if (i % 100 === 0) run(0, '{"type":"timer","timer":"commit"}');
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`${name} (wasm-node): ${n} commands, ${steps} steps in ${secs.toFixed(2)} s = ${Math.round(steps / secs)} steps/s`);
  console.log(`  leader stats: ${nodes[0]!.stats()}`);
  for (const node of nodes) node.destroy();
  engine.close();
}

for (const name of values.engines!.split(',')) await bench(name as EngineName);
