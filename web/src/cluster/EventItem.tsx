// One explained step of a run, as the Cluster view and the torture replay list them; a step
// whose details report a safety breach is marked so the eye finds it.
import { memo } from 'react';
import type { Explained } from './explain.ts';

export const EventItem = memo(function EventItem({ e }: { e: Explained }) {
  return (
    <li className={e.details.some((d) => d.startsWith('SAFETY')) ? 'violation' : undefined}>
      <span className="step-no">#{e.step}</span>
      {e.headline === '' ? e.notes.join('; ') : e.headline}
      {e.details.length > 0 && (
        <ul>
          {e.details.map((d, k) => (
            <li key={k}>{d}</li>
          ))}
        </ul>
      )}
    </li>
  );
});
