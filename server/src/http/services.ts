import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import { SandboxProvider, type PaymentProvider } from '../payments/provider.js';
import type { SessionCache } from './session-cache.js';
import type { CountCache } from '../lib/countCache.js';

/** Collaborators handlers reach through ctx.services, swappable in tests. */
export interface Services {
  /** the payment provider of renewal orders; null when none is configured (scan-to-pay is then unavailable) */
  payments: PaymentProvider | null;
  /** the sandbox provider, only when the configuration turns sandboxes on (config.sandbox) */
  sandbox: SandboxProvider | null;
  /** live sessions remembered per process; a handler that changes sessions or communities in a
   *  transaction of its own (not the dispatcher's) clears it after committing */
  sessions: SessionCache;
  /** exact bill-list totals remembered per process until bills change (lib/countCache.ts) */
  billCounts: CountCache;
}

/**
 * The providers the configuration turns on. A real provider (WeChat Pay native) is returned here
 * when its merchant settings are present; the sandbox only with SANDBOX on (config.ts).
 */
export function createServices(db: Kysely<DB>, config: Config, sessions: SessionCache, billCounts: CountCache): Services {
  const sandbox = config.sandbox ? new SandboxProvider(db) : null;
  return { payments: sandbox, sandbox, sessions, billCounts };
}
