// When this process's event loop ran late, over a whole run. The reset tests' peer proxies
// (peer-proxy.ts) forward every peer message on this loop, so while it is held up — by its own
// synchronous work or by the machine — no node hears any other, and followers stand for election
// with every server's timers on time. election-causes.ts reads the record beside the node logs.

export interface LoopLagSample {
  /** When the late tick ran (ms since the epoch). */
  atMs: number;
  /** How much later than its period the tick ran. */
  lateMs: number;
}

/** Ticks every `periodMs` and keeps each tick at least `minLateMs` late. */
export class LoopLagRecorder {
  readonly samples: LoopLagSample[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly periodMs = 20,
    private readonly minLateMs = 20,
  ) {}

  start(): void {
    let last = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      const lateMs = now - last - this.periodMs;
      if (lateMs >= this.minLateMs) this.samples.push({ atMs: now, lateMs });
      last = now;
    }, this.periodMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
