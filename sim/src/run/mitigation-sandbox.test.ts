import { describe, expect, it } from 'vitest';
import { CLIENT_ID_BASE, type Clients } from '../load/clients.ts';
import type { Network } from '../net/network.ts';
import { MitigationSandbox, type SandboxHost } from './mitigation-sandbox.ts';
import { EV, type Ev } from './events.ts';
import { newFastCluster } from './hosts.ts';
import type { SimNode } from './node-step.ts';

const ONE_WAY_US = 100;

/** Three nodes (node 0 leads), a network of fixed delay, a queue that keeps what is pushed. */
function rig(mode: 'blade' | 'mitmem', stoppedUntil_us = 0) {
  let now = 1000;
  const pushed: { t: number; ev: Ev }[] = [];
  const nodes = [0, 1, 2].map((id) => ({ id, host: {}, inc: 1, blade: 'idle', blade_drain_until_us: 0, runtime: { events: [], stoppedUntil_us: () => stoppedUntil_us } }) as unknown as SimNode);
  const threads = [{ id: 0, busy: true, request_id: 7, intended_us: 900, target: 0, busy_from: null }];
  const fastCluster = newFastCluster();
  fastCluster.leader = 0;
  const host: SandboxHost = {
    nodes,
    net: { arrival: (_from: number, _to: number, _bytes: number, at: number) => at + ONE_WAY_US } as unknown as Network,
    clients: () => ({ threads }) as unknown as Clients,
    fastCluster,
    exact: false,
    one_way_latency_us: ONE_WAY_US,
    now: () => now,
    push: (t, ev) => pushed.push({ t, ev }),
  };
  const box = new MitigationSandbox({ mode, collector: 'on', deadline_ms: 20 }, 1, 3, host);
  return { box, nodes, pushed, threads, advance: (t: number) => (now = t) };
}

describe('the mitigation sandbox', () => {
  it('BLADE: a follower asks the leader, waits for the permission, then collects', () => {
    const { box, nodes, pushed } = rig('blade');
    const f = nodes[1]!;
    expect(box.gate(f, 1000, { predicted_pause_ms: 5 } as never)).toBe(false);
    expect(f.blade).toBe('asked');
    expect(pushed).toEqual([{ t: 1000 + ONE_WAY_US, ev: { k: EV.blade_request, node: 1 } }]);
    box.requestArrives(1);
    expect(pushed[1]).toEqual({ t: 1000 + ONE_WAY_US, ev: { k: EV.blade_permission, node: 1 } });
    box.permissionArrives(f);
    expect(f.blade).toBe('granted');
    expect(box.gate(f, 1000, { predicted_pause_ms: 5 } as never)).toBe(true);
    expect(f.blade).toBe('collecting');
    expect(box.result()).toMatchObject({ gc_pending: 1, held_collections: 1, forced_collections: 0 });
  });
  it('BLADE: only f nodes collect at once; the next is granted when one is done', () => {
    const { box, nodes, pushed } = rig('blade');
    box.gate(nodes[1]!, 0, {} as never);
    box.gate(nodes[2]!, 0, {} as never);
    box.requestArrives(1);
    box.requestArrives(2);
    expect(pushed.filter((p) => p.ev.k === EV.blade_permission)).toHaveLength(1);
    nodes[1]!.blade = 'collecting';
    box.done(nodes[1]!);
    expect(nodes[1]!.blade).toBe('idle');
    expect(pushed.filter((p) => p.ev.k === EV.blade_permission).map((p) => (p.ev as { node: number }).node)).toEqual([1, 2]);
  });
  it('BLADE: a leader about to collect hands off to a peer and tells its clients who leads', () => {
    const { box, nodes, pushed, threads } = rig('blade');
    expect(box.gate(nodes[0]!, 0, {} as never)).toBe(false);
    expect(nodes[0]!.blade).toBe('handoff');
    expect(box.retries(nodes[0]!)).toBe(true);
    expect(pushed[0]!.ev).toMatchObject({ k: EV.blade_handoff, from: 0 });
    // the successor is not a fast host in this rig: nothing more happens
    box.handoffArrives(0, (pushed[0]!.ev as { to: number }).to, 0);
    expect(nodes[0]!.blade).toBe('idle');
    expect(threads[0]!.target).toBe(0);
  });
  it('MITMEM: a paused node answers busy when the rest of its pause outlasts the deadline left, and not when it is not paused', () => {
    const paused = rig('mitmem', 1000 + 60_000);
    expect(paused.box.busy(paused.nodes[0]!, CLIENT_ID_BASE, 7)).toBe(true);
    expect(paused.pushed[0]).toEqual({ t: 1000 + ONE_WAY_US, ev: { k: EV.reply, thread: 0, request_id: 7, result: 'busy', leader: undefined } });
    expect(paused.threads[0]!.busy_from).toBe(0);
    expect(paused.box.result().busy_replies).toBe(1);
    // another request id (an old one) is left alone
    expect(paused.box.busy(paused.nodes[0]!, CLIENT_ID_BASE, 6)).toBe(false);
    const running = rig('mitmem', 0);
    expect(running.box.busy(running.nodes[0]!, CLIENT_ID_BASE, 7)).toBe(false);
  });
});
