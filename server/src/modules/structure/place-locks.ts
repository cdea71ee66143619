import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Holds buildings and units as a write that changes rooms' places is about to use them, before it
 * touches a room. A room's trigger reads its building and unit FOR SHARE (026_room_addresses.sql),
 * and a renamed building or unit rewrites its rooms: taken room first, the locks of a room edit and
 * of a rename at the same moment would wait on each other until PostgreSQL aborted one. Taken here
 * first, every writer locks in one order (buildings, units, rooms), so one simply waits for the other.
 */
export async function holdPlaces(db: Kysely<DB>, rid: number, place: { bids: number[]; tids?: number[] }): Promise<void> {
  await sql`SELECT 1 FROM buildings WHERE rid = ${rid} AND id = ANY(${place.bids}::bigint[]) ORDER BY id FOR SHARE`.execute(db);
  if (place.tids?.length) {
    await sql`SELECT 1 FROM units WHERE rid = ${rid} AND id = ANY(${place.tids}::bigint[]) ORDER BY id FOR SHARE`.execute(db);
  }
}
