// The Cluster view's control that starts a torture run: engine, seed and durability, or the
// known violation in one click. It only writes the run's line into the state (c.torture), as a
// history entry of its own, so the address, Back and reload all name the run; the replay view
// does the rest. A seed that is not one says so and starts nothing.
import { useState } from 'react';
import { ENGINE_NAMES, languageOf } from '@replicant/engines/loader/catalogue';
import { replayCommand, parseReplaySpec } from '@replicant/sim/torture/replay-spec';
import { BROWSER_ENGINES } from '../engines.ts';
import { DURABILITY_CHOICES, KNOWN_VIOLATION, specFor, type TortureChoice } from './torture-form.ts';

/** `initial`: what the fields show first; `current`: the run on screen ('' for none); `start`
 * opens a run by its line. Remount (key) to show a new run's fields. */
export function TortureControl({ initial, current, start }: { initial: TortureChoice; current: string; start: (spec: string) => void }) {
  const [choice, setChoice] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<TortureChoice>) => {
    setChoice((c) => ({ ...c, ...patch }));
    setError(null);
  };
  // The preset opens its whole seed, never a shrunk run of it that happens to be on screen.
  const run = (c: TortureChoice, base = current) => {
    const r = specFor(c, base);
    if ('error' in r) return setError(r.error);
    setError(null);
    start(r.spec);
  };
  const preview = specFor(choice, current);
  const known = `seed ${KNOWN_VIOLATION.seed_text}, ${languageOf(KNOWN_VIOLATION.engine as Exclude<TortureChoice['engine'], 'all'>)}, durability ${KNOWN_VIOLATION.durability}`;

  return (
    <section className="torture-control" data-testid="torture-control" aria-label="Start a torture run">
      <form
        className="toolbar"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          run(choice);
        }}
      >
        <label className="knob">
          <span>Engine</span>
          <select value={choice.engine} onChange={(e) => set({ engine: e.target.value as TortureChoice['engine'] })} data-testid="torture-engine">
            {ENGINE_NAMES.map((e) => (
              <option key={e} value={e} disabled={!BROWSER_ENGINES.includes(e)}>
                {languageOf(e)}
                {BROWSER_ENGINES.includes(e) ? '' : ' (not in this build)'}
              </option>
            ))}
            <option value="all">a mix the seed draws</option>
          </select>
        </label>
        <label className="knob">
          <span>Seed</span>
          <input
            value={choice.seed_text}
            inputMode="numeric"
            onChange={(e) => set({ seed_text: e.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'torture-seed-error' : undefined}
            data-testid="torture-seed"
          />
        </label>
        <label className="knob">
          <span>Durability</span>
          <select value={choice.durability} onChange={(e) => set({ durability: e.target.value as TortureChoice['durability'] })} data-testid="torture-durability">
            {DURABILITY_CHOICES.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" data-testid="torture-start">
          Run this seed
        </button>
        <button
          type="button"
          onClick={() => {
            setChoice(KNOWN_VIOLATION);
            run(KNOWN_VIOLATION, '');
          }}
          data-testid="torture-known-violation"
          title={`the seed the tests use to show Porcupine catching a violation: ${known}`}
        >
          Show a known violation ({known})
        </button>
      </form>
      {error ? (
        <p className="field-error" id="torture-seed-error" role="alert" data-testid="torture-seed-error">
          {error}
          {current !== '' && ' The run below is still the earlier one.'}
        </p>
      ) : (
        'spec' in preview &&
        preview.spec !== current && (
          <p className="note">
            The same run on the command line: <span className="mono">{replayCommand(parseReplaySpec(preview.spec))}</span>
          </p>
        )
      )}
    </section>
  );
}
