// When an event loop ran late, over a whole run: the peer proxies' (peer-proxy-host.ts records
// its own). The proxies forward every peer message of a proxied cluster on that loop, so while it
// is held up — by other work on it or by the machine — no node hears any other, and followers
// stand for election with every server's timers on time. reset.test.ts writes the record beside
// the node logs (loop-lag.json) and election-causes.ts reads it.

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
