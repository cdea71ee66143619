import type { SystemInfo } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { Session } from '../../http/registry.js';
import { daysLeft } from '../../lib/wire.js';
import { readGroupDefaults } from '../setup/setsys.js';

/**
 * System info of a session (docs/product.md#system-info): its community's, or on the group side the
 * group's. A community's empty brand, download or help field reads the group's default
 * (docs/product.md#setup-settings).
 */
export async function systemInfoOf(
  db: Kysely<DB>,
  config: Pick<Config, 'timeZone'>,
  session: Pick<Session, 'rid' | 'groupId'>,
): Promise<SystemInfo> {
  if (session.rid === null) {
    // the group side has no subscription of its own
    const g = await db
      .selectFrom('groups')
      .select(['id', 'title', 'sys_defaults'])
      .where('id', '=', session.groupId)
      .executeTakeFirstOrThrow();
    return {
      rid: 0,
      region_title: g.title,
      sub_title: g.title,
      ...readGroupDefaults(g.sys_defaults),
      end_time: '',
      days_left: 9999,
      time_zone: config.timeZone,
      price_per_year: '0.00',
      region_img: '',
    };
  }
  const r = await db
    .selectFrom('regions as r')
    .innerJoin('groups as g', 'g.id', 'r.group_id')
    .selectAll('r')
    .select('g.sys_defaults')
    .where('r.id', '=', session.rid)
    .executeTakeFirstOrThrow();
  const group = readGroupDefaults(r.sys_defaults);
  return {
    rid: r.id,
    region_title: r.title,
    sub_title: r.sub_title || r.title,
    system_title: r.system_title || group.system_title,
    short_title: r.short_title || group.short_title,
    company_name: r.company_name || group.company_name,
    logo_url: r.logo_url || group.logo_url,
    end_time: r.end_time,
    days_left: daysLeft(r.end_time),
    time_zone: config.timeZone,
    price_per_year: r.price_per_year,
    property_app_url: r.property_app_url || group.property_app_url,
    wxapp_qrcodes: r.wxapp_qrcodes || group.wxapp_qrcodes,
    consume_mobile_app_url: r.consume_mobile_app_url || group.consume_mobile_app_url,
    consume_app_url: r.consume_app_url || group.consume_app_url,
    help_work_url: r.help_work_url || group.help_work_url,
    region_img: r.region_img,
    copyright: r.copyright || group.copyright,
  };
}
