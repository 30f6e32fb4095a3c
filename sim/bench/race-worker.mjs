// The Race worker's entry (bench/race-step.ts): a worker thread does not inherit the bench's tsx
// loader, so this registers it and loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./race-worker.ts');
