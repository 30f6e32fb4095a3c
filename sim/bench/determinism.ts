// Node versus Chromium: the same seed and spec must give the same bytes — a step session's
// trace and a load run's result — for every engine whose wasm build is available, and for the
// fast mode. Ends with "N passed, M failed"; exit 1 on any difference.
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, RunSpec, StorageSpec } from '../src/api.ts';
import { createStepSession } from '../src/step/session.ts';
import { simulate } from '../src/run/simulate.ts';
import { availableEngines, provider } from '../src/cli/engines.ts';
import { ChromiumSim } from './chromium.ts';

function runSpec(engine: EngineName, fidelity: 'exact' | 'fast', storage?: StorageSpec): RunSpec {
  return {
    ...(storage ? { storage } : {}),
    cluster: { engines: [engine, engine, engine], seed: 42 },
    resources: { vcpus: 4, memory_gib: 5.2 },
    workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 200 },
    load: { mode: 'open', target_ops_per_s: 1500, duration_s: 1, warmup_s: 0.2 },
    fidelity,
  };
}

const STEP_CALLS: unknown[][] = [['run_until', 400_000], ['client', 0, 'put a 1'], ['client', 1, 'get a'], ['run_until', 600_000], ['crash', 2], ['run_until', 2_000_000], ['restart', 2], ['run_until', 2_500_000]];

async function main(): Promise<void> {
  const engines = await availableEngines();
  const provide = await provider(engines);
  const sim = await ChromiumSim.start();
  let passed = 0;
  let failed = 0;
  const check = (name: string, a: string, b: string) => {
    if (a === b) {
      passed++;
      console.log(`ok   ${name} (${a.length} bytes)`);
    } else {
      failed++;
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      console.log(`FAIL ${name}: first difference at byte ${i}: node …${a.slice(i, i + 80)}… chromium …${b.slice(i, i + 80)}…`);
    }
  };
  try {
    console.log(`engines: ${engines.join(', ')}; chromium ${await sim.browserVersion()}`);
    for (const e of engines) {
      // Step mode: the trace of a scripted session.
      const spec = { cluster: { engines: [e, e, e], seed: 7 } };
      const s = createStepSession(spec, provide);
      const nodeSnaps: unknown[] = [];
      for (const [method, ...args] of STEP_CALLS) {
        const before = s.trace().length;
        (s as unknown as Record<string, (...a: unknown[]) => unknown>)[method as string]!.apply(s, args);
        nodeSnaps.push(s.trace().slice(before));
      }
      const browser = (await sim.stepScript(spec, STEP_CALLS)) as { trace: unknown }[] | { error: string };
      if (!Array.isArray(browser)) throw new Error(`chromium step session failed: ${browser.error}`);
      check(`${e} step-session trace`, JSON.stringify(nodeSnaps), JSON.stringify(browser.slice(1).map((x) => x.trace)));
      // Load run, exact mode.
      const spec2 = runSpec(e, 'exact');
      const nodeRun = simulate(spec2, provide);
      const res = await sim.request({ type: 'run', id: 1, spec: spec2 });
      if (res.type !== 'run.result') throw new Error(`chromium run failed: ${JSON.stringify(res)}`);
      delete res.result.wall_ms; // wall-clock time is the one field outside the deterministic payload
      check(`${e} exact run result`, JSON.stringify(nodeRun), JSON.stringify(res.result));
      // Load run, exact mode, durability log: the engines' persists completed by the storage model.
      const spec4 = runSpec(e, 'exact', { durability: 'ordered', device: 'cloud_block' });
      const nodeDurable = simulate(spec4, provide);
      const res4 = await sim.request({ type: 'run', id: 3, spec: spec4 });
      if (res4.type !== 'run.result') throw new Error(`chromium run failed: ${JSON.stringify(res4)}`);
      delete res4.result.wall_ms;
      check(`${e} exact durable (ordered) run result`, JSON.stringify(nodeDurable), JSON.stringify(res4.result));
    }
    for (const e of ENGINE_NAMES) {
      const spec3 = runSpec(e, 'fast');
      const nodeRun = simulate(spec3, null);
      const res = await sim.request({ type: 'run', id: 2, spec: spec3 });
      if (res.type !== 'run.result') throw new Error(`chromium run failed: ${JSON.stringify(res)}`);
      delete res.result.wall_ms;
      check(`${e} fast run result`, JSON.stringify(nodeRun), JSON.stringify(res.result));
      const spec5 = runSpec(e, 'fast', { durability: 'scattered', device: 'local_nvme' });
      const nodeScattered = simulate(spec5, null);
      const res5 = await sim.request({ type: 'run', id: 4, spec: spec5 });
      if (res5.type !== 'run.result') throw new Error(`chromium run failed: ${JSON.stringify(res5)}`);
      delete res5.result.wall_ms;
      check(`${e} fast durable (scattered) run result`, JSON.stringify(nodeScattered), JSON.stringify(res5.result));
      // The approximate fast mode (run/cycle-repeat.ts), long enough to repeat where it can.
      const spec6: RunSpec = { ...runSpec(e, 'fast'), resources: { vcpus: 8, memory_gib: 6 }, load: { mode: 'open', target_ops_per_s: 20_000, duration_s: 8, warmup_s: 0.5 }, fidelity: 'fast-approx' };
      const nodeApprox = simulate(spec6, null);
      const res6 = await sim.request({ type: 'run', id: 5, spec: spec6 });
      if (res6.type !== 'run.result') throw new Error(`chromium run failed: ${JSON.stringify(res6)}`);
      delete res6.result.wall_ms;
      check(`${e} fast-approx run result (${nodeApprox.approximation ? `${nodeApprox.approximation.simulated_s} s of 8 simulated` : 'nothing repeated'})`, JSON.stringify(nodeApprox), JSON.stringify(res6.result));
    }
  } finally {
    await sim.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
