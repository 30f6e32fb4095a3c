// Colours and marker shapes. Okabe–Ito (Okabe & Ito, "Color Universal Design", 2008) stays
// distinguishable under the common colour-vision deficiencies; every series also has its own
// marker shape and dash pattern so that no chart depends on colour alone. The four languages'
// styles are the engine catalogue's (@replicant/engines/loader/catalogue).
import { ENGINES, type MarkerShape } from '@replicant/engines/loader/catalogue';

export type { MarkerShape };

export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
} as const;

interface SeriesStyle {
  colour: string;
  shape: MarkerShape;
  /** SVG stroke-dasharray for lines; '' is solid. */
  dash: string;
}

const STYLE_BY_NAME: Record<string, SeriesStyle> = {
  ...Object.fromEntries(ENGINES.map((e) => [e.language, { colour: e.colour, shape: e.marker, dash: e.dash }])),
  etcd: { colour: OKABE_ITO.reddishPurple, shape: 'cross', dash: '1 3' },
  // nodes of one cluster (Lab timelines)
  'node-0': { colour: OKABE_ITO.blue, shape: 'circle', dash: '' },
  'node-1': { colour: OKABE_ITO.orange, shape: 'square', dash: '6 3' },
  'node-2': { colour: OKABE_ITO.bluishGreen, shape: 'triangle', dash: '2 2' },
  'node-3': { colour: OKABE_ITO.vermillion, shape: 'diamond', dash: '8 3 2 3' },
  'node-4': { colour: OKABE_ITO.reddishPurple, shape: 'cross', dash: '1 3' },
  // the GC-mitigation papers' set-ups (Paper view: BLADE's Table 7, MITMEM's Fig 6; Lab: mitigation runs)
  'mitigation:BLADE': { colour: OKABE_ITO.bluishGreen, shape: 'circle', dash: '' },
  'mitigation:GC-Off': { colour: OKABE_ITO.blue, shape: 'square', dash: '6 3' },
  'mitigation:GC-On': { colour: OKABE_ITO.vermillion, shape: 'triangle', dash: '2 2' },
  'mitigation:MITMEM': { colour: OKABE_ITO.orange, shape: 'diamond', dash: '' },
  'mitigation:both': { colour: OKABE_ITO.reddishPurple, shape: 'cross', dash: '8 3 2 3' },
  // Table 1's two machine kinds
  'm5.metal': { colour: OKABE_ITO.black, shape: 'square', dash: '' },
  'm5.2xlarge': { colour: OKABE_ITO.skyBlue, shape: 'circle', dash: '' },
};

const FALLBACK: SeriesStyle = { colour: OKABE_ITO.black, shape: 'circle', dash: '' };

export function seriesStyle(name: string): SeriesStyle {
  return STYLE_BY_NAME[name] ?? FALLBACK;
}

/** Peer message kinds in the Cluster view. */
export const MESSAGE_COLOUR: Record<string, string> = {
  prepare: OKABE_ITO.skyBlue,
  promise: OKABE_ITO.blue,
  accept: OKABE_ITO.orange,
  accepted: OKABE_ITO.vermillion,
  commit: OKABE_ITO.bluishGreen,
  'commit ok': OKABE_ITO.reddishPurple,
  reply: OKABE_ITO.black,
};

/** Log instance states. */
export const INSTANCE_STATE_COLOUR = {
  in_progress: OKABE_ITO.yellow,
  committed: OKABE_ITO.skyBlue,
  executed: OKABE_ITO.bluishGreen,
} as const;
