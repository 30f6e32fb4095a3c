// Stream numbers of the simulator's PRNG (see prng.ts): one independent stream per purpose, all
// in this one table so that no two purposes can share a stream by accident (streams.test.ts).

// A load run (run/kernel.ts, run/mitigation-sandbox.ts) and the step session (step/session.ts).
export const STREAM_NETWORK = 1;
export const STREAM_WORKLOAD = 2;
export const STREAM_THROTTLE = 3;
export const STREAM_RUNTIME = 5;
export const STREAM_MITIGATION = 6;
export const STREAM_STORAGE = 7;
// (8 was the fast mode's election waits, candidate card 1.8.2's heartbeat, retired: left unused.)

// A torture run (torture/scenario.ts, torture/run.ts).
export const STREAM_SCENARIO = 11;
export const STREAM_CLIENT_OPS = 12;
export const STREAM_FAULT_DICE = 13;
export const STREAM_TORTURE_NETWORK = 14;
export const STREAM_RESETS = 15;
export const STREAM_DISK = 16;
/** --checkpoints: each seed's snapshot_every, on its own stream so the other draws stay as they were */
export const STREAM_CHECKPOINTS = 17;

/** Client c of a torture run draws its operations from its own stream. */
export function clientOpsStream(client: number): number {
  return STREAM_CLIENT_OPS * 1000 + client;
}
