/**
 * A progress bar on stderr: steps done / total, elapsed time and the step running. On a
 * terminal it redraws one line; otherwise (CI logs) it prints one line per finished step.
 */
export class Progress {
  private done = 0;
  private readonly started = performance.now();
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private total: number,
    private readonly width = 28,
  ) {}

  /** Grows the total when a later phase learns how many steps it has. */
  addSteps(n: number): void {
    this.total += n;
  }

  async step<T>(label: string, run: () => Promise<T>): Promise<T> {
    const t = performance.now();
    if (this.tty) this.draw(label);
    const result = await run();
    this.done++;
    if (this.tty) this.draw(label);
    else process.stderr.write(`${this.bar()} ${label} (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
    return result;
  }

  finish(message: string): void {
    if (this.tty) process.stderr.write('\n');
    process.stderr.write(`${message} in ${clock(performance.now() - this.started)}\n`);
  }

  private bar(): string {
    const filled = this.total ? Math.round((this.done / this.total) * this.width) : 0;
    const pad = String(this.total).length;
    return `[${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${String(this.done).padStart(pad)}/${this.total} ${clock(performance.now() - this.started)}`;
  }

  private draw(label: string): void {
    const columns = process.stderr.columns ?? 100;
    process.stderr.write(`\r${`${this.bar()} ${label}`.slice(0, columns - 1).padEnd(columns - 1)}`);
  }
}

/** ms -> m:ss */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
