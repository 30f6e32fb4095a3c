// Counts the survivors' connect() calls to a killed leader's peer port over 2 s (strace): what
// redialling a dead peer costs them (docs/reliability.md, "C++ x3 after a leader kill: measured").
// Not a test; needs strace and the right to trace the servers.
//   npx tsx nemesis/redial-count.ts cpp|go|rust|java
import { execFileSync } from 'node:child_process';
import { NativeCluster } from '../cluster/launcher.ts';
import { HistoryClient } from '../cluster/history-client.ts';
const engine = (process.argv[2] ?? 'cpp') as 'cpp';
const cluster = await NativeCluster.start({ engines: [engine, engine, engine], commitIntervalMs: 50, durability: 'log' });
const warm = new HistoryClient({ addresses: cluster.config.clients, history: [], nowUs: () => 0, client: 0, idStride: 1, target: 0, requestTimeoutMs: 1000 });
while ((await warm.run('get', 'k0')).result === 'unknown') await new Promise((r) => setTimeout(r, 50));
const leader = warm.target; warm.close();
await new Promise((r) => setTimeout(r, 1000));
await cluster.kill(leader);
const port = cluster.config.peers[leader]!.split(':')[1];
for (const i of [0, 1, 2].filter((i) => i !== leader)) {
  const pid = cluster.processes[i]!.pid!;
  let out = '';
  try { execFileSync('timeout', ['2', 'strace', '-f', '-qq', '-e', 'trace=connect', '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] }); } catch (e) { out = String((e as { stderr: Buffer }).stderr); }
  const lines = out.split('\n').filter((l) => l.includes('connect('));
  console.log(`${engine} n${i}: ${lines.length} connect() calls in 2 s, ${lines.filter((l) => l.includes(`htons(${port})`)).length} to the dead peer's port ${port}; sample: ${lines.find((l) => l.includes(`htons(${port})`)) ?? '-'}`);
}
await cluster.stop();
