import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Demo data of setup's settings (server/src/db/OWNERS.md): the group's brand, and the first
 * community's own brand, details and client downloads (/setup/setsys), and a few daily switches changed from their defaults
 * (/setup/setdaily) in the first two communities, and common links (/setup/linklist): the group's
 * and the first community's own.
 */
export async function seedSettings(db: Kysely<DB>): Promise<void> {
  const regions = await db.selectFrom('regions').select(['id', 'title']).orderBy('id').limit(2).execute();
  const [first, second] = regions;
  if (!first) return;
  await db
    .updateTable('regions')
    .set({
      system_title: '幸福里智慧物业管理平台',
      short_title: '幸福里',
      company_name: '幸福里物业服务有限公司',
      map_point: '121.544379,31.221517',
      property_app_url: 'https://www.example.com/app/property',
      consume_app_url: 'https://www.example.com/download/yikatong-setup.exe',
    })
    .where('id', '=', first.id)
    .execute();
  const rows: Array<{ rid: number; key: string; value: string }> = [
    { rid: first.id, key: 'visitor_review', value: JSON.stringify(true) },
    { rid: first.id, key: 'repair_finish_hours', value: JSON.stringify(48) },
    { rid: first.id, key: 'fees_receipt_note', value: JSON.stringify('开户行：工商银行浦东支行 账号：1001 2345 6789 0000') },
  ];
  if (second) rows.push({ rid: second.id, key: 'repair_dispatch_mode', value: JSON.stringify('grab') });
  await db.insertInto('daily_settings').values(rows).execute();

  // common links: the group's, inherited by every community, and the first community's own
  const group = await db.selectFrom('regions').select('group_id').where('id', '=', first.id).executeTakeFirstOrThrow();
  // the group's brand, which the communities without their own follow
  await db
    .updateTable('groups')
    .set({
      sys_defaults: JSON.stringify({
        system_title: '幸福里智慧物业管理平台',
        short_title: '幸福里',
        company_name: '幸福里物业服务有限公司',
        copyright: '© 2026 幸福里物业集团 版权所有',
      }),
    })
    .where('id', '=', group.group_id)
    .execute();
  await db
    .insertInto('group_links')
    .values([
      { group_id: group.group_id, title: '集团门户', url: 'https://www.example.com/portal', icon: 'GlobalOutlined', sort: 1 },
      { group_id: group.group_id, title: '客服热线', url: 'tel:400-800-1234', icon: 'PhoneOutlined', target: 'self', sort: 2 },
    ])
    .execute();
  // the foundation's links to pages of the console open in the console
  await db
    .updateTable('common_links')
    .set({ kind: 'internal', target: 'self', icon: 'FileTextOutlined' })
    .where('url', 'like', '/%')
    .execute();
  await db
    .insertInto('common_links')
    .values({
      rid: first.id,
      title: '收银台',
      url: '/desktop/cashier',
      kind: 'internal',
      target: 'self',
      icon: 'ShopOutlined',
      roles: ['cashier'],
      sort: 3,
    })
    .execute();
}
