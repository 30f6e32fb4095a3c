// The cluster drawn as nodes on a circle and the links between them. Messages in flight sit on
// their link, labelled by kind, ballot and index; a click delivers one. Armed timers and queued
// client commands sit under their node; a click fires or delivers them. A delivered message
// flies to its receiver (Web Animations, so no React work per frame).
import { useLayoutEffect, useRef } from 'react';
import type { PendingItem } from '@replicant/sim/api';
import { formatBallot } from '@replicant/engines/loader/ballot';
import { MESSAGE_COLOUR, OKABE_ITO } from '../theme/palette.ts';
import { messageLabel, timerName } from './explain.ts';
import { workingBallot, type InspectView } from './inspect.ts';

export const TOPOLOGY_WIDTH = 640;
export const TOPOLOGY_HEIGHT = 380;
const NODE_R = 38;

export interface Point {
  x: number;
  y: number;
}

export function nodePosition(id: number, n: number): Point {
  const angle = -Math.PI / 2 + (2 * Math.PI * id) / n;
  const r = n <= 3 ? 130 : 140;
  return { x: TOPOLOGY_WIDTH / 2 + r * Math.cos(angle) * 1.35, y: TOPOLOGY_HEIGHT / 2 + 8 + r * Math.sin(angle) };
}

type MessageItem = Extract<PendingItem, { kind: 'message' }>;

/** Where a pending message sits: along its link, ordered by due time, on its direction's side. */
export function messagePositions(pending: PendingItem[], n: number): Map<number, Point> {
  const out = new Map<number, Point>();
  const byLink = new Map<string, MessageItem[]>();
  for (const p of pending) {
    if (p.kind !== 'message') continue;
    const k = `${p.from}>${p.to}`;
    byLink.set(k, [...(byLink.get(k) ?? []), p]);
  }
  for (const list of byLink.values()) {
    const { from, to } = list[0]!;
    const a = nodePosition(from, n);
    const b = nodePosition(to, n);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const nx = -(b.y - a.y) / len;
    const ny = (b.x - a.x) / len;
    const side = 15;
    list.forEach((m, i) => {
      // Soonest due is closest to the receiver.
      const f = 0.72 - (0.44 * i) / Math.max(1, list.length - 1 || 1);
      const t = list.length === 1 ? 0.5 : f;
      out.set(m.id, { x: a.x + (b.x - a.x) * t + nx * side, y: a.y + (b.y - a.y) * t + ny * side + (i % 2) * 2 });
    });
  }
  return out;
}

export interface Flight {
  key: number;
  label: string;
  kind: string;
  from: Point;
  to: Point;
  duration_ms: number;
}

function Pill({ x, y, label, kind, dashed }: { x: number; y: number; label: string; kind: string; dashed?: boolean }) {
  const w = Math.max(44, label.length * 6.4 + 12);
  return (
    <g transform={`translate(${x},${y})`}>
      <rect x={-w / 2} y={-10} width={w} height={20} rx={10} fill="#fff" stroke={MESSAGE_COLOUR[kind] ?? '#333'} strokeWidth={2.5} strokeDasharray={dashed ? '4 2' : undefined} />
      <text textAnchor="middle" dy="0.35em" fontSize={11} fill="#111">
        {label}
      </text>
    </g>
  );
}

function FlyingPill({ flight, onDone }: { flight: Flight; onDone: (key: number) => void }) {
  const ref = useRef<SVGGElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof el.animate !== 'function') return onDone(flight.key);
    const anim = el.animate(
      [{ transform: `translate(${flight.from.x}px, ${flight.from.y}px)` }, { transform: `translate(${flight.to.x}px, ${flight.to.y}px)`, opacity: 0.3 }],
      { duration: flight.duration_ms, easing: 'ease-in', fill: 'forwards' },
    );
    anim.onfinish = () => onDone(flight.key);
    return () => anim.cancel();
  }, [flight, onDone]);
  return (
    <g ref={ref} style={{ transform: `translate(${flight.from.x}px, ${flight.from.y}px)` }} pointerEvents="none" data-testid="flight">
      <Pill x={0} y={0} label={flight.label} kind={flight.kind} />
    </g>
  );
}

/** Drawn, not a glyph: emoji fonts are not guaranteed offline. */
function ClockIcon({ x, y }: { x: number; y: number }) {
  return (
    <g transform={`translate(${x},${y})`} stroke="#333" fill="none" strokeWidth={1.2}>
      <circle r={5} />
      <path d="M0 -3 V0 H2.5" />
    </g>
  );
}

const ROLE_FILL: Record<string, string> = { leader: OKABE_ITO.blue, candidate: OKABE_ITO.orange, follower: '#ffffff' };

export function Topology(props: {
  views: (InspectView | null)[];
  pending: PendingItem[];
  cuts: [number, number][];
  time_us: number;
  flights: Flight[];
  onFlightDone: (key: number) => void;
  onDeliver: (id: number) => void;
  onFire: (id: number) => void;
}) {
  const n = props.views.length;
  const positions = messagePositions(props.pending, n);
  const isCut = (a: number, b: number) => props.cuts.some(([x, y]) => x === a && y === b);
  const links: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) links.push([a, b]);

  return (
    <svg className="topology" viewBox={`0 0 ${TOPOLOGY_WIDTH} ${TOPOLOGY_HEIGHT}`} role="group" aria-label="Cluster: nodes, links and messages in flight">
      {links.map(([a, b]) => {
        const p = nodePosition(a, n);
        const q = nodePosition(b, n);
        const ab = isCut(a, b);
        const ba = isCut(b, a);
        return (
          <g key={`${a}-${b}`} data-testid={`link-${a}-${b}`}>
            <line x1={p.x} y1={p.y} x2={q.x} y2={q.y} stroke={ab || ba ? OKABE_ITO.vermillion : '#bbb'} strokeWidth={2} strokeDasharray={ab && ba ? '6 6' : ab || ba ? '2 5' : undefined} />
            {(ab || ba) && (
              <text x={(p.x + q.x) / 2} y={(p.y + q.y) / 2 - 22} textAnchor="middle" fontSize={11} fill={OKABE_ITO.vermillion} fontWeight={600}>
                {ab && ba ? 'cut both ways' : ab ? `n${a}→n${b} cut` : `n${b}→n${a} cut`}
              </text>
            )}
          </g>
        );
      })}
      {props.views.map((v, id) => {
        const p = nodePosition(id, n);
        const down = v === null;
        const timers = props.pending.filter((x): x is Extract<PendingItem, { kind: 'timer' }> => x.kind === 'timer' && x.node === id);
        const clients = props.pending.filter((x): x is Extract<PendingItem, { kind: 'client' }> => x.kind === 'client' && x.node === id);
        return (
          <g key={id} data-testid={`topology-node-${id}`}>
            <circle cx={p.x} cy={p.y} r={NODE_R} fill={down ? '#e6e6e6' : ROLE_FILL[v.role]} stroke="#222" strokeWidth={2} strokeDasharray={down ? '5 4' : undefined} />
            <text x={p.x} y={p.y - 8} textAnchor="middle" fontSize={15} fontWeight={700} fill={!down && v.role !== 'follower' ? '#fff' : '#111'}>
              n{id}
            </text>
            <text x={p.x} y={p.y + 9} textAnchor="middle" fontSize={11} fill={!down && v.role !== 'follower' ? '#fff' : '#111'}>
              {down ? 'down' : v.role}
            </text>
            <text x={p.x} y={p.y + 23} textAnchor="middle" fontSize={11} fill={!down && v.role !== 'follower' ? '#fff' : '#333'}>
              {down ? '' : formatBallot(workingBallot(v))}
            </text>
            {[...timers, ...clients].map((t, i) => {
              const label = t.kind === 'timer' ? `${timerName(t.timer)} in ${Math.max(0, Math.round((t.due_us - props.time_us) / 1000))} ms` : `client: ${t.line}`;
              const y = p.y + NODE_R + 16 + i * 18;
              return (
                <g
                  key={t.id}
                  className="clickable"
                  role="button"
                  tabIndex={0}
                  aria-label={t.kind === 'timer' ? `fire n${id}'s ${timerName(t.timer)} timer now` : `deliver the client command ${t.line} to n${id}`}
                  onClick={() => (t.kind === 'timer' ? props.onFire(t.id) : props.onDeliver(t.id))}
                  onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), t.kind === 'timer' ? props.onFire(t.id) : props.onDeliver(t.id))}
                >
                  {t.kind === 'timer' ? <ClockIcon x={p.x - label.length * 3 - 9} y={y - 4} /> : null}
                  <text x={p.x} y={y} textAnchor="middle" fontSize={11} fill="#333" textDecoration="underline dotted">
                    {label}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
      {props.pending.map((m) => {
        if (m.kind !== 'message') return null;
        const pos = positions.get(m.id)!;
        const label = messageLabel(JSON.parse(m.json));
        return (
          <g
            key={m.id}
            className="clickable"
            role="button"
            tabIndex={0}
            data-testid={`msg-${m.id}`}
            aria-label={`deliver message m${m.id}, ${label.text}, from n${m.from} to n${m.to}`}
            onClick={() => props.onDeliver(m.id)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), props.onDeliver(m.id))}
          >
            <Pill x={pos.x} y={pos.y} label={label.text} kind={label.kind} />
          </g>
        );
      })}
      {props.flights.map((f) => (
        <FlyingPill key={f.key} flight={f} onDone={props.onFlightDone} />
      ))}
    </svg>
  );
}
