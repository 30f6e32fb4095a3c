// Datadriven transcripts in the style of etcd-io/raft's testdata: a command, a `----` line,
// the expected output, a blank line. Lines starting with `#` between blocks are comments.
// Running a transcript replays its commands on a fresh Cluster and compares the exact bytes:
// expected lines may be written in the readable form (readable.ts), which stands for exactly
// one canonical line, or in the canonical form itself.
import { createHash } from 'node:crypto';
import { EngineError, type AsyncEngine } from '../../loader/engine.ts';
import { AsyncScriptedCluster as Cluster, HarnessError, type MessageFilter, type TimerName } from '../../scripted/index.ts';
import { formatBallot } from '../../loader/ballot.ts';
import { groupLogicalLines, parseLine, renderLine } from './readable.ts';

export type Item = { kind: 'comment'; text: string } | { kind: 'command'; line: string; expected: string[]; lineNo: number };

export function parseTranscript(text: string, file = '<transcript>'): Item[] {
  const lines = text.split('\n');
  const items: Item[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (line.startsWith('#')) {
      items.push({ kind: 'comment', text: line });
      i++;
      continue;
    }
    const lineNo = i + 1;
    if (lines[i + 1] !== '----') throw new Error(`${file}:${lineNo}: expected '----' after the command`);
    i += 2;
    const expected: string[] = [];
    while (i < lines.length && lines[i] !== '') expected.push(lines[i++]!);
    items.push({ kind: 'command', line, expected, lineNo });
  }
  return items;
}

export function formatTranscript(items: Item[]): string {
  const parts: string[] = [];
  let previous: Item['kind'] | null = null;
  for (const item of items) {
    if (item.kind === 'comment') {
      if (previous === 'command') parts.push('');
      parts.push(item.text);
    } else {
      if (previous === 'command') parts.push('');
      parts.push(item.line, '----', ...item.expected);
    }
    previous = item.kind;
  }
  return parts.join('\n') + '\n';
}

/** The same transcript with every output line in its readable form (a dump takes several lines). */
export function renderItems(items: Item[]): Item[] {
  return items.map((item) => (item.kind === 'command' ? { ...item, expected: item.expected.flatMap((l) => renderLine(l).split('\n')) } : item));
}

/** The canonical bytes a block's expected lines stand for: one canonical line per logical line. */
export function canonicalExpected(item: Item & { kind: 'command' }): string[] {
  return groupLogicalLines(item.expected).map(parseLine);
}

/** Every expected output line of a transcript, canonical: the cores' exact effect bytes. */
export function canonicalLines(text: string, file?: string): string[] {
  return parseTranscript(text, file).flatMap((item) => (item.kind === 'command' ? canonicalExpected(item) : []));
}

/** How many differing lines a failure report shows of each side. */
const DIFF_LINES_MAX = 6;

export type Block = Item & { kind: 'command' };

/**
 * Why a block's output differs from what its transcript expects, or null when the bytes are
 * equal: a readable diff around the first differing line, then that line in canonical form.
 */
export function blockMismatch(expected: Block, actualCanonical: string[]): string | null {
  const want = canonicalExpected(expected);
  let k = 0;
  while (k < want.length && k < actualCanonical.length && want[k] === actualCanonical[k]) k++;
  if (k === want.length && k === actualCanonical.length) return null;
  // The differing stretch: from the first differing line to the last, counted from the end.
  let tail = 0;
  while (tail < want.length - k && tail < actualCanonical.length - k && want[want.length - 1 - tail] === actualCanonical[actualCanonical.length - 1 - tail]) tail++;
  // A readable line may take several text lines (a dump): each gets the row's mark.
  const rows = (line: string, mark: string) => renderLine(line).split('\n').map((l) => `    ${mark} ${l}`);
  const shown = (lines: string[], sign: string) => {
    const stretch = lines.slice(k, lines.length - tail);
    const out = stretch.slice(0, DIFF_LINES_MAX).flatMap((l) => rows(l, sign));
    if (stretch.length > DIFF_LINES_MAX) out.push(`    ${sign} … ${stretch.length - DIFF_LINES_MAX} more`);
    return out;
  };
  const out = [`block \`${expected.line}\` (line ${expected.lineNo}), output line ${k + 1}:`];
  for (let i = Math.max(0, k - 2); i < k; i++) out.push(...rows(want[i]!, ' '));
  out.push(...shown(want, '-'), ...shown(actualCanonical, '+'));
  if (tail > 0) out.push(...rows(want[want.length - tail]!, ' '));
  out.push(`  first differing canonical line:`, `    expected: ${want[k] ?? '(end)'}`, `    actual:   ${actualCanonical[k] ?? '(end)'}`);
  return out.join('\n');
}

/** Splits `cmd a=1 b=2 flag line=rest of line` into a command and its arguments. */
export function parseCommand(line: string): { name: string; args: Map<string, string>; flags: Set<string> } {
  const space = line.indexOf(' ');
  const name = space < 0 ? line : line.slice(0, space);
  let rest = space < 0 ? '' : line.slice(space + 1);
  const args = new Map<string, string>();
  const flags = new Set<string>();
  while (rest.length > 0) {
    const m = /^(\w+)=/.exec(rest);
    if (m && (m[1] === 'line' || m[1] === 'event')) {
      args.set(m[1], rest.slice(m[0].length)); // takes the rest of the line verbatim
      break;
    }
    const next = rest.indexOf(' ');
    const token = next < 0 ? rest : rest.slice(0, next);
    rest = next < 0 ? '' : rest.slice(next + 1);
    const eq = token.indexOf('=');
    if (eq < 0) flags.add(token);
    else args.set(token.slice(0, eq), token.slice(eq + 1));
  }
  return { name, args, flags };
}

function intArg(args: Map<string, string>, key: string, fallback?: number): number {
  const v = args.get(key);
  if (v === undefined) {
    if (fallback !== undefined) return fallback;
    throw new HarnessError(`missing ${key}=`);
  }
  const n = Number(v.replace(/^[mn]/, ''));
  if (!Number.isInteger(n) || n < 0) throw new HarnessError(`bad ${key}=${v}`);
  return n;
}

function durabilityArg(v: string): 'none' | 'log' {
  if (v !== 'none' && v !== 'log') throw new HarnessError(`bad durability=${v}`);
  return v;
}

function mitigationArg(v: string): 'none' | 'blade' | 'mitmem' | 'both' {
  if (v !== 'none' && v !== 'blade' && v !== 'mitmem' && v !== 'both') throw new HarnessError(`bad mitigation=${v}`);
  return v;
}

function filterArgs(args: Map<string, string>): MessageFilter {
  const f: MessageFilter = {};
  if (args.has('id')) f.id = intArg(args, 'id');
  if (args.has('from')) f.from = intArg(args, 'from');
  if (args.has('to')) f.to = intArg(args, 'to');
  if (args.has('type')) f.type = args.get('type');
  return f;
}

/** What kind of output line this is, for `quiet`'s counts: node, effect and message type. */
function lineShape(line: string): { key: string; trace?: string } {
  const effect = /^(n\d+): (\{.*\})( m\d+| lost .*)?$/.exec(line);
  if (effect) {
    const e = JSON.parse(effect[2]!) as { type: string; kind?: string; timer?: string; result?: string; msg?: { type: string; to: number } };
    const lost = effect[3]?.startsWith(' lost') ? ' (lost)' : '';
    switch (e.type) {
      case 'send':
        return { key: `${effect[1]} send ${e.msg!.type} to n${e.msg!.to}${lost}` };
      case 'trace':
        return { key: `${effect[1]} trace ${e.kind}`, trace: e.kind };
      case 'reply':
        return { key: `${effect[1]} reply ${e.result}` };
      case 'set_timer':
      case 'cancel_timer':
        return { key: `${effect[1]} ${e.type} ${e.timer}` };
      default:
        return { key: `${effect[1]} ${e.type}` };
    }
  }
  const delivery = /^m\d+: (.*)$/.exec(line);
  if (delivery) return { key: `delivered ${delivery[1]}` };
  return { key: line };
}

/** One line per node summarising its inspect view. */
export async function describeState(c: Cluster): Promise<string[]> {
  const out: string[] = [];
  for (let id = 0; id < c.size; id++) {
    if (!c.isUp(id)) {
      out.push(`n${id}: down`);
      continue;
    }
    const s = JSON.parse(await c.inspect(id));
    out.push(
      `n${id}: ${s.role} ballot=${formatBallot(s.ballot)} last_index=${s.last_index} ` +
        `last_executed=${s.last_executed} gle=${s.global_last_executed} log=${s.log.length} ` +
        `kv=${s.kv.size}/${s.kv.digest}`,
    );
  }
  return out;
}

/** Runs transcripts against one engine. */
export class TranscriptRunner {
  private cluster: Cluster | null = null;

  constructor(private readonly engine: AsyncEngine) {}

  private get c(): Cluster {
    if (!this.cluster) throw new HarnessError('no cluster: start with `create`');
    return this.cluster;
  }

  async run(items: Item[]): Promise<Item[]> {
    const results: Item[] = [];
    try {
      for (const item of items) {
        if (item.kind === 'comment') results.push(item);
        else results.push({ ...item, expected: await this.execute(item.line) });
      }
    } finally {
      await this.cluster?.close();
      this.cluster = null;
    }
    return results;
  }

  async execute(line: string): Promise<string[]> {
    try {
      const out = await this.dispatch(line);
      return out.length ? out : ['ok'];
    } catch (err) {
      if (err instanceof HarnessError) return [...(this.cluster?.take() ?? []), `error: ${err.message}`];
      throw err;
    }
  }

  /**
   * `quiet [keep=kind,kind] COMMAND`: runs the command and prints, instead of its output, the
   * number of lines and a SHA-256 of their exact bytes (so the engines still agree byte for
   * byte), how many lines of each shape there were, and in full the traces of the kinds kept.
   */
  private async quiet(rest: string): Promise<string[]> {
    const keep = new Set<string>();
    const m = /^keep=(\S+) /.exec(rest);
    if (m) for (const k of m[1]!.split(',')) keep.add(k);
    const out = await this.dispatch(m ? rest.slice(m[0].length) : rest);
    const hash = createHash('sha256').update(out.join('\n')).digest('hex').slice(0, 16);
    const kept: string[] = [];
    const counts = new Map<string, number>();
    for (const l of out) {
      const shape = lineShape(l);
      if (shape.trace !== undefined && keep.has(shape.trace)) kept.push(l);
      counts.set(shape.key, (counts.get(shape.key) ?? 0) + 1);
    }
    return [`${out.length} lines, sha256 ${hash}`, ...kept, ...[...counts].map(([k, n]) => `${n} x ${k}`)];
  }

  private async dispatch(line: string): Promise<string[]> {
    const { name, args, flags } = parseCommand(line);
    switch (name) {
      case 'create': {
        await this.cluster?.close();
        this.cluster = null;
        const opts = {
          num_nodes: intArg(args, 'n', 3),
          seed: intArg(args, 'seed', 1),
          ...(args.has('ci') && { commit_interval_us: intArg(args, 'ci') }),
          ...(args.has('timeout') && { accept_timeout_ticks: intArg(args, 'timeout') }),
          ...(args.has('max_pending') && { max_pending_accepts: intArg(args, 'max_pending') }),
          ...(args.has('trace') && { trace: args.get('trace') !== 'false' }),
          ...(args.has('check_quorum') && { check_quorum: args.get('check_quorum') !== 'false' }),
          ...(args.has('repair') && { repair_batch: intArg(args, 'repair') }),
          ...(args.has('election') && { election_batch: intArg(args, 'election') }),
          ...(args.has('bound') && { log_bound: intArg(args, 'bound') }),
          ...(args.has('durability') && { durability: durabilityArg(args.get('durability')!) }),
          ...(args.get('persist') === 'manual' && { manual_persist: true }),
          ...(args.has('snapshot') && { snapshot_every: intArg(args, 'snapshot') }),
          ...(args.has('mitigation') && { mitigation: mitigationArg(args.get('mitigation')!) }),
          ...(args.has('deadline') && { mitmem_deadline_us: intArg(args, 'deadline') }),
        };
        this.cluster = await startOrConfigError(this.engine, opts);
        return this.c.take();
      }
      case 'fire':
        await this.c.fire(intArg(args, 'node'), (args.get('timer') ?? 'election') as TimerName);
        return this.c.take();
      case 'deliver':
        if (flags.has('all')) await this.c.deliverAll(filterArgs(args));
        else for (let k = intArg(args, 'count', 1); k > 0; k--) await this.c.deliver(filterArgs(args));
        return this.c.take();
      case 'drop':
        if (flags.has('all')) while (this.c.matching(filterArgs(args)).length) this.c.drop(filterArgs(args));
        else this.c.drop(filterArgs(args));
        return this.c.take();
      case 'dup':
        this.c.duplicate(filterArgs(args));
        return this.c.take();
      case 'client':
        await this.c.client(intArg(args, 'node'), intArg(args, 'client', 1), intArg(args, 'req', 1), args.get('line') ?? '');
        return this.c.take();
      case 'clients': {
        // Many client commands in one block: request ids from req= on, `$` in the line stands
        // for the request id.
        const node = intArg(args, 'node');
        const client = intArg(args, 'client', 1);
        const first = intArg(args, 'req', 1);
        const line = args.get('line') ?? '';
        for (let k = 0; k < intArg(args, 'count'); k++) await this.c.client(node, client, first + k, line.replaceAll('$', String(first + k)));
        return this.c.take();
      }
      case 'quiet':
        return this.quiet(line.slice('quiet '.length));
      case 'gc': {
        const id = intArg(args, 'node');
        if (flags.has('pending')) await this.c.gcPending(id, intArg(args, 'pause'));
        else if (flags.has('done')) await this.c.gcDone(id);
        else throw new HarnessError('gc node=N pending pause=US | gc node=N done');
        return this.c.take();
      }
      case 'raw':
        await this.c.deliverRaw(intArg(args, 'node'), args.get('event') ?? '');
        return this.c.take();
      case 'cut': {
        if (args.has('between')) {
          const [a, b] = (args.get('between') ?? '').split(',').map(Number);
          if (a === undefined || b === undefined) throw new HarnessError('cut between=A,B');
          this.c.cut(a, b);
          this.c.cut(b, a);
        } else this.c.cut(intArg(args, 'from'), intArg(args, 'to'));
        return this.c.take();
      }
      case 'isolate': {
        const id = intArg(args, 'node');
        for (let p = 0; p < this.c.size; p++) if (p !== id) (this.c.cut(id, p), this.c.cut(p, id));
        return this.c.take();
      }
      case 'heal':
        this.c.heal();
        return this.c.take();
      case 'crash':
        await this.c.crash(intArg(args, 'node'));
        return this.c.take();
      case 'restart':
        await this.c.restart(intArg(args, 'node'), flags.has('wiped'), args.get('event'));
        return this.c.take();
      case 'persist': {
        const id = intArg(args, 'node');
        if (flags.has('all')) while (this.c.core.unpersisted[id]?.length) await this.c.completePersist(id);
        else for (let k = intArg(args, 'count', 1); k > 0; k--) await this.c.completePersist(id);
        return this.c.take();
      }
      case 'disk':
        return this.c.core.disks[intArg(args, 'node')]?.map((r, i) => `n${intArg(args, 'node')} disk ${i}: ${r}`) ?? [];
      case 'pending':
        return this.c.describePending();
      case 'dump':
        return [`n${intArg(args, 'node')}: ${await this.c.inspect(intArg(args, 'node'))}`];
      case 'state':
        return describeState(this.c);
      default:
        throw new Error(`unknown command ${JSON.stringify(name)}`);
    }
  }
}

/** The cluster, or the core's refusal of its configuration as a transcript error line. A core
 * names the problem the same way in every engine (`config: …`); the loader's engine prefix is
 * dropped so the line is byte-identical across engines. */
async function startOrConfigError(engine: AsyncEngine, opts: Parameters<typeof Cluster.start>[1]): Promise<Cluster> {
  try {
    return await Cluster.start(engine, opts);
  } catch (err) {
    const refusal = err instanceof EngineError ? /(?:^|: )(config: .*)$/s.exec(err.message) : null;
    if (refusal) throw new HarnessError(refusal[1]!.trim());
    throw err;
  }
}
