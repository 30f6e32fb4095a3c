// Stream numbers of the simulator's PRNG (see prng.ts): one independent stream per purpose.
export const STREAM_NETWORK = 1;
export const STREAM_WORKLOAD = 2;
export const STREAM_THROTTLE = 3;
export const STREAM_VALUES = 4;
export const STREAM_RUNTIME = 5;
export const STREAM_MITIGATION = 6;
export const STREAM_STORAGE = 7;
