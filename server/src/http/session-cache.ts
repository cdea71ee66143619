import pg from 'pg';
import type { Config } from '../config.js';

/** What authenticate reads for a token: the session, its account and its community's end date. */
export interface SessionRow {
  token_hash: string;
  side: 'community' | 'group';
  rid: number | null;
  expires_at: Date;
  ended_at: Date | null;
  end_reason: string | null;
  last_seen_at: Date;
  account_id: number;
  username: string;
  name: string;
  sys_type: 'property' | 'merchant' | 'leader';
  group_id: number;
  roles: string[];
  permissions: string[];
  status: string;
  end_time: string | null;
}

const MAX_ENTRIES = 20_000;

/**
 * Live sessions remembered for a few seconds, so a read call costs one query instead of two.
 * Staleness is bounded three ways: every committed write through the dispatcher clears it
 * (logout, password change, region switch and renewal are all writes), on PostgreSQL a trigger
 * notifies every process when sessions, accounts or communities change (008_auth_notify.sql),
 * and entries expire after `ttlMs` regardless.
 */
export class SessionCache {
  private entries = new Map<string, { row: SessionRow; at: number }>();
  private enabled: boolean;

  constructor(private readonly ttlMs: number) {
    this.enabled = ttlMs > 0;
  }

  get(tokenHash: string): SessionRow | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.get(tokenHash);
    if (!hit) return undefined;
    if (Date.now() - hit.at > this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return hit.row;
  }

  set(tokenHash: string, row: SessionRow): void {
    if (!this.enabled) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(tokenHash, { row, at: Date.now() });
  }

  clear(): void {
    this.entries.clear();
  }

  /** While the cross-process notifications are not heard, nothing is cached. */
  setEnabled(on: boolean): void {
    this.enabled = on && this.ttlMs > 0;
    if (!this.enabled) this.clear();
  }
}

export const AUTH_CHANNEL = 'wuye_auth';

/**
 * Listens on PostgreSQL for auth changes made by other processes and clears the cache on each.
 * The cache stays off until the listener is connected and again whenever it drops.
 */
export function listenForAuthChanges(config: Config, cache: SessionCache, log: { warn(o: object, m: string): void }): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  cache.setEnabled(false);
  const connect = async () => {
    const c = new pg.Client({ connectionString: config.databaseUrl });
    c.on('notification', () => cache.clear());
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c, null));
    try {
      await c.connect();
      await c.query(`LISTEN ${AUTH_CHANNEL}`);
      if (stopped) return void (await c.end());
      client = c;
      cache.setEnabled(true);
    } catch (err) {
      drop(c, err);
    }
  };
  const drop = (c: pg.Client, err: unknown) => {
    cache.setEnabled(false);
    if (client === c) client = null;
    c.removeAllListeners('end');
    void c.end().catch(() => undefined);
    if (stopped || retry) return;
    if (err) log.warn({ err }, 'auth change listener lost; session cache off until it reconnects');
    retry = setTimeout(() => { retry = null; void connect(); }, 2000);
  };
  void connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    cache.setEnabled(false);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => undefined);
    }
  };
}
