// The Cluster view's action lists: every pending message, timer and client command with what
// can be done to it, the links that can be cut (one way or both) and healed, and the form that
// sends a client command. The Learn view's cluster panel uses the same controls.
import { useState } from 'react';
import type { Action, Snapshot } from './controller.ts';
import { dueText, messageLabel, timerName } from './explain.ts';

export function PendingList({ snap, act }: { snap: Pick<Snapshot, 'pending' | 'time_us'>; act: (a: Action) => void }) {
  if (snap.pending.length === 0) return <p className="note">Nothing pending.</p>;
  return (
    <ul className="pending-list" data-testid="pending-list">
      {snap.pending.map((p, i) => {
        const due = dueText(p.due_us, snap.time_us);
        if (p.kind === 'message') {
          const label = messageLabel(JSON.parse(p.json));
          return (
            <li key={p.id} data-kind="message" data-type={p.type} data-from={p.from} data-to={p.to}>
              <span className="what">
                {i === 0 ? '▶ ' : ''}m{p.id}: n{p.from} → n{p.to} <strong>{label.text}</strong> <span className="note">{due}</span>
              </span>
              <button type="button" onClick={() => act({ kind: 'deliver', id: p.id })}>
                deliver
              </button>
              <button type="button" onClick={() => act({ kind: 'drop', id: p.id })}>
                drop
              </button>
              <button type="button" onClick={() => act({ kind: 'dup', id: p.id })}>
                duplicate
              </button>
            </li>
          );
        }
        if (p.kind === 'timer') {
          return (
            <li key={p.id} data-kind="timer" data-node={p.node} data-timer={p.timer}>
              <span className="what">
                {i === 0 ? '▶ ' : ''}n{p.node}'s {timerName(p.timer)} timer <span className="note">{due}</span>
              </span>
              <button type="button" onClick={() => act({ kind: 'fire', id: p.id })}>
                fire now
              </button>
            </li>
          );
        }
        return (
          <li key={p.id} data-kind="client" data-to={p.node}>
            <span className="what">
              {i === 0 ? '▶ ' : ''}client → n{p.node}: “{p.line}” <span className="note">{due}</span>
            </span>
            <button type="button" onClick={() => act({ kind: 'deliver', id: p.id })}>
              deliver
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function LinkControls({ nodes, cuts, act }: { nodes: number; cuts: [number, number][]; act: (a: Action) => void }) {
  const isCut = (a: number, b: number) => cuts.some(([x, y]) => x === a && y === b);
  const ids = Array.from({ length: nodes }, (_, i) => i);
  return (
    <div>
      <p className="note">Each cell is one direction of a link: its state (up, or ✗ down once cut), and for an up link the button that cuts it.</p>
      <table className="cut-grid" aria-label="Links, one direction per cell: state and action">
        <thead>
          <tr>
            <th>from ╲ to</th>
            {ids.map((b) => (
              <th key={b}>n{b}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ids.map((a) => (
            <tr key={a}>
              <th>n{a}</th>
              {ids.map((b) => (
                <td key={b} data-testid={`cut-cell-${a}-${b}`} data-state={a === b ? undefined : isCut(a, b) ? 'cut' : 'open'}>
                  {a === b ? (
                    '·'
                  ) : isCut(a, b) ? (
                    <span className="link-state cut" title={`n${a} → n${b} is cut: its messages are lost until you heal the links`}>
                      ✗ down
                    </span>
                  ) : (
                    <>
                      <span className="link-state">up</span>{' '}
                      <button type="button" onClick={() => act({ kind: 'cut', from: a, to: b })} aria-label={`cut the link from n${a} to n${b}`}>
                        cut
                      </button>
                    </>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="toolbar">
        {ids.map((x) => (
          <button
            key={x}
            type="button"
            onClick={() => {
              for (const y of ids) if (y !== x) (act({ kind: 'cut', from: x, to: y }), act({ kind: 'cut', from: y, to: x }));
            }}
          >
            Isolate n{x}
          </button>
        ))}
        <button type="button" onClick={() => act({ kind: 'heal' })} disabled={cuts.length === 0} title="key h">
          Heal all links
        </button>
      </div>
    </div>
  );
}

/** Sends one client line to a chosen node; the form keeps what was typed between sends. */
export function ClientCommandForm({ nodes, initialLine, act }: { nodes: number; initialLine: string; act: (a: Action) => void }) {
  const [clientNode, setClientNode] = useState(0);
  const [clientLine, setClientLine] = useState(initialLine);
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        act({ kind: 'client', node: clientNode, line: clientLine });
      }}
    >
      <label className="knob">
        <span>to</span>
        <select value={clientNode} onChange={(e) => setClientNode(Number(e.target.value))} data-testid="client-node">
          {Array.from({ length: nodes }, (_, id) => (
            <option key={id} value={id}>
              n{id}
            </option>
          ))}
        </select>
      </label>
      <label className="knob" style={{ flex: 1 }}>
        <span>command (put k v · get k · del k)</span>
        <input value={clientLine} onChange={(e) => setClientLine(e.target.value)} data-testid="client-line" />
      </label>
      <button type="submit" data-testid="client-send">
        Send
      </button>
    </form>
  );
}
