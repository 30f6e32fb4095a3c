// npm run cluster -- --engines go,go,go [--commit-interval-ms 150]
// Starts a native cluster on 127.0.0.1, prints the client addresses, and stops every node
// cleanly on Ctrl-C or SIGTERM.
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';

const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'go,go,go' },
    'commit-interval-ms': { type: 'string', default: '150' },
  },
});
const engines = values.engines!.split(',') as EngineName[];
for (const e of engines) {
  if (!ENGINE_NAMES.includes(e)) {
    console.error(`unknown engine ${JSON.stringify(e)}; choose from ${ENGINE_NAMES.join(', ')}`);
    process.exit(2);
  }
}
const cluster = await NativeCluster.start({ engines, commitIntervalMs: Number(values['commit-interval-ms']) });
console.log(`Replicant cluster of ${engines.length} nodes (${engines.join(', ')}):`);
cluster.config.clients.forEach((addr, id) => console.log(`  node ${id} (${engines[id]}): clients at ${addr}, log ${cluster.logPath(id)}`));
console.log('Try: nc ' + cluster.config.clients[0]!.replace(':', ' ') + '   then type  put k v  /  get k');
console.log('Ctrl-C stops the cluster.');
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping…');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
