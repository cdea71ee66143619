const MAX_ENTRIES = 5_000;

/** The channel 009_bill_notify.sql notifies on when fee_bills change. */
export const BILLS_CHANNEL = 'wuye_bills';

/**
 * Exact totals of a list, remembered until the table they count changes: every page of a
 * community's bill list counted its 155,000 overdue bills again, 15 ms each time
 * (docs/perf/history.md#round-2). Totals stay exact because every change clears them: each committed
 * write through the dispatcher and each job at once, and on PostgreSQL a trigger notifies
 * every process of any other change (009_bill_notify.sql). A count that was running while a
 * clear happened may have read the old rows, so it is answered but not remembered.
 */
export class CountCache {
  private entries = new Map<string, { total: number; at: number }>();
  private generation = 0;
  private enabled = false;

  constructor(private readonly ttlMs: number) {}

  async total(key: string, count: () => Promise<number>): Promise<number> {
    if (!this.enabled) return count();
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at <= this.ttlMs) return hit.total;
    const generation = this.generation;
    const total = await count();
    if (this.enabled && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { total, at: Date.now() });
    }
    return total;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** While the cross-process notifications are not heard, nothing is remembered. */
  setEnabled(on: boolean): void {
    this.enabled = on && this.ttlMs > 0;
    this.clear();
  }
}
