import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';

/** Refuses with 房屋不存在 unless the room belongs to the community; answers its building and unit. */
export async function requireRoom(db: Kysely<DB>, rid: number, hid: number): Promise<{ bid: number; tid: number }> {
  const room = await db.selectFrom('rooms').select(['bid', 'tid']).where('rid', '=', rid).where('id', '=', hid).executeTakeFirst();
  if (!room) fail('房屋不存在');
  return room;
}
