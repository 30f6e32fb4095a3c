// A real Cluster-view run whose client history Porcupine cannot check quickly, for the test of
// the check's time limit (linearizability.spec.ts) and for measuring it in Node
// (bench/porcupine-slow-run.ts). Three Go nodes, seed 7, durability none:
//   1. a put and a get of "color", one after the other (a small history, decided at once);
//   2. `writers` puts of one key "k", each from its own client, sent to the leader at the same
//      moment, with `readers` gets of "k" among them: all overlap, all are answered;
//   3. every node crashes and comes back empty; a get of "k" answers not_found.
// Step 3 is a violation (acknowledged puts lost), but Porcupine only knows it once it has tried
// every order of the overlapping operations of step 2 (its cache keeps one entry per set of
// operations placed and value held): exponential in `writers`.
import { createStepSession, type StepSession } from '@replicant/sim';
import { provider } from '@replicant/sim/cli/engines';

function leaderOf(s: StepSession): number {
  for (let id = 0; id < 3; id++) if ((JSON.parse(s.inspect(id)) as { role: string }).role === 'leader') return id;
  throw new Error('no leader');
}

/** Fires the first due timer until a leader is elected. */
export function elect(s: StepSession): number {
  for (let i = 0; i < 20; i++) {
    s.next(); // the first due event: an election timer on a quiet cluster
    s.run_until_quiet();
    try {
      return leaderOf(s);
    } catch {
      // not yet
    }
  }
  throw new Error('no leader after 20 elections');
}

export interface SlowRun {
  session: StepSession;
  /** the step at which step 1 (the small history) is complete */
  small_step: number;
}

export async function slowRun(writers: number, readers: number): Promise<SlowRun> {
  if (!Number.isInteger(writers) || writers < 2 || !Number.isInteger(readers) || readers < 0 || readers > writers)
    throw new Error(`slowRun needs 2 or more writers and 0 to writers readers, got ${writers} and ${readers}`);
  const s = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 7 } }, await provider(['go']));
  let leader = elect(s);
  s.client(leader, 'put color blue');
  s.run_until_quiet();
  s.client(leader, 'get color');
  s.run_until_quiet();
  const small_step = s.choices().length;
  for (let i = 0; i < writers; i++) {
    s.client(leader, `put k v${i}`);
    if (i < readers) s.client(leader, 'get k');
  }
  s.run_until_quiet();
  for (let id = 0; id < 3; id++) s.crash(id);
  for (let id = 0; id < 3; id++) s.restart(id);
  leader = elect(s);
  s.client(leader, 'get k');
  s.run_until_quiet();
  return { session: s, small_step };
}
