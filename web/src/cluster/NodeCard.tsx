// One node as the student reads it: role, ballot, the log table coloured by state with the
// last-executed and global-last-executed markers, the trimmed prefix and the key-value store.
import { memo } from 'react';
import { formatBallot } from '@replicant/engines/loader/ballot';
import { INSTANCE_STATE_COLOUR } from '../theme/palette.ts';
import { ballotHint, logRows, readDisk, trimmedText, workingBallot, type InspectView } from './inspect.ts';
import { commandText } from './explain.ts';

const STATE_LABEL = { in_progress: 'in progress', committed: 'committed', executed: 'executed' } as const;

interface NodeCardProps {
  id: number;
  raw: string;
  view: InspectView | null;
  /** durability log: the node's disk records (kept across a crash); undefined in durability none */
  disk?: readonly string[];
  onCrash: () => void;
  onRestart: () => void;
  /** durability log: restart with the disk wiped */
  onRestartWiped?: () => void;
  /** a replay to watch, not a cluster to act on: no crash or restart buttons */
  readOnly?: boolean;
  /** false: the card says nothing about disk and memory (a torture replay, whose durability the
   * view states once and whose disks it does not show); default true */
  durabilityNotes?: boolean;
}

/** Redrawn only when the node's inspect view or its disk changes (raw is the view's exact text). */
export const NodeCard = memo(NodeCardView, (a, b) => a.raw === b.raw && a.id === b.id && a.disk?.length === b.disk?.length && a.disk?.[a.disk.length - 1] === b.disk?.[b.disk.length - 1]);

/** Per node: what a crash keeps (its disk) and what it loses (everything in memory). */
function Durability({ id, disk, up }: { id: number; disk: readonly string[] | undefined; up: boolean }) {
  if (disk === undefined) {
    return (
      <p className="note durability-none" data-testid={`volatile-${id}`}>
        Durability none (the paper’s): nothing is on disk, all of this is volatile — a crash forgets its promises and accepted values.
      </p>
    );
  }
  const d = readDisk(disk);
  return (
    <div className="durability" data-testid={`disk-${id}`} data-records={d.records}>
      <p className="note">
        <strong>On disk</strong> ({d.records} record{d.records === 1 ? '' : 's'}, kept by a crash):{' '}
        <span data-testid={`disk-promise-${id}`}>{d.promise === null ? 'no promise yet' : `promised ballot ${formatBallot(d.promise)}`}</span>
        {d.snapshot && <>; a snapshot executed up to index {d.snapshot.last_executed} ({d.snapshot.keys} keys)</>}
        {d.entries.length > 0 ? '; log entries:' : '; no log entry.'}
      </p>
      {d.entries.length > 0 && (
        <ul className="disk-entries mono" data-testid={`disk-entries-${id}`}>
          {d.entries.map((e) => (
            <li key={e.index} data-index={e.index}>
              #{e.index} {formatBallot(e.ballot)} {commandText(e.command)} ({e.state === 'in_progress' ? 'accepted' : 'committed'})
            </li>
          ))}
        </ul>
      )}
      {up && (
        <p className="note">
          <strong>Volatile</strong> (lost by a crash, rebuilt from the disk on restart): role, leader, the executed marks, the key-value store, timers
          and the votes being counted.
        </p>
      )}
    </div>
  );
}

function NodeCardView({ id, view, disk, onCrash, onRestart, onRestartWiped, readOnly, durabilityNotes = true }: NodeCardProps) {
  if (view === null) {
    return (
      <section className="node-card down" data-testid={`node-${id}`} data-role="down" aria-label={`n${id}, down`}>
        <header>
          <h3>n{id}</h3>
          <span className="role-badge">down</span>
          {readOnly ? null : disk === undefined ? (
            <button type="button" onClick={onRestart}>
              Restart
            </button>
          ) : (
            <>
              <button type="button" onClick={onRestart} data-testid={`restart-disk-${id}`}>
                Restart from disk
              </button>
              <button type="button" onClick={onRestartWiped} data-testid={`restart-wiped-${id}`}>
                Restart wiped
              </button>
            </>
          )}
        </header>
        {!durabilityNotes ? (
          <p className="note">Crashed: it handles nothing until it restarts.</p>
        ) : disk === undefined ? (
          <p className="note">Crashed: its state is gone. A restart boots an empty node (durability none keeps nothing on disk).</p>
        ) : (
          <>
            <p className="note">Crashed: its memory is gone, its disk is not. From disk it comes back with its promise and accepted entries; wiped, it comes back empty and catches up by state transfer.</p>
            <Durability id={id} disk={disk} up={false} />
          </>
        )}
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
        {!readOnly && (
          <button type="button" onClick={onCrash}>
            Crash
          </button>
        )}
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
      {durabilityNotes && <Durability id={id} disk={disk} up />}
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
