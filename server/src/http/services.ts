import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { SandboxProvider, type PaymentProvider } from '../payments/provider.js';
import type { SessionCache } from './session-cache.js';
import type { CountCache } from '../lib/countCache.js';

/** Collaborators handlers reach through ctx.services, swappable in tests. */
export interface Services {
  payments: PaymentProvider;
  sandbox: SandboxProvider;
  /** live sessions remembered per process; a handler that changes sessions or communities in a
   *  transaction of its own (not the dispatcher's) clears it after committing */
  sessions: SessionCache;
  /** exact bill-list totals remembered per process until bills change (lib/countCache.ts) */
  billCounts: CountCache;
}

export function createServices(db: Kysely<DB>, sessions: SessionCache, billCounts: CountCache): Services {
  const sandbox = new SandboxProvider(db);
  return { payments: sandbox, sandbox, sessions, billCounts };
}
