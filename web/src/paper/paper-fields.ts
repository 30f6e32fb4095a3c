// The Paper view's settings as the URL carries them (prefix `paper.`).
import { choiceField, flagField, type FieldValues } from '../state/fields.ts';

export const PAPER_FIELDS = {
  fig: choiceField('Figure', 'all', [
    { value: 'all', label: 'all' },
    { value: 'fig3', label: 'Fig 3' },
    { value: 'fig4', label: 'Fig 4' },
    { value: 'fig5', label: 'Fig 5' },
    { value: 'fig6', label: 'Fig 6' },
    { value: 'fig7', label: 'Fig 7' },
    { value: 'fig8', label: 'Fig 8' },
    { value: 'fig9', label: 'Fig 9' },
    { value: 'fig10', label: 'Fig 10' },
    { value: 'fig11', label: 'Fig 11' },
    { value: 'fig12', label: 'Fig 12' },
    { value: 'fig13', label: 'Fig 13' },
    { value: 'table1', label: 'Table 1' },
    { value: 'blade', label: 'BLADE' },
    { value: 'mitmem', label: 'MITMEM' },
  ] as const),
  // Off unless asked for: a native run on a shared laptop-class machine is not the paper's set-up.
  overlays: flagField('Show simulated and native results', false),
};

export type PaperState = FieldValues<typeof PAPER_FIELDS>;
