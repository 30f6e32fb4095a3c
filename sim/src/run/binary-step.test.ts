// The exact host through the engines' binary step (docs/protocol.md, "Binary step") against
// the same host on canonical JSON: the same spec and seed must give the same run, byte for
// byte — sizes on the wire, puts, replies and all. In the mixed cluster Go's binary step is
// taken away, so binary messages reach a JSON peer and JSON messages a binary one.
import { describe, expect, it } from 'vitest';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { RunSpec } from '../api.ts';
import { provider } from '../cli/engines.ts';
import { simulate } from './simulate.ts';

const spec = (engines: EngineName[]): RunSpec => ({
  cluster: { engines, seed: 5 },
  resources: { vcpus: 4, memory_gib: 32 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 100 },
  load: { mode: 'open', target_ops_per_s: 2000, duration_s: 1, warmup_s: 0.3 },
  fidelity: 'exact',
});

/** The real engines, counting their binary steps, or with the binary step taken away. */
function engines(base: (name: EngineName) => SyncEngine, binaryOn: readonly EngineName[], counter: { binarySteps: number }) {
  return (name: EngineName): SyncEngine => {
    const e = base(name);
    const binary = binaryOn.includes(name);
    return {
      ...e,
      createNode(config) {
        const node = e.createNode(config);
        const { stepBinary } = node;
        if (!binary || !stepBinary) return { step: (ev) => node.step(ev), inspect: () => node.inspect(), stats: () => node.stats(), destroy: () => node.destroy() };
        return {
          step: (ev) => node.step(ev),
          stepBinary: (ev) => {
            counter.binarySteps++;
            return stepBinary.call(node, ev);
          },
          inspect: () => node.inspect(),
          stats: () => node.stats(),
          destroy: () => node.destroy(),
        };
      },
    };
  };
}

describe('the exact host on the binary step', () => {
  const cases: [EngineName[], EngineName[]][] = [
    [['rust', 'rust', 'rust'], ['rust']],
    [['cpp', 'cpp', 'cpp'], ['cpp']],
    [['go', 'go', 'go'], ['go']],
    [['java', 'java', 'java'], ['java']],
    [['rust', 'go', 'cpp'], ['rust', 'cpp']],
  ];
  for (const [cluster, binaryOn] of cases) {
    it(`gives the run JSON gives (${cluster.join(', ')}; binary: ${binaryOn.join(', ')})`, async () => {
      const base = await provider(cluster);
      const counted = { binarySteps: 0 };
      const viaBinary = JSON.stringify(simulate(spec(cluster), engines(base, binaryOn, counted)));
      expect(counted.binarySteps).toBeGreaterThan(2000); // the binary path really ran
      const viaJson = JSON.stringify(simulate(spec(cluster), engines(base, [], { binarySteps: 0 })));
      expect(viaBinary).toBe(viaJson);
      expect(JSON.parse(viaBinary).achieved_ops_per_s).toBeGreaterThan(1900);
    });
  }
});
