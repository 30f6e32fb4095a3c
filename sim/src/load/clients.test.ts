import { describe, expect, it } from 'vitest';
import { Prng } from '../core/prng.ts';
import { EV, type Ev } from '../run/events.ts';
import { wireSizes } from '../run/sizes.ts';
import { CLIENT_ID_BASE, Clients, clientIdOf, newClientThread, overdueOps, threadOfClient, type ClientSettings } from './clients.ts';

const settings = (over: Partial<ClientSettings> = {}): ClientSettings => ({
  exact: false,
  mode: 'open',
  threads: 4,
  target_ops_per_s: 4000, // 1000 per thread: a tick of 1 ms
  read_proportion: 0.5,
  distribution: 'zipfian',
  record_count: 1000,
  engine_records: 0,
  key_bytes: 23,
  value_bytes: 500,
  warmup_s: 0.01,
  duration_s: 0.01,
  drain_s: 1,
  retry_backoff_us: 10_000,
  request_timeout_us: 2_000_000,
  ...over,
});

/** A run with a clock and a queue and nothing else: each request is answered `latency_us`
 * after it is sent, by hand. */
function harness(s: ClientSettings, stop_us?: number) {
  let now = 0;
  const queue: { t: number; ev: Ev }[] = [];
  const c = new Clients(s, wireSizes(s.key_bytes, s.value_bytes), { now: () => now, push: (t, ev) => queue.push({ t, ev }), arrival: (_f, _t, _b, at) => at + 100, incarnation: () => 1, node_count: 3 }, new Prng(1, 2), new Prng(1, 3), stop_us, 5_000, null);
  /** Runs the clients alone, every request answered after `latency_us`. */
  const drive = (latency_us: number, until_us: number) => {
    for (;;) {
      queue.sort((a, b) => a.t - b.t);
      const next = queue[0];
      if (!next || next.t > until_us) {
        now = until_us;
        break;
      }
      queue.shift();
      now = next.t;
      const ev = next.ev;
      if (ev.k === EV.op_start) c.startOp(c.threads[ev.thread]!);
      else if (ev.k === EV.arrival && ev.kind === 'client') queue.push({ t: now + latency_us, ev: { k: EV.reply, thread: threadOfClient(ev.client_id, s.threads)!, request_id: ev.request_id, result: 'ok', leader: undefined } });
      else if (ev.k === EV.reply) c.onReply(c.threads[ev.thread]!, ev.request_id, ev.result, ev.leader);
      if (c.windowDone(now) || c.stoppedEarly) break;
    }
    return now;
  };
  return { c, drive, queue };
}

describe('client ids', () => {
  it('a thread and its client id map both ways; ids outside the threads map to none', () => {
    expect(clientIdOf(0)).toBe(CLIENT_ID_BASE);
    expect(threadOfClient(clientIdOf(63), 64)).toBe(63);
    expect(threadOfClient(clientIdOf(64), 64)).toBeNull();
    expect(threadOfClient(0, 64)).toBeNull(); // a node id is no client
    expect(newClientThread(5, 2)).toMatchObject({ id: 5, client_id: clientIdOf(5), target: 2, busy: false });
  });
});

describe('overdueOps', () => {
  it('counts the unfinished window operations intended before the bound', () => {
    const t = newClientThread(0, 0);
    t.schedule_start_us = 0;
    t.ops_done = 3; // operations 0, 1, 2 are done
    // tick 10: operations 0..9 intended in [0, 100); window [20, 100): 2..9; 3..9 unfinished
    expect(overdueOps([t], 10, 20, 100)).toBe(7);
    expect(overdueOps([t], 10, 20, 55)).toBe(3); // 3, 4, 5
    expect(overdueOps([t], 10, 20, 20)).toBe(0);
    t.ops_done = 0;
    expect(overdueOps([t], 10, 20, 55)).toBe(4); // 2, 3, 4, 5 (0 and 1 before the window)
  });
});

describe('Clients', () => {
  it('open loop: every window operation is measured from its intended start', () => {
    const h = harness(settings());
    h.c.begin();
    expect(h.queue.filter((q) => q.ev.k === EV.op_start)).toHaveLength(4);
    h.drive(300, 1e6);
    // 4 threads × 10 ticks of 1 ms in the 10 ms window, each answered 300 µs after it was sent
    // (+100 µs on the way there)
    expect(h.c.completedInWindow).toBe(40);
    expect(h.c.hist.read.count + h.c.hist.update.count).toBe(40);
    expect(h.c.allLatencies().summary().p99_us).toBeGreaterThanOrEqual(399);
    expect(h.c.allLatencies().summary().p99_us).toBeLessThanOrEqual(401);
    expect(h.c.windowDone(h.c.measureTo_us)).toBe(true);
  });

  it('a stalled system cannot hide its backlog: unfinished window operations are censored at the stop', () => {
    const h = harness(settings());
    h.c.begin();
    const stop = h.drive(50_000, 25_000); // answers take 50 ms: nothing of the window comes back by 25 ms
    h.c.censorUnfinished(stop);
    expect(h.c.completedInWindow).toBe(0);
    expect(h.c.hist.read.count + h.c.hist.update.count).toBe(40);
    expect(h.c.overCount).toBeGreaterThan(0); // slower than count_over_us (5 ms)
  });

  it('an SLO probe stops once its backlog decides the p99', () => {
    const h = harness(settings({ duration_s: 1 }), 1_000);
    h.c.begin();
    let now = 0;
    for (let i = 0; i < 50 && !h.c.stoppedEarly; i++) {
      now = h.drive(1e9, now + 20_000); // nothing is ever answered
      h.c.checkDecided();
    }
    expect(h.c.stoppedEarly).toBe(true);
  });

  it('a redirect sends the operation to the leader named; retry waits the back-off', () => {
    const h = harness(settings());
    h.c.begin();
    const t = h.c.threads[1]!;
    h.drive(1e9, t.schedule_start_us); // thread 1 has sent its first request
    const sent = t.request_id;
    h.c.onReply(t, sent, 'leader_is', 2);
    expect(t.target).toBe(2);
    expect(t.request_id).toBe(sent + 1);
    h.c.onReply(t, sent + 1, 'retry', undefined);
    expect(h.queue.some((q) => q.ev.k === EV.resend && q.t === t.schedule_start_us + 10_000)).toBe(true);
  });
});
