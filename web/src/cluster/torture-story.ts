// A torture run told to a student in a few sentences: what the seed drew, what Porcupine and
// the other checks found, and what durability had to do with it. Pure: the replay view draws
// these; tests read them.
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { TortureLive } from './cluster-protocol.ts';
import type { TortureDurability } from './torture-form.ts';
import { plural } from './plural.ts';

type Run = Omit<TortureLive, 'frame'>;

function ms(us: number): string {
  return `${Number((us / 1000).toFixed(1))} ms`;
}

function list(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

/** What the seed drew: the cluster, the clients' work and how long the faults last. */
export function drawnText(run: Run): string {
  const d = run.draw;
  const nodes = run.engines.map((e, i) => `n${i} ${languageOf(e)}`);
  return (
    `Seed ${run.seed} drew ${plural(run.engines.length, 'node')} (${nodes.join(', ')}), ` +
    `${plural(d.clients, 'client')} sending ${d.ops_per_client} operations each to ${d.keys.length === 1 ? 'key' : 'keys'} ${list(d.keys)}, ` +
    `and ${plural(run.faults.length, 'fault')} inside the first ${ms(d.fault_window_us)}. ` +
    `Then the network is whole and every node is up for ${ms(d.tail_us)}, and the cluster must answer its clients again.`
  );
}

/** What the checks found, in words; `suspects` are marked in the history shown beside it. */
export function verdictText(run: Run): string {
  const v = run.verdict;
  const others = run.problems.filter((p) => !p.startsWith('not linearizable') && !p.startsWith('Porcupine could not decide'));
  if (v.verdict === 'violation') {
    return (
      `Porcupine caught a violation. It looked for one order of the ${v.checked} operations it checked — each taking effect at ` +
      `a single moment between its call and its answer — that one copy of the store would produce, and found none for ` +
      `${v.violating_keys.length === 1 ? 'key' : 'keys'} ${list(v.violating_keys)}. ` +
      `The ${plural(v.suspect_operations.length, 'operation')} it could not place ${v.suspect_operations.length === 1 ? 'is' : 'are'} marked in the history.` +
      (others.length ? ` Other checks failed too: ${others.join('; ')}.` : '')
    );
  }
  if (v.verdict === 'unknown') return `Porcupine could not decide within its time limit.${others.length ? ` Other checks failed: ${others.join('; ')}.` : ''}`;
  if (others.length)
    return `Porcupine found an order for the client history (linearizable), but the run failed another check: ${others.join('; ')}.`;
  return `Porcupine found an order for the client history (linearizable), no acknowledged write was lost, and the cluster served again after the faults.`;
}

/** Why durability matters for this run. */
export function durabilityText(run: Run, durability: TortureDurability): string {
  const crashes = run.faults.filter((f) => f.kind === 'crash').length;
  const crashed = crashes === 0 ? 'No node crashes in this schedule, so durability does not come into it.' : null;
  switch (durability) {
    case 'none':
      return (
        'Durability none (the paper’s design): a crashed node restarts as an empty process. It has forgotten the promises it ' +
        'made and the entries it accepted, so it can help a new leader win a majority that never saw a chosen value, and ' +
        'that value is lost. ' +
        (crashed ?? (run.ok ? `This schedule has ${plural(crashes, 'crash', 'crashes')} but happened not to expose it.` : 'Run the same seed with durability log to compare.'))
      );
    case 'log':
      return (
        'Durability log: a node writes its promises and accepted entries to its disk before any message that reveals them ' +
        'leaves, and a crashed node restarts from that disk, so it forgets nothing it promised. ' +
        (crashed ?? (run.ok ? 'The same crashes now pass.' : 'This run failed a check all the same (see above).'))
      );
    case 'kept':
      return 'Here a crashed node comes back with its memory intact (an idealised node, the command line’s default). Choose none or log to restart it as a real process.';
  }
}
