// The worker script of the simulator's Chromium checks: the simulator's worker entry with a
// browser engine loader injected, exactly as the web lab wires it.
import { startSimWorker } from '../../src/worker.ts';
import { loadEngine } from './engines.ts';

startSimWorker(self as never, loadEngine);
