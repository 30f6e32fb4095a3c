// The views in the navigation's order (keys 1–6), with the audience each serves. The home page
// (the root address) is not in the navigation: the brand link leads there.
export const VIEWS = [
  { id: 'cluster', label: 'Cluster', audience: 'step through Paxos' },
  { id: 'lab', label: 'Lab', audience: 'turn the paper’s knobs' },
  { id: 'race', label: 'Race', audience: 'four languages, one squeeze' },
  { id: 'paper', label: 'Paper', audience: 'every stated number' },
  { id: 'cost', label: 'Cost', audience: 'what GC costs you' },
  { id: 'learn', label: 'Learn', audience: 'guided lessons on the live engines' },
] as const;
export type NavView = (typeof VIEWS)[number]['id'];
export type View = NavView | 'home';
export const HOME_VIEW = { id: 'home', label: 'Home', audience: 'where to begin' } as const;
