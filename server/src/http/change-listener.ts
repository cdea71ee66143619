import pg from 'pg';
import type { Config } from '../config.js';

/** A per-process cache that a PostgreSQL notification channel keeps in step with the database. */
export interface ListeningCache {
  channel: string;
  cache: { clear(): void; setEnabled(on: boolean): void };
}

/**
 * Listens on PostgreSQL for changes made by other processes (the triggers of 008_auth_notify.sql
 * and 009_bill_notify.sql) and clears the cache of each channel heard. The caches stay off until
 * the listener is connected, and again whenever it drops.
 */
export function listenForChanges(config: Config, caches: ListeningCache[], log: { warn(o: object, m: string): void }): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const enable = (on: boolean) => caches.forEach(({ cache }) => cache.setEnabled(on));
  enable(false);
  const connect = async () => {
    const c = new pg.Client({ connectionString: config.databaseUrl });
    c.on('notification', (n) => caches.filter((x) => x.channel === n.channel).forEach(({ cache }) => cache.clear()));
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c, null));
    try {
      await c.connect();
      for (const { channel } of caches) await c.query(`LISTEN ${channel}`);
      if (stopped) return void (await c.end());
      client = c;
      enable(true);
    } catch (err) {
      drop(c, err);
    }
  };
  const drop = (c: pg.Client, err: unknown) => {
    enable(false);
    if (client === c) client = null;
    c.removeAllListeners('end');
    void c.end().catch(() => undefined);
    if (stopped || retry) return;
    if (err) log.warn({ err }, 'change listener lost; caches off until it reconnects');
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, 2000);
  };
  void connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    enable(false);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => undefined);
    }
  };
}
