// npm run cluster -- --engines go,go,go [--commit-interval-ms 150] [--durability log|none]
//                    [--data-dir DIR] [--fsync always|interval|never]
// Starts a native cluster on 127.0.0.1, prints the client addresses, log files and data dirs,
// restarts a node that dies (kill -9 PID) from its data dir, and stops every node cleanly on
// Ctrl-C or SIGTERM. The data dirs are kept, so a later run with the same --data-dir comes back
// with what the cluster held.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';

const fail = (msg: string): never => {
  console.error(msg);
  process.exit(2);
};
let values: Record<string, string | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      engines: { type: 'string', default: 'go,go,go' },
      'commit-interval-ms': { type: 'string', default: '150' },
      durability: { type: 'string', default: 'log' },
      'data-dir': { type: 'string' },
      fsync: { type: 'string', default: 'always' },
    },
  }));
} catch (e) {
  fail(`${(e as Error).message}\nusage: npm run cluster -- [--engines a,b,c] [--commit-interval-ms N] [--durability log|none] [--data-dir DIR] [--fsync always|interval|never]`);
}
const engines = values!.engines!.split(',') as EngineName[];
for (const e of engines) {
  if (!ENGINE_NAMES.includes(e)) fail(`unknown engine ${JSON.stringify(e)}; choose from ${ENGINE_NAMES.join(', ')}`);
}
const durability = values!.durability!;
if (durability !== 'log' && durability !== 'none') fail(`--durability must be log or none, not ${JSON.stringify(durability)}`);
const fsync = values!.fsync!;
if (fsync !== 'always' && fsync !== 'interval' && fsync !== 'never') fail(`--fsync must be always, interval or never, not ${JSON.stringify(fsync)}`);
if (durability === 'none' && values!['data-dir'] !== undefined) fail('--durability none keeps no data: drop --data-dir');
const commitIntervalMs = Number(values!['commit-interval-ms']);
if (!Number.isInteger(commitIntervalMs) || commitIntervalMs < 1 || commitIntervalMs > 60000)
  fail(`--commit-interval-ms must be an integer between 1 and 60000, not ${JSON.stringify(values!['commit-interval-ms'])}`);
let dataDir: string | undefined;
if (durability === 'log') {
  dataDir = values!['data-dir'] ? resolve(values!['data-dir']) : mkdtempSync(join(tmpdir(), 'replicant-data-'));
  mkdirSync(dataDir, { recursive: true });
}

let stopping = false;
const cluster: NativeCluster = await NativeCluster.start({
  engines,
  commitIntervalMs,
  durability: durability as 'log' | 'none',
  fsync: fsync as 'always' | 'interval' | 'never',
  dataDir,
  onExit: (id, how) => {
    if (stopping) return;
    const from = durability === 'log' ? `from ${cluster.dataDirPath(id)}` : 'empty (durability none)';
    console.log(`node ${id} ${how}; restarting it ${from} (its log: ${cluster.logPath(id)})`);
    cluster.startNode(id);
    console.log(`  node ${id} is pid ${cluster.processes[id]?.pid}`);
  },
});
console.log(`Replicant cluster of ${engines.length} nodes (${engines.join(', ')}), durability ${durability}${durability === 'log' ? `, fsync ${fsync}` : ''}:`);
cluster.config.clients.forEach((addr, id) => {
  const data = cluster.dataDirPath(id);
  console.log(`  node ${id} (${engines[id]}): clients at ${addr}, pid ${cluster.processes[id]?.pid}, log ${cluster.logPath(id)}${data ? `, data ${data}` : ''}`);
});
console.log('Try: nc ' + cluster.config.clients[0]!.replace(':', ' ') + '   then type  put k v  /  get k');
if (durability === 'log') console.log(`A node that dies (try kill -9 PID) is restarted from its data dir; they are kept in ${dataDir} after Ctrl-C.`);
console.log('Ctrl-C stops the cluster.');
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping…');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
