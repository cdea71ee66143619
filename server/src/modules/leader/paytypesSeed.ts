import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The group's own payment methods (自定义支付方式, /setup/paytypelist on the group side): the front
 * desk's POS terminal on 银行卡, which took 阳光花园's bank-card receipts of the last sixty days (with
 * the terminal's reference), and 支票 on 银行转账, not used yet (so it can still be deleted).
 */
export async function seedPayMethods(db: Kysely<DB>): Promise<void> {
  const sunshine = await db.selectFrom('regions').select(['id', 'group_id']).where('title', '=', '阳光花园').executeTakeFirst();
  if (!sunshine) return;
  const [pos] = await db
    .insertInto('pay_methods')
    .values([
      {
        group_id: sunshine.group_id,
        name: 'POS机-工行',
        base: 'bankcard',
        enabled: 'Y',
        ref_required: 'Y',
        sort: 4,
        remark: '前台工行POS，填写POS小票参考号',
      },
      { group_id: sunshine.group_id, name: '支票', base: 'transfer', enabled: 'Y', ref_required: 'Y', sort: 5, remark: '填写支票号' },
    ])
    .returning('id')
    .execute();
  const taken = await sql`
    UPDATE fee_payments SET pay_method_id = ${pos!.id}, pay_method = 'POS机-工行', pay_ref = 'POS' || lpad(id::text, 8, '0')
    WHERE rid = ${sunshine.id} AND pay_type = 'bankcard' AND cashier_id IS NOT NULL AND created_at > now() - interval '60 days'`.execute(
    db,
  );
  if (Number(taken.numAffectedRows ?? 0) > 0)
    await db
      .updateTable('pay_methods')
      .set({ used_at: sql`now()` })
      .where('id', '=', pos!.id)
      .execute();
}
