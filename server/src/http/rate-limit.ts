import { addressKey } from './throttle.js';

/** Addresses remembered at most; beyond it the ones back at their full allowance are forgotten. */
const MAX_ADDRESSES = 50_000;

/**
 * Calls per address per minute, as a token bucket per address in this process: a burst of up to
 * `perMinute` calls, then one every 60/perMinute seconds. It holds back callers without a live
 * session (app.ts), before their body is read; signed-in callers are never counted. 0 turns it off.
 */
export class AddressLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(private readonly perMinute: number) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes one call's allowance: 0 when the call may go ahead, else the seconds until it may. */
  take(ip: string, now = Date.now()): number {
    if (!(this.perMinute > 0)) return 0;
    const key = addressKey(ip);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_ADDRESSES) this.prune(now);
      bucket = { tokens: this.perMinute, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
  }

  private prune(now: number) {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.perMinute) this.buckets.delete(key);
    }
    // all of them busy: start over rather than grow without bound
    if (this.buckets.size >= MAX_ADDRESSES) this.buckets.clear();
  }
}
