// A first look: three Go engines, compiled to WebAssembly, elect a leader in your browser.
// Every step is a real event fed to a real core; the table shows each core's inspect view.
import { useEffect, useState } from 'react';
import { asAsync } from '../../engines/loader/engine.ts';
import { Cluster } from '../../engines/conformance/src/cluster.ts';
import { loadBrowserEngine } from './engines.ts';
import { formatBallot } from '../../engines/loader/ballot.ts';

interface NodeView {
  id: number;
  role: string;
  ballot: number;
  leader: number | null;
}

/** One step: deliver the oldest message, or else fire the armed timer due soonest. */
async function advance(c: Cluster): Promise<boolean> {
  if (c.pending.length > 0) {
    await c.deliver();
    return true;
  }
  let best: [number, 'election' | 'commit', number] | null = null;
  c.timers.forEach((t, id) => t.forEach((delay, name) => {
    if (!best || delay < best[2]) best = [id, name, delay];
  }));
  if (!best) return false;
  await c.fire(best[0], best[1]);
  return true;
}

export function ElectionDemo() {
  const [views, setViews] = useState<NodeView[]>([]);
  const [log, setLog] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const engine = asAsync(await loadBrowserEngine('go'));
      const cluster = await Cluster.create(engine, { numNodes: 3, seed: 1 });
      const lines: string[] = cluster.take();
      const refresh = async () => {
        const v: NodeView[] = [];
        for (let id = 0; id < cluster.size; id++) v.push(JSON.parse(await cluster.inspect(id)));
        if (!cancelled) (setViews(v), setLog([...lines]));
        return v;
      };
      for (let i = 0; i < 40; i++) {
        await advance(cluster);
        lines.push(...cluster.take());
        const v = await refresh();
        if (v.some((n) => n.role === 'leader') && cluster.pending.length === 0) break;
      }
    })().catch((e: unknown) => setError(String(e)));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <main>
      <h1>Replicant Lab</h1>
      <p>Three Replicant nodes, each a Go core compiled to WebAssembly, elect a leader.</p>
      {error && <p role="alert">Could not start the engines: {error}</p>}
      <table>
        <thead>
          <tr><th>node</th><th>role</th><th>ballot</th><th>leader</th></tr>
        </thead>
        <tbody>
          {views.map((n) => (
            <tr key={n.id} data-testid={`node-${n.id}`} data-ballot={n.ballot}>
              <td>n{n.id}</td>
              <td className="role">{n.role}</td>
              <td>{formatBallot(n.ballot)}</td>
              <td>{n.leader === null ? '—' : `n${n.leader}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Every effect the cores emitted</h2>
      <pre data-testid="event-log">{log.join('\n')}</pre>
    </main>
  );
}
