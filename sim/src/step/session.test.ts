import { describe, expect, it, beforeAll } from 'vitest';
import type { EngineName } from '@replicant/engines/loader/engine';
import { availableEngines, provider } from '../cli/engines.ts';
import { createStepSession, type EngineProvider } from './session.ts';

let engines: EngineName[] = [];
let provide: EngineProvider;

beforeAll(async () => {
  engines = await availableEngines();
  provide = await provider(engines);
});

function bytes(s: ReturnType<typeof createStepSession>): string {
  return JSON.stringify(s.trace());
}

describe('step session', () => {
  it('finds at least the Go engine', () => {
    expect(engines).toContain('go');
  });

  it('same seed gives the same trace bytes, for every engine', () => {
    for (const name of engines) {
      const run = () => {
        const s = createStepSession({ cluster: { engines: [name, name, name], seed: 7 } }, provide);
        s.run_until(600_000);
        const leader = [0, 1, 2].find((i) => JSON.parse(s.inspect(i)).role === 'leader')!;
        s.client(leader, 'put k v');
        s.run_until(1_000_000);
        return bytes(s);
      };
      const a = run();
      expect(a).toBe(run());
      expect(a).toContain('\\"result\\":\\"ok\\"');
    }
  });

  it('elects a leader and executes a put from a cold start', () => {
    const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 1 } }, provide);
    s.run_until(500_000);
    const roles = [0, 1, 2].map((i) => JSON.parse(s.inspect(i)).role);
    expect(roles.filter((r: string) => r === 'leader')).toHaveLength(1);
    const leader = roles.indexOf('leader');
    s.client(leader, 'put a 1');
    s.run_until_quiet();
    expect(JSON.parse(s.inspect(leader)).kv.entries).toEqual([['a', '1']]);
  });

  it('rewind reproduces the state and trace at step N', () => {
    const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 3 } }, provide);
    s.run_until(500_000);
    s.client(1, 'put x 1');
    s.run_until(700_000);
    const n = Math.floor(s.steps_taken / 2) + 3;
    const fresh = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 3 } }, provide);
    fresh.run_until(500_000);
    fresh.client(1, 'put x 1');
    fresh.run_until(700_000);
    fresh.rewind(n);
    s.rewind(n);
    expect(s.steps_taken).toBe(n);
    expect(bytes(s)).toBe(bytes(fresh));
    expect([0, 1, 2].map((i) => s.inspect(i))).toEqual([0, 1, 2].map((i) => fresh.inspect(i)));
    // Rewind keeps the choices that led there; replaying them elsewhere rebuilds the same screen.
    const again = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 3 } }, provide) as unknown as { replay(c: string[]): void; trace(): unknown };
    again.replay(s.choices());
    expect(JSON.stringify(again.trace())).toBe(bytes(s));
  });

  it('delivers the messages of one link in the order they were sent (FIFO)', () => {
    const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 5 }, network: { jitter_us: 500 } }, provide);
    s.run_until(500_000);
    const leader = [0, 1, 2].find((i) => JSON.parse(s.inspect(i)).role === 'leader')!;
    const t0 = s.time_us;
    for (let i = 0; i < 20; i++) s.client(leader, `put k${i} v${i}`);
    s.run_until(t0 + 200);
    const perLink = new Map<string, number[]>();
    for (const p of s.pending()) {
      if (p.kind !== 'message') continue;
      const key = `${p.from}>${p.to}`;
      perLink.set(key, [...(perLink.get(key) ?? []), p.id]);
    }
    // Sorted by due time, each link's messages appear in id (= send) order.
    for (const ids of perLink.values()) expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(perLink.size).toBeGreaterThan(0);
  });

  it('loses messages over a cut link and heals', () => {
    const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 1 } }, provide);
    s.run_until(500_000);
    const leader = [0, 1, 2].find((i) => JSON.parse(s.inspect(i)).role === 'leader')!;
    const others = [0, 1, 2].filter((i) => i !== leader);
    for (const o of others) { s.cut(leader, o); s.cut(o, leader); }
    s.client(leader, 'put p 1');
    s.run_until(600_000);
    const notes = s.trace().flatMap((e) => e.notes).join('\n');
    expect(notes).toMatch(/lost \(link \d->\d is cut\)/);
    expect(JSON.parse(s.inspect(leader)).last_executed).toBe(0);
    // One-way cut: the followers still hear the leader, the leader no longer hears them.
    s.heal();
    s.cut(others[0]!, leader);
    s.run_until(2_000_000);
    expect(s.trace().some((e) => e.notes.some((n) => n.includes(`link ${others[0]}->${leader} is cut`)))).toBe(true);
  });

  it('deliver takes a pending client command by its id too (the deliver button of the Cluster view), and replays it', () => {
    const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 2 } }, provide);
    s.run_until(500_000);
    const leader = [0, 1, 2].find((i) => JSON.parse(s.inspect(i)).role === 'leader')!;
    const id = s.client(leader, 'put x 1');
    const entry = s.deliver(id);
    expect(entry?.event).toContain('put x 1');
    expect(s.pending().some((p) => p.id === id)).toBe(false);
    const again = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 2 } }, provide) as typeof s & { replay(c: string[]): void };
    again.replay(s.choices());
    expect(again.trace()).toEqual(s.trace());
  });

  it("check-quorum: a leader cut off from its followers' answers steps down and a new leader serves; the paper's mode stalls", () => {
    const run = (name: EngineName, check_quorum: boolean) => {
      const s = createStepSession({ cluster: { engines: [name, name, name], seed: 1, check_quorum } }, provide);
      s.run_until(500_000);
      const leader = [0, 1, 2].find((i) => JSON.parse(s.inspect(i)).role === 'leader')!;
      for (const o of [0, 1, 2].filter((i) => i !== leader)) s.cut(o, leader); // only its inbound
      const cutAt = s.time_us;
      s.run_until(cutAt + 1_500_000);
      const effects = s.trace().map((e) => e.effects).join('');
      const roles = [0, 1, 2].map((i) => JSON.parse(s.inspect(i)).role as string);
      return { leader, effects, roles };
    };
    for (const name of engines) {
      const fixed = run(name, true);
      expect(fixed.effects, name).toContain('"kind":"step_down"');
      expect(fixed.roles[fixed.leader], name).not.toBe('leader');
      expect(fixed.roles.filter((r) => r === 'leader'), name).toHaveLength(1);
      const paper = run(name, false);
      expect(paper.effects, name).not.toContain('"kind":"step_down"');
      expect(paper.roles[paper.leader], name).toBe('leader');
    }
  });

  it('drop, duplicate, crash and restart are recorded choices; bad input is a clear error', () => {
    const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 2 } }, provide);
    s.run_until(500_000);
    const leader = [0, 1, 2].find((i) => JSON.parse(s.inspect(i)).role === 'leader')!;
    s.client(leader, 'put d 1');
    s.next();
    const msg = s.pending().find((p) => p.kind === 'message')!;
    s.duplicate(msg.id);
    s.drop(msg.id);
    s.crash((leader + 1) % 3);
    expect(s.inspect((leader + 1) % 3)).toBe('null');
    s.restart((leader + 1) % 3);
    expect(s.choices().slice(-4)).toEqual([`dup ${msg.id}`, `drop ${msg.id}`, `crash ${(leader + 1) % 3}`, `restart ${(leader + 1) % 3}`]);
    expect(() => s.deliver(99999)).toThrow(/no pending message/);
    expect(() => s.crash(7)).toThrow(/no node n7/);
    expect(() => createStepSession({ cluster: { engines: [], seed: 1 } }, provide)).toThrow(/1\.\.15/);
    expect(() => createStepSession({ cluster: { engines: ['go'], seed: -1 } }, provide)).toThrow(/seed/);
  });

  describe('durability log: restart from disk, and a wiped restart', () => {
    type View = { role: string; ballot: number; last_executed: number; log: { index: number; ballot: number; command: { value?: string } }[]; kv: { entries: [string, string][] } };
    const view = (s: ReturnType<typeof createStepSession>, id: number) => JSON.parse(s.inspect(id)) as View;
    const leaderOf = (s: ReturnType<typeof createStepSession>) => [0, 1, 2].find((i) => s.inspect(i) !== 'null' && view(s, i).role === 'leader');
    // as the native servers: durable, with repair (and so state transfer) on
    const spec = (name: EngineName, durability: 'none' | 'log') => ({ cluster: { engines: [name, name, name], seed: 7, durability, repair_batch: 256 } });
    const elected = (durability: 'none' | 'log', name: EngineName) => {
      const s = createStepSession(spec(name, durability), provide);
      s.run_until(600_000);
      const leader = leaderOf(s)!;
      expect(leader).toBeDefined();
      s.client(leader, 'put k v1');
      s.run_until_quiet();
      return { s, leader };
    };

    it('writes the persisted records to the node\'s disk and brings them back on restart, on every engine alike', () => {
      const traces = new Set<string>();
      for (const name of engines) {
        const { s, leader } = elected('log', name);
        const follower = (leader + 1) % 3;
        expect(s.disk(follower).some((r) => r.startsWith('{"kind":"promise"'))).toBe(true);
        expect(s.disk(follower).some((r) => r.includes('"value":"v1"'))).toBe(true);
        const before = view(s, follower);
        s.crash(follower);
        expect(s.disk(follower).length).toBeGreaterThan(0); // a crash keeps the disk
        s.restart(follower);
        const after = view(s, follower);
        expect(after.ballot).toBe(before.ballot);
        expect(after.log.map((i) => [i.index, i.command.value])).toEqual(before.log.map((i) => [i.index, i.command.value]));
        expect(s.choices()).toContain(`restart ${follower}`);
        traces.add(bytes(s));
      }
      expect(traces.size).toBe(1);
    });

    it('a wiped restart forgets everything and rejoins; durability none restarts empty', () => {
      const { s, leader } = elected('log', 'go');
      const follower = (leader + 1) % 3;
      s.run_until(s.time_us + 1_000_000); // heartbeats: gle reaches index 1 and every node trims it
      expect(JSON.parse(s.inspect(leader)).global_last_executed).toBe(1);
      s.crash(follower);
      s.restartWiped(follower);
      expect(s.disk(follower)).toEqual([]);
      expect(view(s, follower).log).toEqual([]);
      expect(view(s, follower).ballot).toBe(0xf); // 0.-: round 0, no leader
      s.run_until(s.time_us + 2_000_000);
      expect(view(s, follower).kv.entries).toEqual([['k', 'v1']]);
      expect(s.trace().some((e) => e.node === follower && e.effects.includes('snapshot_installed'))).toBe(true); // by state transfer
      // replayed from its choices, the same session
      const again = createStepSession(spec('go', 'log'), provide);
      again.replay(s.choices());
      expect(bytes(again)).toBe(bytes(s));

      const none = elected('none', 'go');
      const f = (none.leader + 1) % 3;
      expect(none.s.disk(f)).toEqual([]);
      none.s.crash(f);
      none.s.restart(f);
      expect(view(none.s, f).log).toEqual([]);
    });
  });
});
