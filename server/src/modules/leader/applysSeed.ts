/**
 * The demo group's app catalogue (/applys/applyslist on the group side): 物业缴费 first everywhere
 * and not to be hidden or moved; 智能电表 and 充电桩 open to 阳光花园 alone (its meters and piles); the
 * rest as the catalogue has them.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function seedGroupCatalogue(db: Kysely<DB>): Promise<void> {
  const group = await db.selectFrom('groups').select('id').orderBy('id').executeTakeFirstOrThrow();
  const sunshine = await db.selectFrom('regions').select('id').where('group_id', '=', group.id).orderBy('id').executeTakeFirstOrThrow();
  const leader = await db.selectFrom('accounts').select('id').where('username', '=', 'leader').executeTakeFirst();
  const by = leader?.id ?? null;
  await db
    .insertInto('group_app_services')
    .values([
      {
        group_id: group.id,
        code: 'payment',
        icon: 'WalletOutlined',
        sort: 5,
        allow_hide: 'N',
        allow_reorder: 'N',
        created_by: by,
        updated_by: by,
      },
      {
        group_id: group.id,
        code: 'meter',
        icon: 'ThunderboltOutlined',
        sort: 90,
        region_scope: 'some',
        rids: [Number(sunshine.id)],
        created_by: by,
        updated_by: by,
      },
      {
        group_id: group.id,
        code: 'charging',
        icon: 'ThunderboltOutlined',
        sort: 120,
        region_scope: 'some',
        rids: [Number(sunshine.id)],
        created_by: by,
        updated_by: by,
      },
    ])
    .execute();
}
