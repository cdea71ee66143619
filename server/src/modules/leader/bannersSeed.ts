/**
 * The demo group's banners (/apply/bannerlist on the group side), relative to today: a campaign on
 * every community's home, one on 阳光花园's home alone, one on the service page not started yet.
 */
import { addDays } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { gradientPng, storeGroupDemoImage } from '../mobilesys/demoImages.js';

export async function seedGroupBanners(db: Kysely<DB>): Promise<void> {
  const group = await db.selectFrom('groups').select('id').orderBy('id').executeTakeFirstOrThrow();
  const sunshine = await db.selectFrom('regions').select('id').where('group_id', '=', group.id).orderBy('id').executeTakeFirstOrThrow();
  const leader = await db.selectFrom('accounts').select('id').where('username', '=', 'leader').executeTakeFirst();
  const day = today();
  const banners = [
    {
      title: '幸福里物业服务月：线上缴费享好礼',
      colours: [
        [19, 82, 214],
        [64, 169, 255],
      ] as const,
      position: 'home' as const,
      link_type: 'service' as const,
      target: 'payment',
      region_scope: 'all' as const,
      rids: [] as number[],
      start_date: addDays(day, -7),
      end_date: addDays(day, 30),
      sort: 1,
      clicks: 36,
    },
    {
      title: '阳光花园业主开放日',
      colours: [
        [207, 19, 34],
        [255, 163, 158],
      ] as const,
      position: 'home' as const,
      link_type: 'h5' as const,
      target: 'https://www.example.com/open-day',
      region_scope: 'some' as const,
      rids: [Number(sunshine.id)],
      start_date: addDays(day, -3),
      end_date: addDays(day, 14),
      sort: 2,
      clicks: 12,
    },
    {
      title: '智慧停车即将上线',
      colours: [
        [8, 151, 156],
        [135, 232, 222],
      ] as const,
      position: 'service' as const,
      link_type: 'none' as const,
      target: '',
      region_scope: 'all' as const,
      rids: [] as number[],
      start_date: addDays(day, 5),
      end_date: addDays(day, 35),
      sort: 1,
      clicks: 0,
    },
  ];
  for (const [i, b] of banners.entries()) {
    const [from, to] = b.colours;
    const image = await storeGroupDemoImage(db, group.id, `group-banner-${i + 1}.png`, gradientPng(750, 300, [...from], [...to]));
    const { colours: _colours, ...row } = b;
    await db
      .insertInto('group_banners')
      .values({ ...row, group_id: group.id, image, created_by: leader?.id ?? null })
      .execute();
  }
}
