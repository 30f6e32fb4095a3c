// Timing a failover under load, for the native cluster tests.
import { waitUntil } from './client.ts';
import type { NativeCluster } from './launcher.ts';

/**
 * Kills the leader (SIGKILL) while clients keep writing, and returns how long after the kill the
 * first write was acknowledged (ms; null if none within 30 s); it then waits for 20 more, so the
 * survivors are serving steadily when it returns.
 */
export async function killLeaderAndTimeService(cluster: NativeCluster, leader: number, acks: readonly { at: number }[]): Promise<number | null> {
  await cluster.kill(leader);
  const killedAt = Date.now();
  const served = await waitUntil(() => acks.some((a) => a.at > killedAt), 30_000);
  const servedMs = served ? acks.find((a) => a.at > killedAt)!.at - killedAt : null;
  const before = acks.length;
  await waitUntil(() => acks.length > before + 20, 20_000);
  return servedMs;
}
