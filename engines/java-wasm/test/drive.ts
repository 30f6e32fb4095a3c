// A scripted three-node run, used to compare builds of the Java core with each other: the
// same script through two engines must give the same lines. No Node-only imports: the
// WasmGC smoke test runs it inside Chromium too.
import type { SyncEngine, SyncNode } from '../../loader/engine.ts';

interface Pending {
  to: number;
  json: string;
}

/** Runs the script on `engine` and returns every effect and view, one line each. */
export function drive(engine: SyncEngine): string[] {
  const out: string[] = [];
  const nodes: SyncNode[] = [];
  const wire: Pending[] = [];
  const step = (id: number, event: string) => {
    const effects = nodes[id]!.step(event);
    for (const line of effects.split('\n')) {
      if (line === '') continue;
      out.push(`n${id}: ${line}`);
      const e = JSON.parse(line) as { type: string; msg?: { to: number } };
      if (e.type === 'send') wire.push({ to: e.msg!.to, json: line.slice('{"type":"send","msg":'.length, -1) });
    }
  };
  const deliverAll = (dropEvery = 0) => {
    for (let k = 1; wire.length > 0; k++) {
      const m = wire.shift()!;
      if (dropEvery > 0 && k % dropEvery === 0) continue; // lost on the way
      step(m.to, `{"type":"message","msg":${m.json}}`);
    }
  };
  const timer = (id: number, name: string) => step(id, `{"type":"timer","timer":"${name}"}`);
  let req = 0;
  const client = (id: number, line: string) =>
    step(id, JSON.stringify({ type: 'client', client_id: 7, request_id: ++req, line }));

  for (let id = 0; id < 3; id++) {
    nodes.push(engine.createNode({ id, num_peers: 3, seed: 40 + id, commit_interval_us: 20000, accept_timeout_ticks: 2 }));
    step(id, '{"type":"start"}');
  }
  timer(2, 'election');
  deliverAll();
  client(0, 'put x 1');
  for (let i = 0; i < 30; i++) client(2, i % 3 === 2 ? `del k${i - 1}` : `put k${i} value ${i} with spaces`);
  client(2, 'get k0');
  client(2, 'bad line');
  client(2, 'put caf\u00e9 1');
  deliverAll(7);
  for (let round = 0; round < 4; round++) {
    timer(2, 'commit');
    deliverAll(round === 0 ? 5 : 0);
  }
  // A new election from n0 takes over; the old leader's in-flight work is replayed.
  client(2, 'put late 1');
  timer(0, 'election');
  timer(0, 'election');
  deliverAll();
  timer(0, 'commit');
  deliverAll();
  step(1, '{"type":"message","msg":{"type":"prepare_request","from":1,"to":1,"channel_id":1,"ballot":257}}');
  step(1, '{"type":"start","x":1}');
  step(1, '{"type":"client","client_id":1,"request_id":1,"line":"get \\ud800"}');
  for (let id = 0; id < 3; id++) out.push(`n${id} inspect: ${nodes[id]!.inspect()}`);
  for (const n of nodes) n.destroy();
  return out;
}
