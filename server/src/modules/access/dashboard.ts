/**
 * The home page's access card (accessdashboard; docs/product.md#home-page): the enabled door devices
 * and those offline, and today's visitors expected and arrived.
 */
import { DEVICE_ONLINE_MS, type AccessDashboard } from '@wuye/contract';
import { VISITOR_ROLES } from '@wuye/contract/visitors/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { visitorsToday } from '../visitors/visitors.js';

export async function accessDashboard(db: Kysely<DB>, rid: number): Promise<AccessDashboard> {
  const [devices, visitors] = await Promise.all([
    db
      .selectFrom('devices')
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<number>`count(*) FILTER (WHERE last_heartbeat IS NULL OR last_heartbeat <= now() - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval)::int`.as(
          'offline',
        ),
      ])
      .where('rid', '=', rid)
      .where('family', '=', 'door')
      .where('enabled', '=', 'Y')
      .executeTakeFirstOrThrow(),
    visitorsToday(db, rid),
  ]);
  return { total: devices.total, offline: devices.offline, expected: visitors.expected, arrived: visitors.arrived };
}

export const accessdashboard = defineMethod('accessdashboard', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: false,
  summary: '首页门禁卡片：启用的门禁设备数与其中离线数（2 分钟无心跳），今日预约访客数（待审核、已通过）与已到访数',
  handler: (ctx) => accessDashboard(ctx.db, ctx.rid),
});
