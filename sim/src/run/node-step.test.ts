import { describe, expect, it } from 'vitest';
import { CpuPool } from '../models/cpu.ts';
import { ManualMemory, type RuntimeModel } from '../models/runtime.ts';
import { acceptResponseBytes, FastHost, type FastMsg, type NodeEvent } from './hosts.ts';
import { isUpdate, opEntering, runtimeSettings, servableOpsPerS, stepAcceptRequest, stepNode, stepQuietVote, type SimNode, type StepTiming } from './node-step.ts';
import { resolveSpec } from './spec.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import { cpuCosts, type CpuCosts } from '../models/node-model.ts';
import { wireSizes } from './sizes.ts';

const sizes = wireSizes(23, 500);
const cpu = { in_us: 10, timer_us: 2, step_us: 5, out_us: 3, per_kib_us: 0 };
const alloc = { leader_bytes_per_read_op: 100, leader_bytes_per_update_op: 700, follower_bytes_per_read_op: 50, follower_bytes_per_update_op: 600, allocs_per_event: 0 };

function node(id: number, runtime: RuntimeModel = new ManualMemory(1, 2, 0), costs: CpuCosts = cpu): SimNode {
  const pool = new CpuPool(2, 1e6);
  return { id, engine: 'cpp', host: new FastHost(id, 3, 1000, sizes), inc: 1, pool, runtime, cpu: costs, alloc, opsEntered: 0, steppedTo_us: 0, ahead: false, queued: [], allocatedBytes: 0, timerGen: { election: 0, commit: 0 }, crashed_at_us: null, heapSamples: [], blade: 'idle', blade_drain_until_us: 0, disk: null };
}
const put: NodeEvent = { kind: 'client', client_id: 1000, request_id: 1, op: 'update', line: '', bytes: 600 };

describe('stepNode', () => {
  it("a leader's client command: accept requests leave after the work and the serialized step", () => {
    const n = node(0);
    const tm: StepTiming = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
    const out = stepNode(n, put, 100, false, null, 1e6, tm)!;
    expect(out.filter((o) => o.kind === 'send' && o.type === 'accept_request')).toHaveLength(2);
    // in 10, then the step 5 under the mutex, then two sends of 3 each
    expect(tm).toEqual({ ser_start_us: 110, ser_end_us: 115, send_at_us: 121 });
    expect(n.opsEntered).toBe(1);
    expect(n.allocatedBytes).toBe(700);
  });

  it('the load phase allocates nothing (the memory model holds the records already)', () => {
    const n = node(0);
    stepNode(n, put, 0, true, null, 1e6, { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 });
    expect(n.opsEntered).toBe(0);
    expect(n.allocatedBytes).toBe(0);
  });

  it('a process over its memory limit takes no step: the caller crashes it', () => {
    const n = node(0, new ManualMemory(3, 2, 0));
    expect(stepNode(n, put, 0, false, null, 1e6, { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 })).toBeNull();
  });

  it("updates reach a runtime that counts them (G1's hook), reads do not", () => {
    let updates = 0;
    const counting: RuntimeModel = Object.assign(new ManualMemory(1, 2, 0), { onUpdate: () => void updates++ });
    const n = node(0, counting);
    const tm = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
    stepNode(n, put, 0, false, null, 1e6, tm);
    stepNode(n, { ...put, request_id: 2, op: 'read' }, 0, false, null, 1e6, tm);
    expect(updates).toBe(1);
  });
});

describe('stepAcceptRequest', () => {
  it("takes a follower's accept step as stepNode does: the same answer, CPU, allocation and heap samples", () => {
    const plain = node(1);
    const known = node(1);
    const updates: number[] = [0, 0];
    plain.runtime = Object.assign(new ManualMemory(1, 2, 0.5), { onUpdate: () => void updates[0]!++ });
    known.runtime = Object.assign(new ManualMemory(1, 2, 0.5), { onUpdate: () => void updates[1]!++ });
    const c = { ...cpu, per_kib_us: 0.7 };
    const a = { ...alloc, allocs_per_event: 3 };
    for (const n of [plain, known]) Object.assign(n, { cpu: c, alloc: a });
    const tmPlain: StepTiming = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
    const tmKnown: StepTiming = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
    // back to back, so the cores and the mutex queue up
    for (let i = 0; i < 40; i++) {
      const update = i % 3 !== 0;
      const bytes = update ? sizes.update.accept_request : sizes.read.accept_request;
      const at = 100 + i * 2.5;
      const accept: NodeEvent = { kind: 'message', from: 0, type: 'accept_request', payload: { index: i + 1, op: update ? 'update' : 'read' }, bytes, update };
      const out = stepNode(plain, accept, at, false, null, 10, tmPlain)!;
      expect(out).toEqual([{ kind: 'send', to: 0, type: 'accept_response', payload: accept.payload, bytes: acceptResponseBytes(sizes), update: false }]);
      expect(stepAcceptRequest(known, bytes, update, acceptResponseBytes(sizes), at, false, 10, tmKnown)).toBe(true);
      expect(tmKnown).toEqual(tmPlain);
    }
    for (const k of ['opsEntered', 'allocatedBytes', 'heapSamples'] as const) expect(known[k]).toEqual(plain[k]);
    expect(known.pool.usage.busy).toEqual(plain.pool.usage.busy);
    expect(updates[1]).toBe(updates[0]);
    expect(updates[0]).toBeGreaterThan(0);
  });

  it('a process over its memory limit takes no step', () => {
    const n = node(1, new ManualMemory(3, 2, 0));
    expect(stepAcceptRequest(n, 100, true, 50, 0, false, 1e6, { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 })).toBe(false);
    expect(n.opsEntered).toBe(0);
  });
});

describe('stepQuietVote', () => {
  it("takes the leader's vote after the majority as stepNode does: no effects, the same CPU, runtime charge and heap samples", () => {
    const plain = node(0);
    const quiet = node(0);
    plain.runtime = new ManualMemory(1, 2, 0.5);
    quiet.runtime = new ManualMemory(1, 2, 0.5);
    const c = { ...cpu, per_kib_us: 0.7 };
    const a = { ...alloc, allocs_per_event: 3 };
    for (const n of [plain, quiet]) Object.assign(n, { cpu: c, alloc: a });
    const tmPlain: StepTiming = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
    const tmQuiet: StepTiming = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
    const bytes = acceptResponseBytes(sizes);
    let quietVotes = 0;
    // back to back, so the cores and the mutex queue up
    for (let i = 0; i < 40; i++) {
      const at = 100 + i * 4;
      const cmd: NodeEvent = { ...put, request_id: i + 1, op: i % 3 === 0 ? 'read' : 'update' };
      const sent = stepNode(plain, cmd, at, false, null, 10, tmPlain)!;
      stepNode(quiet, cmd, at, false, null, 10, tmQuiet);
      const payload = (sent.find((o) => o.kind === 'send')! as { payload: FastMsg }).payload;
      for (const [from, dt] of [[1, 1], [2, 1.5]] as const) {
        const vote: NodeEvent = { kind: 'message', from, type: 'accept_response', payload, bytes, update: false };
        const out = stepNode(plain, vote, at + dt, false, null, 10, tmPlain)!;
        const host = quiet.host as FastHost;
        if (host.voteChangesNothing(payload)) {
          quietVotes++;
          expect(out).toEqual([]);
          expect(stepQuietVote(quiet, bytes, false, at + dt, 10, tmQuiet)).toBe(true);
        } else {
          expect(out).toEqual(stepNode(quiet, vote, at + dt, false, null, 10, tmQuiet));
        }
        expect(tmQuiet).toEqual(tmPlain);
      }
    }
    // three nodes: the first vote commits, the second changes nothing
    expect(quietVotes).toBe(40);
    for (const k of ['opsEntered', 'allocatedBytes', 'heapSamples'] as const) expect(quiet[k]).toEqual(plain[k]);
    expect(quiet.pool.usage.busy).toEqual(plain.pool.usage.busy);
    expect(quiet.pool.mutex_free_us).toBe(plain.pool.mutex_free_us);
  });

  it('a vote that still counts (five nodes, below the majority) or commits is not quiet', () => {
    const host = new FastHost(0, 5, 1000, sizes);
    const out = host.step(put);
    const payload = (out.find((o) => o.kind === 'send')! as { payload: FastMsg }).payload;
    const vote: NodeEvent = { kind: 'message', from: 1, type: 'accept_response', payload, bytes: 10, update: false };
    expect(host.voteChangesNothing(payload)).toBe(false);
    host.step(vote); // 2 of 3
    expect(host.voteChangesNothing(payload)).toBe(false);
    expect(host.step({ ...vote, from: 2 }).map((o) => o.kind)).toEqual(['reply']); // 3 of 3: commits
    expect(host.voteChangesNothing(payload)).toBe(true);
    expect(host.voteChangesNothing({ index: 99, op: 'read' })).toBe(true); // not proposed here
  });

  it('a process over its memory limit takes no step', () => {
    expect(stepQuietVote(node(0, new ManualMemory(3, 2, 0)), 10, false, 0, 1e6, { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 })).toBe(false);
  });
});

describe('opEntering', () => {
  it('a command the leader proposes, and a follower accept, enter the log; a redirect does not', () => {
    expect(opEntering(put, [{ kind: 'send', to: 1, type: 'accept_request', payload: { index: 1, op: 'update' }, bytes: 1, update: true }])).toEqual({ role: 'leader', op: 'update' });
    expect(opEntering(put, [{ kind: 'reply', client_id: 1000, request_id: 1, result: 'leader_is', leader: 0, bytes: 12 }])).toBeNull();
    const accept: NodeEvent = { kind: 'message', from: 0, type: 'accept_request', payload: { index: 1, op: 'read' }, bytes: 40, update: false };
    expect(opEntering(accept, [])).toEqual({ role: 'follower', op: 'read' });
    expect(isUpdate(put)).toBe(true);
    expect(isUpdate(accept)).toBe(false);
  });
});

describe('runtimeSettings', () => {
  const spec = (mode: 'open' | 'closed', target_ops_per_s: number, vcpus = 1 / 3) =>
    resolveSpec({
      cluster: { engines: ['cpp', 'cpp', 'cpp'], seed: 1 },
      resources: { vcpus, memory_gib: 0.11 },
      workload: { name: 'A', read_proportion: 0.5, record_count: 100_000, value_bytes: 500, distribution: 'zipfian' },
      load: { mode, target_ops_per_s, duration_s: 10 },
      fidelity: 'fast',
    }, DEFAULT_CARD);
  const cpp = cpuCosts(DEFAULT_CARD, 'cpp');

  it("sizes a closed loop's log at what the node can serve, not at the search's 200,000 ops/s ceiling", () => {
    // was ceil(200,000 x 2 x 0.15) + 64 = 60,064 instances (54 MB at 900 B each) per node
    const servable = (1e6 / 3) / (cpp.in_us + cpp.step_us + cpp.out_us);
    expect(servableOpsPerS(spec('closed', 200_000), cpp)).toBeCloseTo(servable, 6);
    expect(runtimeSettings(spec('closed', 200_000), 'cpp').log_instances).toBe(Math.ceil(servable * 2 * 0.15) + 64);
    expect(runtimeSettings(spec('closed', 200_000), 'cpp').log_instances).toBeLessThan(60_064);
  });

  it('keeps the offered rate when the node can serve it (open loop below its bound)', () => {
    expect(runtimeSettings(spec('open', 1000), 'cpp').log_instances).toBe(Math.ceil(1000 * 2 * 0.15) + 64);
  });

  it("takes the costs from the run's card", () => {
    const card = structuredClone(DEFAULT_CARD);
    for (const k of ['in_us', 'step_us', 'out_us']) card.parameters[`cpu.cpp.${k}`]!.value = 2 * (card.parameters[`cpu.cpp.${k}`]!.value as number);
    const s = { ...spec('closed', 200_000), original: { ...spec('closed', 200_000).original, model_card: card } };
    expect(servableOpsPerS(s, cpuCosts(card, 'cpp'))).toBeCloseTo(servableOpsPerS(spec('closed', 200_000), cpp) / 2, 6);
    expect(runtimeSettings(s, 'cpp').log_instances).toBe(Math.ceil(servableOpsPerS(s, cpuCosts(card, 'cpp')) * 2 * 0.15) + 64);
  });

  it('caps at the Log mutex on many cores: one step per operation at least', () => {
    expect(servableOpsPerS(spec('closed', 10_000_000, 64), cpp)).toBeCloseTo(1e6 / cpp.step_us, 6);
  });
});
