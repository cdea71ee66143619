import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Demo data of the fees area. */
export async function seedFees(_db: Kysely<DB>): Promise<void> {}
