// The Cluster view's settings as the URL carries them (prefix `c.`).
import { ENGINE_OPTIONS, choiceField, integerField, stringListField, type FieldValues } from '../state/fields.ts';

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
  speed: choiceField('Speed', '1', [
    { value: '0.5', label: '½×' },
    { value: '1', label: '1×' },
    { value: '2', label: '2×' },
    { value: '4', label: '4×' },
  ] as const),
};

export type ClusterState = FieldValues<typeof CLUSTER_FIELDS>;
