// The Learn view's live cluster: the Cluster view's own parts (topology, node cards, client
// commands, pending list, links) on the lesson's engines. Its own chunk, loaded with the
// engines, so a lesson's text is interactive before any of it arrives.
//
// Its first draw comes in parts, each in its own task after the previous one is painted (the
// topology, then each node card, then the controls): drawn at once, the whole panel was one
// main-thread task of 100–250 ms (React, then layout and paint of ~600 elements) just when the
// student starts reading, and a click then waited for it. Later states redraw in one go (only
// what changed). `onDrawn` says when every part is on screen.
import { useEffect, useState } from 'react';
import type { Action } from '../cluster/controller.ts';
import type { PanelSnapshot } from './lesson-protocol.ts';
import { NodeCard } from '../cluster/NodeCard.tsx';
import { Topology } from '../cluster/Topology.tsx';
import { ClientCommandForm, LinkControls, PendingList } from '../cluster/Controls.tsx';
import { ComparisonNote } from '../cluster/ComparisonNote.tsx';

const noFlights = () => {};

/** Runs `run` in a task of its own after the next frame is painted; returns its cancel function. */
export function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(run, 0)));
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

export default function LearnClusterPanel({ snap, act, onDrawn }: { snap: PanelSnapshot; act: (a: Action) => void; onDrawn?: () => void }) {
  const nodes = snap.views.length;
  // Parts drawn so far: 1 = the topology, 1 + k = k node cards, nodes + 2 = the controls too.
  const parts = nodes + 2;
  const [drawn, setDrawn] = useState(1);
  useEffect(() => {
    if (drawn >= parts) {
      onDrawn?.();
      return;
    }
    return afterNextPaint(() => setDrawn((d) => d + 1));
  }, [drawn, parts, onDrawn]);
  return (
    <>
      {snap.comparison && <ComparisonNote comparison={snap.comparison} />}
      <p className="mono note" data-testid="learn-time">
        t = {(snap.time_us / 1000).toFixed(1)} ms · {snap.step} events
      </p>
      <Topology views={snap.views} pending={snap.pending} cuts={snap.cuts} time_us={snap.time_us} flights={[]} onFlightDone={noFlights} onDeliver={(id) => act({ kind: 'deliver', id })} onFire={(id) => act({ kind: 'fire', id })} />
      <div className="nodes">
        {snap.views.slice(0, drawn - 1).map((v, id) => (
          <NodeCard key={id} id={id} raw={snap.inspect[id]!} view={v} onCrash={() => act({ kind: 'crash', node: id })} onRestart={() => act({ kind: 'restart', node: id })} />
        ))}
      </div>
      {drawn >= parts ? (
        <>
          <h2>Send a client command</h2>
          <ClientCommandForm nodes={nodes} initialLine="put y 2" act={act} />
          <h2>Pending ({snap.pending.length})</h2>
          <PendingList snap={snap} act={act} />
          <h2>Links</h2>
          <LinkControls nodes={nodes} cuts={snap.cuts} act={act} />
        </>
      ) : (
        <p className="loading" role="status">
          Drawing the cluster…
        </p>
      )}
    </>
  );
}
