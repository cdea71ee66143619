import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Demo data of the owners area. */
export async function seedOwners(_db: Kysely<DB>): Promise<void> {}
