// The window's operations one by one — intended start, latency, service time, kind — kept only by
// the approximate fast mode (fidelity 'fast-approx'), whose result repeats a simulated stretch of
// the window over the rest of it (run/cycle-repeat.ts) and so needs each operation's place in
// time, which a histogram does not keep. Typed arrays grown by doubling: no object per operation.
export class OpLog {
  intended_us = new Float64Array(4096);
  latency_us = new Float64Array(4096);
  /** NaN for an operation never started (its service time is not measured) */
  service_us = new Float64Array(4096);
  /** 1: an update, 0: a read */
  update = new Uint8Array(4096);
  /** 1: censored (unanswered at the stop: it does not count as completed) */
  censored = new Uint8Array(4096);
  length = 0;

  add(intended_us: number, latency_us: number, service_us: number, update: boolean, censored: boolean): void {
    if (this.length === this.update.length) this.grow();
    const i = this.length++;
    this.intended_us[i] = intended_us;
    this.latency_us[i] = latency_us;
    this.service_us[i] = service_us;
    this.update[i] = update ? 1 : 0;
    this.censored[i] = censored ? 1 : 0;
  }

  private grow(): void {
    const n = this.update.length * 2;
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const u = (a: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.intended_us = f(this.intended_us);
    this.latency_us = f(this.latency_us);
    this.service_us = f(this.service_us);
    this.update = u(this.update);
    this.censored = u(this.censored);
  }
}
