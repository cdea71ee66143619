import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Demo data of the structure area. */
export async function seedStructure(_db: Kysely<DB>): Promise<void> {}
