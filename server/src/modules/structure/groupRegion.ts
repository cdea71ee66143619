import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';

/**
 * A community of the caller's group, or a refusal: the group side's one check before it reads or
 * writes anything of a community it names (docs/architecture.md#group-side). The message is the
 * caller's: the community list answers 小区不存在, the group's own pages say why.
 */
export async function groupRegion(db: Kysely<DB>, groupId: number, rid: number, message = '小区不存在或不属于本集团') {
  const region = await db
    .selectFrom('regions')
    .select(['id', 'title', 'end_time', 'modules_off'])
    .where('id', '=', rid)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!region) fail(message);
  return region;
}

/** Of the communities a form names, those not of the caller's group (none, or another group's), in the form's order. */
export async function foreignRegions(db: Kysely<DB>, groupId: number, rids: readonly number[]): Promise<number[]> {
  if (rids.length === 0) return [];
  const own = await db.selectFrom('regions').select('id').where('group_id', '=', groupId).where('id', 'in', rids).execute();
  const ids = new Set(own.map((r) => Number(r.id)));
  return rids.filter((r) => !ids.has(r));
}
