import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Demo payment merchants (支付商户设置, /setup/setpay on the group side): the group's default for all
 * fees (WeChat Pay) and 阳光花园's own for its property fees (Alipay). The seed holds no database
 * key to seal with, so their keys are left to be filled in: the page shows them 未设置 and 测试 says
 * what is missing.
 */
export async function seedPayMerchants(db: Kysely<DB>): Promise<void> {
  const sunshine = await db.selectFrom('regions').select(['id', 'group_id']).where('title', '=', '阳光花园').executeTakeFirst();
  const group = sunshine ?? (await db.selectFrom('regions').select(['id', 'group_id']).orderBy('id').executeTakeFirst());
  if (!group) return;
  const remark = '演示数据：请填写密钥后测试';
  await db
    .insertInto('pay_merchants')
    .values([
      {
        group_id: group.group_id,
        rid: null,
        fee_kind: 'all',
        provider: 'wechat',
        title: '集团统一收款（微信支付）',
        mch_id: '1900000109',
        app_id: 'wx8888888888888888',
        serial_no: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
        remark,
      },
      ...(sunshine
        ? [
            {
              group_id: sunshine.group_id,
              rid: sunshine.id,
              fee_kind: 'property' as const,
              provider: 'alipay' as const,
              title: '阳光花园物业费（支付宝）',
              app_id: '2021000123456789',
              remark,
            },
          ]
        : []),
    ])
    .execute();
}
