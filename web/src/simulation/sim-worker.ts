// The simulation worker: the simulator's own worker entry with the browser's engine loaders
// injected (the simulator never loads engines itself).
/// <reference lib="webworker" />
import { startSimWorker } from '@replicant/sim/worker';
import { loadBrowserEngine } from '../engines.ts';

startSimWorker(self as unknown as Parameters<typeof startSimWorker>[0], loadBrowserEngine);
