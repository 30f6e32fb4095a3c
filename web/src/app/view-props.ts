// What the shell hands every view: the whole state and the one way to change it.
import type { AppState } from '../state/app-state.ts';
import type { StateUpdate, UpdateOptions } from '../state/useAppState.ts';

export interface ViewProps {
  state: AppState;
  update: (change: StateUpdate, options?: UpdateOptions) => void;
}
