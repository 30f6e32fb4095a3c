// The Learn view's live cluster: the Cluster view's own parts (topology, node cards, client
// commands, pending list, links) on the lesson's engines. Its own chunk, loaded with the
// engines, so a lesson's text is interactive before any of it arrives.
import { useState } from 'react';
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { Action } from '../cluster/controller.ts';
import type { PanelSnapshot } from './lesson-protocol.ts';
import { NodeCard } from '../cluster/NodeCard.tsx';
import { Topology } from '../cluster/Topology.tsx';
import { ClientCommandForm, LinkControls, PendingList } from '../cluster/Controls.tsx';

const noFlights = () => {};

export default function LearnClusterPanel({ snap, act }: { snap: PanelSnapshot; act: (a: Action) => void }) {
  return (
    <>
      {snap.comparison && (
        <p className={`compare ${snap.comparison.identical ? 'same' : 'differ'}`} data-testid="comparison" data-identical={snap.comparison.identical} role="status">
          {snap.comparison.identical ? (
            <>
              <strong>{snap.comparison.engines.map((e) => languageOf(e)).join(', ')}: identical</strong> — {snap.comparison.detail}.
            </>
          ) : (
            <>
              <strong>The engines differ:</strong> {snap.comparison.detail}.
            </>
          )}
        </p>
      )}
      <p className="mono note" data-testid="learn-time">
        t = {(snap.time_us / 1000).toFixed(1)} ms · {snap.step} events
      </p>
      <Topology views={snap.views} pending={snap.pending} cuts={snap.cuts} time_us={snap.time_us} flights={[]} onFlightDone={noFlights} onDeliver={(id) => act({ kind: 'deliver', id })} onFire={(id) => act({ kind: 'fire', id })} />
      <div className="nodes">
        {snap.views.map((v, id) => (
          <NodeCard key={id} id={id} raw={snap.inspect[id]!} view={v} onCrash={() => act({ kind: 'crash', node: id })} onRestart={() => act({ kind: 'restart', node: id })} />
        ))}
      </div>
      <h2>Send a client command</h2>
      <ClientCommandForm nodes={snap.views.length} initialLine="put y 2" act={act} />
      <h2>Pending ({snap.pending.length})</h2>
      <PendingList snap={snap} act={act} />
      <h2>Links</h2>
      <LinkControls nodes={snap.views.length} cuts={snap.cuts} act={act} />
    </>
  );
}
