// The five views, in the navigation's order (keys 1–5), with the audience each serves.
export const VIEWS = [
  { id: 'cluster', label: 'Cluster', audience: 'step through Paxos' },
  { id: 'lab', label: 'Lab', audience: 'turn the paper’s knobs' },
  { id: 'race', label: 'Race', audience: 'four languages, one squeeze' },
  { id: 'paper', label: 'Paper', audience: 'every stated number' },
  { id: 'cost', label: 'Cost', audience: 'what GC costs you' },
] as const;
export type View = (typeof VIEWS)[number]['id'];
