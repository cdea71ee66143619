import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The group's own payment methods (自定义支付方式, /setup/paytypelist on the group side): the front
 * desk's POS terminal on 银行卡 and 支票 on 银行转账. Seeded before the parking desk's renewals,
 * which take a third of 阳光花园's by the POS (carpark/seed.ts).
 */
export async function seedPayMethods(db: Kysely<DB>): Promise<void> {
  const sunshine = await db.selectFrom('regions').select(['id', 'group_id']).where('title', '=', '阳光花园').executeTakeFirst();
  if (!sunshine) return;
  await db
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
    .execute();
}

/**
 * What the POS took: 阳光花园's bank-card receipts of the last sixty days (with the terminal's
 * reference), after the fees' seed; 支票 is not used yet (so it can still be deleted).
 */
export async function seedPayMethodUse(db: Kysely<DB>): Promise<void> {
  const sunshine = await db.selectFrom('regions').select(['id', 'group_id']).where('title', '=', '阳光花园').executeTakeFirst();
  if (!sunshine) return;
  const pos = await db
    .selectFrom('pay_methods')
    .select('id')
    .where('group_id', '=', sunshine.group_id)
    .where('name', '=', 'POS机-工行')
    .executeTakeFirstOrThrow();
  await sql`
    UPDATE fee_payments SET pay_method_id = ${pos.id}, pay_method = 'POS机-工行', pay_ref = 'POS' || lpad(id::text, 8, '0')
    WHERE rid = ${sunshine.id} AND pay_type = 'bankcard' AND cashier_id IS NOT NULL AND created_at > now() - interval '60 days'`.execute(
    db,
  );
  const used = await db
    .selectFrom('fee_payments')
    .select('id')
    .where('pay_method_id', '=', pos.id)
    .union(db.selectFrom('parking_renewals').select('id').where('pay_method_id', '=', pos.id))
    .limit(1)
    .executeTakeFirst();
  if (used)
    await db
      .updateTable('pay_methods')
      .set({ used_at: sql`now()` })
      .where('id', '=', pos.id)
      .execute();
}
