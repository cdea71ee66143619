import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { SandboxProvider, type PaymentProvider } from '../payments/provider.js';

/** Collaborators handlers reach through ctx.services, swappable in tests. */
export interface Services {
  payments: PaymentProvider;
  sandbox: SandboxProvider;
}

export function createServices(db: Kysely<DB>): Services {
  const sandbox = new SandboxProvider(db);
  return { payments: sandbox, sandbox };
}
