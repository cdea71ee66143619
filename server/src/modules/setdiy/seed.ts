import type { DiyBlock } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { gradientPng, storeGroupDemoImage } from '../mobilesys/demoImages.js';
import { demoLeaderWith } from '../leader/demoLeader.js';

/**
 * Demo DIY pages (/setdiy on the group side): the demo leader gets is_diyhome_auth; the group's home
 * template is published as version 1 (a banner of two slides, an icon grid of eight services, the
 * notices, the articles) and has a draft, version 2, that adds the activities block and a spacer.
 */
export async function seedDiyPages(db: Kysely<DB>): Promise<void> {
  const leader = await demoLeaderWith(db, ['is_diyhome_auth']);
  if (!leader) return;
  const slide1 = await storeGroupDemoImage(db, leader.group_id, 'diy-banner-1.png', gradientPng(750, 300, [22, 119, 255], [105, 177, 255]));
  const slide2 = await storeGroupDemoImage(db, leader.group_id, 'diy-banner-2.png', gradientPng(750, 300, [250, 140, 22], [255, 213, 145]));
  const published: DiyBlock[] = [
    {
      type: 'banner',
      slides: [
        { image: slide1, link_type: 'service', target: 'payment' },
        { image: slide2, link_type: 'service', target: 'activity' },
      ],
    },
    {
      type: 'grid',
      columns: 4,
      items: (['payment', 'repair', 'complaint', 'notice', 'visitor', 'activity', 'parking', 'steward'] as const).map((service) => ({
        service,
        title: '',
        icon: '',
      })),
    },
    { type: 'notices', title: '社区公告', count: 3 },
    { type: 'articles', title: '社区资讯', count: 3 },
  ];
  const draft: DiyBlock[] = [...published, { type: 'spacer', height: 12 }, { type: 'activities', title: '热门活动', count: 2 }];
  const page = await db
    .insertInto('diy_pages')
    .values({ group_id: leader.group_id, rid: null, kind: 'homeDIY', created_by: leader.id, updated_by: leader.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('diy_page_versions')
    .values([
      {
        page_id: page.id,
        version: 1,
        status: 'P',
        blocks: JSON.stringify(published),
        published_at: new Date(),
        published_by: leader.id,
        created_by: leader.id,
        updated_by: leader.id,
      },
      { page_id: page.id, version: 2, status: 'D', blocks: JSON.stringify(draft), created_by: leader.id, updated_by: leader.id },
    ])
    .execute();
}
