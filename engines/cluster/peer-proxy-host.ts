// The peer proxies' own process (peer-proxy-process.ts starts it): every peer message of a
// proxied cluster passes through these proxies, so they get an event loop that nothing else
// holds up. In the test process they shared one with the load's clients, the history it records
// and the log reading; under load that loop ran up to 2.5 s late, no node heard any other
// meanwhile, and the followers stood for election with their own timers on time (docs/
// reliability.md, "Fifth series"). Commands come as JSON lines on stdin, answers go out as JSON
// lines on stdout; it exits when stdin closes (its parent has gone).
import { createInterface } from 'node:readline';
import { LoopLagRecorder } from './loop-lag.ts';
import { PeerProxy } from './peer-proxy.ts';

export type ProxyCommand =
  | { seq: number; op: 'listen'; host: string; port: number; target: { host: string; port: number } }
  | { seq: number; op: 'cut' | 'heal' | 'reset' | 'hold' | 'refuse' | 'accept' | 'close'; proxy: number }
  | { seq: number; op: 'release'; proxy: number; timeoutMs: number }
  | { seq: number; op: 'lag' };

export interface ProxyAnswer {
  seq: number;
  error?: string;
  /** listen: the new proxy's index. */
  proxy?: number;
  /** lag: this loop's late ticks so far (loop-lag.ts). */
  lag?: { atMs: number; lateMs: number }[];
  /** release: the lines that had been held, as PeerProxy.release returns them. */
  released?: string[];
  /** cut, heal, reset, hold: when it took effect here (ms since the epoch). A caller's clock
   * read before the command leaves can be early by however late this loop runs (seen: up to
   * 933 ms under load). */
  atMs?: number;
}

const proxies: PeerProxy[] = [];
const loopLag = new LoopLagRecorder();
loopLag.start();

async function run(c: ProxyCommand): Promise<ProxyAnswer> {
  if (c.op === 'listen') {
    proxies.push(await PeerProxy.listen(c.host, c.port, c.target));
    return { seq: c.seq, proxy: proxies.length - 1 };
  }
  if (c.op === 'lag') return { seq: c.seq, lag: loopLag.samples };
  const p = proxies[c.proxy];
  if (!p) throw new Error(`no proxy ${c.proxy}`);
  if (c.op === 'cut' || c.op === 'heal' || c.op === 'reset' || c.op === 'hold') {
    p[c.op]();
    return { seq: c.seq, atMs: Date.now() };
  }
  if (c.op === 'release') return { seq: c.seq, released: await p.release(c.timeoutMs) };
  else await p[c.op]();
  return { seq: c.seq };
}

const input = createInterface({ input: process.stdin });
input.on('line', (text) => {
  let c: ProxyCommand;
  try {
    c = JSON.parse(text) as ProxyCommand;
  } catch {
    process.stdout.write(`${JSON.stringify({ seq: -1, error: `not a command: ${text.slice(0, 80)}` })}\n`);
    return;
  }
  run(c).then(
    (a) => process.stdout.write(`${JSON.stringify(a)}\n`),
    (e: Error) => process.stdout.write(`${JSON.stringify({ seq: c.seq, error: e.message })}\n`),
  );
});
input.on('close', () => {
  loopLag.stop();
  Promise.all(proxies.map((p) => p.close())).finally(() => process.exit(0));
});
