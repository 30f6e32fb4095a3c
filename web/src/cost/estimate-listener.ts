// Who else reads the Cost view's answer: a view embedding it (the Learn view's lesson 14 checks
// the cost model's own output, not a second computation) listens here. null while the model
// computes or refuses the inputs.
import { createContext } from 'react';
import type { CostInputs } from './cost-inputs.ts';
import type { EstimateOutput } from './cost-output.ts';

export type EstimateListener = (answer: { inputs: CostInputs; estimate: EstimateOutput } | null) => void;

export const EstimateListenerContext = createContext<EstimateListener | null>(null);
