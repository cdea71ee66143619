/**
 * The demo group's articles (/mobile/graphiclist on the group side), relative to today: a pinned
 * one for every community, one for 阳光花园 alone, one with an external link instead of a body, and a
 * draft; so the list and a community's 首页预览 show them.
 */
import { addDays } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { gradientPng, storeGroupDemoImage } from '../mobilesys/demoImages.js';

export async function seedGroupGraphics(db: Kysely<DB>): Promise<void> {
  const group = await db.selectFrom('groups').select('id').orderBy('id').executeTakeFirstOrThrow();
  const sunshine = await db.selectFrom('regions').select('id').where('group_id', '=', group.id).orderBy('id').executeTakeFirstOrThrow();
  const leader = await db.selectFrom('accounts').select('id').where('username', '=', 'leader').executeTakeFirst();
  const day = today();
  const at = (d: string) => new Date(`${d}T09:30:00+08:00`);
  const articles = [
    {
      title: '幸福里物业2026年度服务承诺',
      category: 'notice' as const,
      colours: [
        [19, 82, 214],
        [145, 213, 255],
      ] as const,
      summary: '集团全体小区统一服务标准：报修30分钟响应、公共区域每日保洁、账目每季度公示。',
      body: '<p>尊敬的业主：</p><p>为进一步提升服务品质，集团在所有小区推行统一的服务承诺：</p><ul><li>报修30分钟内响应，一般维修24小时内完成；</li><li>公共区域每日保洁，垃圾日产日清；</li><li>公共收益与物业费收支每季度公示。</li></ul><p>欢迎业主监督，服务热线 400-800-1234。</p>',
      link: '',
      region_scope: 'all' as const,
      rids: [] as number[],
      status: 'P' as const,
      pinned: 'Y' as const,
      sort: 1,
      views: 128,
      published_at: at(addDays(day, -6)),
    },
    {
      title: '阳光花园地下车库照明改造完工',
      category: 'news' as const,
      colours: [
        [212, 107, 8],
        [255, 214, 102],
      ] as const,
      summary: '车库全部更换为感应式LED照明，夜间更亮更省电。',
      body: '<p>阳光花园地下车库照明改造已于本周完工，共更换感应式LED灯具320套。</p><p>改造后车库照度提升约一倍，预计每年节约公共电费约3万元。</p>',
      link: '',
      region_scope: 'some' as const,
      rids: [Number(sunshine.id)],
      status: 'P' as const,
      pinned: 'N' as const,
      sort: 0,
      views: 45,
      published_at: at(addDays(day, -2)),
    },
    {
      title: '冬季用电用气安全指南',
      category: 'service' as const,
      colours: [
        [8, 151, 156],
        [135, 232, 222],
      ] as const,
      summary: '取暖季来临，请注意电暖器、燃气灶具的使用安全。',
      body: '',
      link: 'https://www.example.com/winter-safety',
      region_scope: 'all' as const,
      rids: [] as number[],
      status: 'P' as const,
      pinned: 'N' as const,
      sort: 0,
      views: 17,
      published_at: at(addDays(day, -1)),
    },
    {
      title: '2027年春节社区活动预告（草稿）',
      category: 'activity' as const,
      colours: [
        [207, 19, 34],
        [255, 163, 158],
      ] as const,
      summary: '写春联、包饺子、猜灯谜，活动安排待定。',
      body: '<p>活动安排待各小区确认后发布。</p>',
      link: '',
      region_scope: 'all' as const,
      rids: [] as number[],
      status: 'D' as const,
      pinned: 'N' as const,
      sort: 0,
      views: 0,
      published_at: null,
    },
  ];
  for (const [i, a] of articles.entries()) {
    const [from, to] = a.colours;
    const cover = await storeGroupDemoImage(db, group.id, `group-graphic-${i + 1}.png`, gradientPng(750, 420, [...from], [...to]));
    const { colours: _colours, ...row } = a;
    await db
      .insertInto('group_graphics')
      .values({
        ...row,
        group_id: group.id,
        cover,
        published_by: a.published_at ? (leader?.id ?? null) : null,
        created_by: leader?.id ?? null,
      })
      .execute();
  }
}
