// A torture run as one line of text, for the lab's address: the Cluster view opens the run a
// failure printed (`npm run torture` prints the address beside its replay command) and plays it.
// The line names everything `--replay` needs: the engine choice, the seed, the kept faults and
// the operation limit of a shrunk failure, and the cores' options. Pure: no I/O.
//
//   go:12                     seed 12, every node Go, the whole schedule
//   all:7;keep=0,3;ops=4      a shrunk failure: faults #0 and #3 only, 4 operations per client
//   rust:5;amnesia;check-quorum;repair=256;election=256
//   cpp:9;durability=log
//   rust:3;repair=256;election=256;log-bound=64;mitigation=blade
import { isEngineName, type EngineName } from '@replicant/engines/loader/catalogue';
import { drawScenario, shrunk, type DrawOptions, type Scenario } from './scenario.ts';

export interface ReplaySpec {
  engine: EngineName | 'all';
  seed: number;
  /** the seed's faults kept (a shrunk failure); null: all of them */
  keep_faults: number[] | null;
  /** operations per client at most; null: as drawn */
  ops: number | null;
  amnesia: boolean;
  /** crashes restart the process: none (empty core) or log (from its persisted batches); null:
   * a crashed node keeps its state */
  durability: 'none' | 'log' | null;
  check_quorum: boolean;
  repair: number;
  election: number;
  /** the cores checkpoint (snapshot_every drawn per seed; torture --checkpoints) */
  checkpoints?: boolean;
  /** the cores' log bound (torture --log-bound; needs repair and election); absent: none */
  log_bound?: number;
  /** the cores' GC mitigation (torture --mitigation blade); absent: none */
  mitigation?: 'blade';
}

export class ReplaySpecError extends Error {}

/** The largest seed a run may name (the CLI's --from and --replay take the same range). */
export const MAX_SEED = 2 ** 40;

export function formatReplaySpec(r: ReplaySpec): string {
  const parts = [`${r.engine}:${r.seed}`];
  if (r.keep_faults) parts.push(`keep=${r.keep_faults.join(',')}`);
  if (r.ops !== null) parts.push(`ops=${r.ops}`);
  if (r.amnesia) parts.push('amnesia');
  if (r.durability) parts.push(`durability=${r.durability}`);
  if (r.check_quorum) parts.push('check-quorum');
  if (r.repair) parts.push(`repair=${r.repair}`);
  if (r.election) parts.push(`election=${r.election}`);
  if (r.checkpoints) parts.push('checkpoints');
  if (r.log_bound) parts.push(`log-bound=${r.log_bound}`);
  if (r.mitigation) parts.push(`mitigation=${r.mitigation}`);
  return parts.join(';');
}

function int(what: string, text: string, max: number): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) > max) throw new ReplaySpecError(`${what} must be an integer in [0, ${max}]: "${text}"`);
  return Number(text);
}

/** Reads the line; a bad one is a ReplaySpecError saying what is wrong. */
export function parseReplaySpec(text: string): ReplaySpec {
  if (typeof text !== 'string' || text.length > 2000) throw new ReplaySpecError('a torture run is a line of at most 2000 characters');
  const [head = '', ...rest] = text.split(';');
  const m = /^([a-z]+):(\d+)$/.exec(head);
  if (!m) throw new ReplaySpecError(`a torture run starts with ENGINE:SEED (e.g. go:12): "${head}"`);
  const engine = m[1]!;
  if (engine !== 'all' && !isEngineName(engine)) throw new ReplaySpecError(`unknown engine "${engine}" (go, cpp, rust, java or all)`);
  const r: ReplaySpec = { engine: engine as ReplaySpec['engine'], seed: int('the seed', m[2]!, MAX_SEED), keep_faults: null, ops: null, amnesia: false, durability: null, check_quorum: false, repair: 0, election: 0 };
  for (const part of rest) {
    const [key, value] = part.split('=', 2) as [string, string | undefined];
    const needs = (): string => {
      if (value === undefined) throw new ReplaySpecError(`"${key}" needs a value (${key}=…)`);
      return value;
    };
    switch (key) {
      case 'keep': {
        const v = needs();
        r.keep_faults = v === '' ? [] : v.split(',').map((x) => int('a kept fault', x, 1000));
        break;
      }
      case 'ops': r.ops = Math.max(1, int('ops', needs(), 1_000_000)); break;
      case 'amnesia': r.amnesia = true; break;
      case 'durability': {
        const v = needs();
        if (v !== 'none' && v !== 'log') throw new ReplaySpecError(`durability is none or log: "${v}"`);
        r.durability = v;
        break;
      }
      case 'check-quorum': r.check_quorum = true; break;
      case 'repair': r.repair = int('repair', needs(), 1_000_000); break;
      case 'election': r.election = int('election', needs(), 4096); break;
      case 'checkpoints': r.checkpoints = true; break;
      case 'log-bound': r.log_bound = int('log-bound', needs(), 1_000_000); break;
      case 'mitigation': {
        const v = needs();
        if (v !== 'blade') throw new ReplaySpecError(`mitigation is blade: "${v}"`);
        r.mitigation = v;
        break;
      }
      default: throw new ReplaySpecError(`unknown part "${part}" (keep=…, ops=…, amnesia, durability=…, check-quorum, repair=…, election=…, checkpoints, log-bound=…, mitigation=blade)`);
    }
  }
  // the CLI's rule (torture --log-bound needs --repair and --election): the cores refuse it alone
  if (r.log_bound && (!r.repair || !r.election)) throw new ReplaySpecError('log-bound needs repair=… and election=…');
  if (!r.log_bound) delete r.log_bound;
  return r;
}

export function drawOptions(r: ReplaySpec): DrawOptions {
  const o: DrawOptions = { engine: r.engine, amnesia: r.amnesia, checkQuorum: r.check_quorum, repairBatch: r.repair, electionBatch: r.election };
  if (r.durability) o.durability = r.durability;
  if (r.checkpoints) o.checkpoints = true;
  if (r.log_bound) o.logBound = r.log_bound;
  if (r.mitigation) o.mitigation = r.mitigation;
  return o;
}

/** What `npm run torture -- --replay SEED [--keep-faults …] [--ops N]` runs: the seed's draw,
 * shrunk to the kept faults and operation limit when given (a RangeError names a bad one). The
 * CLI and the lab both build their run here, so the same line gives the same digest. */
export function seedScenario(seed: number, options: DrawOptions, keepFaults: readonly number[] | null, ops: number | null): Scenario {
  const s = drawScenario(seed, options);
  if (keepFaults === null && ops === null) return s;
  return shrunk(s, keepFaults ?? s.faults.map((_, i) => i), ops ?? s.ops_per_client);
}

/** The scenario the line names, exactly as `npm run torture -- --replay` rebuilds it. */
export function replayScenario(r: ReplaySpec): Scenario {
  try {
    return seedScenario(r.seed, drawOptions(r), r.keep_faults, r.ops);
  } catch (e) {
    if (e instanceof RangeError) throw new ReplaySpecError(e.message);
    throw e;
  }
}

/** The command line that replays the run the line names. */
export function replayCommand(r: ReplaySpec): string {
  let cmd = `npm run torture -- --engine ${r.engine} --replay ${r.seed}`;
  if (r.keep_faults) cmd += ` --keep-faults ${r.keep_faults.length ? r.keep_faults.join(',') : '""'}`;
  if (r.ops !== null) cmd += ` --ops ${r.ops}`;
  if (r.amnesia) cmd += ' --amnesia';
  if (r.durability) cmd += ` --durability ${r.durability}`;
  if (r.check_quorum) cmd += ' --check-quorum';
  if (r.repair) cmd += ` --repair ${r.repair}`;
  if (r.election) cmd += ` --election ${r.election}`;
  if (r.checkpoints) cmd += ' --checkpoints';
  if (r.log_bound) cmd += ` --log-bound ${r.log_bound}`;
  if (r.mitigation) cmd += ` --mitigation ${r.mitigation}`;
  return cmd;
}

/** Where `npm start` serves the lab, and the Cluster view's address for a run. */
export const LAB_ORIGIN = 'http://127.0.0.1:4173';
export function labReplayUrl(r: ReplaySpec, origin = LAB_ORIGIN): string {
  return `${origin}/?view=cluster&c.torture=${encodeURIComponent(formatReplaySpec(r))}`;
}
