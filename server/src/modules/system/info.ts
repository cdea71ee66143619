import type { SystemInfo } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { Session } from '../../http/registry.js';
import { daysLeft } from '../../lib/wire.js';

/** System info of a session (docs/product.md#system-info): its community's, or on the group side the group's. */
export async function systemInfoOf(
  db: Kysely<DB>,
  config: Pick<Config, 'timeZone'>,
  session: Pick<Session, 'rid' | 'groupId'>,
): Promise<SystemInfo> {
  if (session.rid === null) {
    // the group side has no subscription of its own
    const g = await db.selectFrom('groups').select(['id', 'title']).where('id', '=', session.groupId).executeTakeFirstOrThrow();
    return {
      rid: 0,
      region_title: g.title,
      sub_title: g.title,
      system_title: '',
      short_title: '',
      company_name: '',
      logo_url: '',
      end_time: '',
      days_left: 9999,
      time_zone: config.timeZone,
      price_per_year: '0.00',
      property_app_url: '',
      wxapp_qrcodes: '',
      consume_mobile_app_url: '',
      consume_app_url: '',
      help_work_url: '',
      region_img: '',
      copyright: '',
    };
  }
  const r = await db.selectFrom('regions').selectAll().where('id', '=', session.rid).executeTakeFirstOrThrow();
  return {
    rid: r.id,
    region_title: r.title,
    sub_title: r.sub_title || r.title,
    system_title: r.system_title,
    short_title: r.short_title,
    company_name: r.company_name,
    logo_url: r.logo_url,
    end_time: r.end_time,
    days_left: daysLeft(r.end_time),
    time_zone: config.timeZone,
    price_per_year: r.price_per_year,
    property_app_url: r.property_app_url,
    wxapp_qrcodes: r.wxapp_qrcodes,
    consume_mobile_app_url: r.consume_mobile_app_url,
    consume_app_url: r.consume_app_url,
    help_work_url: r.help_work_url,
    region_img: r.region_img,
    copyright: r.copyright,
  };
}
