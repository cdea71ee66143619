import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function seedInternalOrders(_db: Kysely<DB>): Promise<void> {}
