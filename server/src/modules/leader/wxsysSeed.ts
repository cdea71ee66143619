import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { demoLeaderWith } from './demoLeader.js';

/**
 * Demo WeChat settings and payment channels (/setup/setwxsys and /setup/setchannel on the group
 * side): the demo leader gets both account permissions (is_wechatset_auth for the official account,
 * is_microapp_auth for the mini-program); the group's official account and mini-program carry their
 * ids and names but no secrets (the seed holds no database key to seal with), so the page shows them
 * 未设置 and 测试 says what is missing; the channels record the sandbox for renewal and WeChat Pay for
 * the owner app (the group's default merchant is WeChat Pay, modules/leader/setpaySeed.ts).
 */
export async function seedWxSettings(db: Kysely<DB>): Promise<void> {
  const leader = await demoLeaderWith(db, ['is_wechatset_auth', 'is_microapp_auth']);
  if (!leader) return;
  await db
    .insertInto('wx_accounts')
    .values([
      { group_id: leader.group_id, kind: 'oa', app_id: 'wx5d3f8a1b2c4e6f70', name: '阳光物业服务', original_id: 'gh_a1b2c3d4e5f6' },
      { group_id: leader.group_id, kind: 'mini', app_id: 'wx9e8d7c6b5a493827', name: '阳光物业业主端', original_id: 'gh_0f1e2d3c4b5a' },
    ])
    .execute();
  await db
    .insertInto('pay_channels')
    .values([
      { group_id: leader.group_id, scene: 'owner_app', provider: 'wechat', enabled: 'Y', remark: '演示数据' },
      { group_id: leader.group_id, scene: 'renewal', provider: 'sandbox', enabled: 'Y', remark: '演示数据' },
    ])
    .execute();
}
