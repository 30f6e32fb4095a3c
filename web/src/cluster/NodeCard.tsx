// One node as the student reads it: role, ballot, the log table coloured by state with the
// last-executed and global-last-executed markers, the trimmed prefix and the key-value store.
import { memo } from 'react';
import { formatBallot } from '@replicant/engines/loader/ballot';
import { INSTANCE_STATE_COLOUR } from '../theme/palette.ts';
import { ballotHint, logRows, trimmedText, workingBallot, type InspectView } from './inspect.ts';

const STATE_LABEL = { in_progress: 'in progress', committed: 'committed', executed: 'executed' } as const;

/** Redrawn only when the node's inspect view changes (raw is its exact text). */
export const NodeCard = memo(NodeCardView, (a, b) => a.raw === b.raw && a.id === b.id);

function NodeCardView({ id, view, onCrash, onRestart }: { id: number; raw: string; view: InspectView | null; onCrash: () => void; onRestart: () => void }) {
  if (view === null) {
    return (
      <section className="node-card down" data-testid={`node-${id}`} data-role="down" aria-label={`n${id}, down`}>
        <header>
          <h3>n{id}</h3>
          <span className="role-badge">down</span>
          <button type="button" onClick={onRestart}>
            Restart
          </button>
        </header>
        <p className="note">Crashed: its state is gone. A restart boots an empty node (Replicant keeps nothing on disk).</p>
      </section>
    );
  }
  const rows = logRows(view);
  const trimmed = trimmedText(view);
  return (
    <section className={`node-card ${view.role}`} data-testid={`node-${id}`} data-role={view.role} data-ballot={view.ballot} aria-label={`n${id}, ${view.role}`}>
      <header>
        <h3>n{id}</h3>
        <span className="role-badge">{view.role}</span>
        <span className="mono" data-testid={`ballot-${id}`} title={`${ballotHint(formatBallot(workingBallot(view)))}${view.role === 'candidate' ? '; it stands for election with this ballot' : ''}`}>
          ballot {formatBallot(workingBallot(view))}
        </span>
        <button type="button" onClick={onCrash}>
          Crash
        </button>
      </header>
      <dl className="node-facts">
        <div>
          <dt>leader</dt>
          <dd>{view.leader === null ? 'none' : `n${view.leader}`}</dd>
        </div>
        <div>
          <dt>last index</dt>
          <dd data-testid={`last-index-${id}`}>{view.last_index}</dd>
        </div>
        <div>
          <dt>last executed</dt>
          <dd data-testid={`last-executed-${id}`}>{view.last_executed}</dd>
        </div>
        <div>
          <dt title="global last executed: everything up to here is executed on every node">gle</dt>
          <dd data-testid={`gle-${id}`}>{view.global_last_executed}</dd>
        </div>
      </dl>
      <table className="log-table" data-testid={`log-${id}`}>
        <caption className="note">log</caption>
        <thead>
          <tr>
            <th className="num">index</th>
            <th>ballot</th>
            <th>command</th>
            <th>state</th>
          </tr>
        </thead>
        <tbody>
          {trimmed && (
            <tr className="trimmed">
              <td colSpan={4}>{trimmed}</td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={r.index} data-index={r.index} data-state={r.state}>
              <td className="num">{r.index}</td>
              <td className="mono">{r.ballot}</td>
              <td className="mono cmd">{r.command}</td>
              <td>
                <span className="state-chip" style={{ background: INSTANCE_STATE_COLOUR[r.state] }}>
                  {STATE_LABEL[r.state]}
                </span>
                {r.markers.map((m) => (
                  <span key={m} className="marker-chip" title={m === 'last executed' ? 'the last index this node has executed' : 'the last index in this node’s log'}>
                    ◀ {m}
                  </span>
                ))}
              </td>
            </tr>
          ))}
          {rows.length === 0 && !trimmed && (
            <tr>
              <td colSpan={4} className="note">
                empty
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <details className="kv" open={view.kv.size > 0 && view.kv.size <= 6}>
        <summary>
          key-value store: {view.kv.size} key{view.kv.size === 1 ? '' : 's'} <span className="mono note">digest {view.kv.digest}</span>
        </summary>
        <table className="data" data-testid={`kv-${id}`}>
          <tbody>
            {view.kv.entries.map(([k, v]) => (
              <tr key={k}>
                <td className="mono">{k}</td>
                <td className="mono">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
