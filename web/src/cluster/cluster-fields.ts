// The Cluster view's settings as the URL carries them (prefix `c.`).
import { ENGINE_OPTIONS, FieldError, choiceField, integerField, stringListField, type Field, type FieldValues } from '../state/fields.ts';
import { formatReplaySpec, parseReplaySpec, ReplaySpecError } from '@replicant/sim/torture/replay-spec';

/** A torture run, as `npm run torture` prints it in its lab address; '' for none. Hidden from
 * the generic knobs: the Cluster view's torture control (TortureControl.tsx) writes it. */
function tortureField(): Field<string> {
  return {
    label: 'Torture run',
    default: '',
    control: { kind: 'hidden' },
    parse: (raw) => {
      if (raw === '') return '';
      try {
        return formatReplaySpec(parseReplaySpec(raw));
      } catch (e) {
        if (e instanceof ReplaySpecError) throw new FieldError(e.message);
        throw e;
      }
    },
    format: (v) => v,
  };
}

export const CLUSTER_FIELDS = {
  engine: choiceField('Engine', 'go', [...ENGINE_OPTIONS, { value: 'all', label: 'all four' }] as const),
  nodes: choiceField('Nodes', '3', [
    { value: '3', label: '3 nodes' },
    { value: '5', label: '5 nodes' },
  ] as const),
  /** none: the paper's design, a restarted node is empty; log: promises and accepted entries
   * are written to disk before anything that reveals them leaves (docs/protocol.md, Durability). */
  durability: choiceField('Durability', 'none', [
    { value: 'none', label: 'none (the paper’s)' },
    { value: 'log', label: 'log (durable)' },
  ] as const),
  /** The step shown; 0 means the last recorded one (booting alone takes a step per node). */
  step: integerField('Step', 0, { min: 0, max: 100_000 }),
  choices: stringListField('Recorded steps', { maxItems: 5_000, maxLength: 300 }),
  torture: tortureField(),
  speed: choiceField('Speed', '1', [
    { value: '0.5', label: '½×' },
    { value: '1', label: '1×' },
    { value: '2', label: '2×' },
    { value: '4', label: '4×' },
  ] as const),
};

export type ClusterState = FieldValues<typeof CLUSTER_FIELDS>;
