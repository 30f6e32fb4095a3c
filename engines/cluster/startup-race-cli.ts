// npm run cluster:startup-race -- --servers A,B[,…] [--tries N] [--slots S]
// The start-up race of cluster/startup-race.ts, tried N times per server command, the servers
// interleaved (A, B, A, B, …) so both see the same load. Prints each try and, per server, how
// many promises carried none of the slots on disk (the node answered before reading it).
import { loadavg } from 'node:os';
import { tryStartupRace } from './startup-race.ts';

const USAGE = 'usage: npm run cluster:startup-race -- --servers PATH[,PATH…] [--tries N] [--slots S]';
const argv = process.argv.slice(2);
const opt = new Map<string, string>();
for (let i = 0; i < argv.length; i += 2) {
  if (!argv[i]!.startsWith('--') || argv[i + 1] === undefined) {
    process.stderr.write(`bad argument "${argv[i]}"\n${USAGE}\n`);
    process.exit(2);
  }
  opt.set(argv[i]!.slice(2), argv[i + 1]!);
}
const servers = (opt.get('servers') ?? '').split(',').filter(Boolean);
const tries = Number(opt.get('tries') ?? 10);
const slots = Number(opt.get('slots') ?? 2000);
if (servers.length === 0 || !Number.isInteger(tries) || tries < 1 || !Number.isInteger(slots) || slots < 1) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const empty = new Map(servers.map((s) => [s, 0]));
for (let t = 0; t < tries; t++) {
  for (const server of servers) {
    const r = await tryStartupRace({ serverArgv: [server], slots });
    if (r.promised_instances === 0) empty.set(server, empty.get(server)! + 1);
    process.stdout.write(`${server} try ${t + 1}: promise with ${r.promised_instances} slots; port accepted ${r.bind_ms} ms after the spawn; load ${loadavg()[0]!.toFixed(1)}\n`);
  }
}
for (const s of servers) process.stdout.write(`${s}: ${empty.get(s)} of ${tries} promises carried none of the ${slots} slots on disk\n`);
