// A progress display for long runs: which setting, how far, elapsed and a rough time left.
// On a terminal the current line is rewritten in place; in a log, every step is a line.

export class ProgressDisplay {
  private readonly t0 = Date.now();
  private current = '';

  constructor(private readonly total: number, private readonly estimate_s: number, private readonly out: NodeJS.WriteStream = process.stderr) {}

  private stamp(done: number): string {
    const elapsed = (Date.now() - this.t0) / 1000;
    const left = done > 0 ? (elapsed / done) * (this.total - done) : this.estimate_s - elapsed;
    const fmt = (s: number) => `${Math.floor(s / 60)}m${String(Math.max(0, Math.round(s % 60))).padStart(2, '0')}s`;
    return `[${done}/${this.total} · ${fmt(elapsed)} elapsed · ~${fmt(Math.max(0, left))} left]`;
  }

  setting(index: number, id: string): void {
    this.current = id;
    this.line(index, 'start');
  }

  step(index: number, message: string): void {
    this.line(index, message);
  }

  private line(done: number, message: string): void {
    const text = `${this.stamp(done)} ${this.current}: ${message}`;
    if (this.out.isTTY) this.out.write(`\r\x1b[2K${text.slice(0, (this.out.columns ?? 120) - 1)}`);
    else this.out.write(text + '\n');
  }

  /** A line that stays (results, warnings). */
  log(message: string): void {
    if (this.out.isTTY) this.out.write('\r\x1b[2K');
    this.out.write(message + '\n');
  }
}
