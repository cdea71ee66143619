import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Room categories every new community starts with (configurable afterwards). */
export const DEFAULT_ROOM_CATEGORIES = [
  { title: '住宅', kind: 'residence', sort: 1 },
  { title: '商铺', kind: 'shop', sort: 2 },
  { title: '写字楼', kind: 'office', sort: 3 },
  { title: '车位', kind: 'parking', sort: 4 },
  { title: '储藏室', kind: 'storage', sort: 5 },
] as const;

export async function insertDefaultCategories(db: Kysely<DB>, rid: number): Promise<void> {
  await db
    .insertInto('room_categories')
    .values(DEFAULT_ROOM_CATEGORIES.map((c) => ({ rid, ...c })))
    .onConflict((oc) => oc.columns(['rid', 'title']).doNothing())
    .execute();
}
