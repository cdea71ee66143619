/**
 * The demo's owner app (docs/product.md#owner-app), relative to today: in each demo community,
 * banners online at the top of the home and one on the service page, a draft banner, articles and
 * fee statements in every state (online, scheduled, offline, withdrawn, draft), the home's grid and
 * bottom bar (one entry opening a service switched off, so it hides), and in 阳光花园 two services
 * whose settings were changed, with their history.
 */
import { addDays } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { peopledCommunities } from '../owners/seed.js';
import { gradientPng, storeDemoImage } from './demoImages.js';

const BANNERS: Array<{ title: string; from: [number, number, number]; to: [number, number, number]; link?: [string, string] }> = [
  { title: '物业费线上缴纳，方便快捷', from: [22, 119, 255], to: [105, 177, 255], link: ['service', 'payment'] },
  { title: '社区文化节报名开始啦', from: [250, 140, 22], to: [255, 214, 102], link: ['service', 'activity'] },
  { title: '安全用电，从我做起', from: [82, 196, 26], to: [183, 235, 143] },
];

const ARTICLES = [
  {
    title: '冬季供暖调试通知与注意事项',
    kind: 'article' as const,
    body: '<h3>供暖调试</h3><p>本小区将于下月初开始供暖调试，调试期间请家中留人。</p><ul><li>发现跑冒滴漏请及时报修</li><li>暖气片上请勿覆盖杂物</li></ul>',
    summary: '调试期间请家中留人，发现漏水及时报修',
    days: -3,
    status: 'P' as const,
  },
  {
    title: '垃圾分类小课堂：厨余垃圾怎么分',
    kind: 'article' as const,
    body: '<p>厨余垃圾包括剩菜剩饭、果皮、菜叶等。<strong>投放前请沥干水分</strong>，并去除包装。</p>',
    summary: '厨余垃圾沥干水分再投放',
    days: -10,
    status: 'P' as const,
  },
  {
    title: '第三季度物业费收支公示',
    kind: 'notice' as const,
    body: '<p>现将第三季度物业费收支情况公示如下：物业费收入、公共能耗、保洁绿化、秩序维护等明细见物业服务中心公告栏。</p>',
    summary: '公示期 15 天',
    days: -5,
    status: 'P' as const,
  },
  {
    title: '公共收益使用情况公示（上半年）',
    kind: 'notice' as const,
    body: '<p>上半年公共收益（电梯广告、停车）收支明细已张贴于各单元大堂。</p>',
    summary: '',
    days: -60,
    offline: -30,
    status: 'P' as const,
  },
  {
    title: '元旦社区联欢会预告',
    kind: 'article' as const,
    body: '<p>元旦社区联欢会将于活动中心举办，欢迎业主报名表演节目。</p>',
    summary: '欢迎报名表演节目',
    days: 7,
    status: 'P' as const,
  },
  {
    title: '电梯维保安排（已调整）',
    kind: 'article' as const,
    body: '<p>原定电梯维保时间调整，另行通知。</p>',
    summary: '',
    days: -2,
    status: 'W' as const,
  },
  {
    title: '夏季防汛提示（草稿）',
    kind: 'article' as const,
    body: '<p>汛期请关注天气预警，车辆请勿停放在低洼处。</p>',
    summary: '',
    days: 0,
    status: 'D' as const,
  },
];

const GRID: Array<[string, string, string, '' | 'new' | 'hot']> = [
  ['物业缴费', 'WalletOutlined', 'payment', 'hot'],
  ['在线报修', 'ToolOutlined', 'repair', ''],
  ['访客邀请', 'TeamOutlined', 'visitor', ''],
  ['社区活动', 'CalendarOutlined', 'activity', 'new'],
  ['社区公告', 'NotificationOutlined', 'notice', ''],
  ['投诉建议', 'MessageOutlined', 'complaint', ''],
  ['停车服务', 'CarOutlined', 'parking', ''],
  ['我的管家', 'PhoneOutlined', 'steward', ''],
  // 扫码开门 is not offered by default: this entry hides until /apply switches it on
  ['扫码开门', 'KeyOutlined', 'access', ''],
];

export async function seedOwnerApp(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const day = today();
  const admin = await db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', rid === 1 ? 'admin' : 'admin2')
    .executeTakeFirst();
  const by = admin ? Number(admin.id) : null;
  const at = new Date();
  for (const [i, b] of BANNERS.entries()) {
    const cover = await storeDemoImage(db, rid, `banner-${i + 1}.png`, gradientPng(750, 300, b.from, b.to));
    await db
      .insertInto('app_graphics')
      .values({
        rid,
        title: b.title,
        kind: 'banner',
        cover,
        link_type: (b.link?.[0] ?? 'none') as 'service' | 'none',
        link: b.link?.[1] ?? '',
        placement: 'home',
        sort: i + 1,
        online_date: addDays(day, -7 - i),
        status: 'P',
        views: 120 - i * 30,
        published_at: at,
        published_by: by,
        created_by: by,
      })
      .execute();
  }
  const serviceCover = await storeDemoImage(db, rid, 'banner-service.png', gradientPng(750, 300, [114, 46, 209], [211, 173, 247]));
  await db
    .insertInto('app_graphics')
    .values([
      {
        rid,
        title: '家政保洁服务上线',
        kind: 'banner',
        cover: serviceCover,
        placement: 'service',
        online_date: addDays(day, -1),
        status: 'P',
        published_at: at,
        published_by: by,
        created_by: by,
      },
      {
        rid,
        title: '春节活动横幅（草稿）',
        kind: 'banner',
        cover: serviceCover,
        placement: 'home',
        online_date: addDays(day, 30),
        status: 'D',
        created_by: by,
      },
    ])
    .execute();
  const articleCover = await storeDemoImage(db, rid, 'article.png', gradientPng(240, 160, [19, 194, 194], [135, 232, 222]));
  for (const [i, a] of ARTICLES.entries()) {
    await db
      .insertInto('app_graphics')
      .values({
        rid,
        title: a.title,
        kind: a.kind,
        cover: i % 2 === 0 ? articleCover : '',
        summary: a.summary,
        body: a.body,
        online_date: addDays(day, a.days),
        offline_date: 'offline' in a ? addDays(day, a.offline as number) : null,
        status: a.status,
        views: a.status === 'P' && a.days <= 0 ? 35 + i * 17 : 0,
        published_at: a.status === 'D' ? null : at,
        published_by: a.status === 'D' ? null : by,
        created_by: by,
      })
      .execute();
  }
  await db
    .insertInto('app_menus')
    .values([
      ...GRID.map(([title, icon, target, badge], i) => ({
        rid,
        title,
        icon,
        position: 'grid' as const,
        link_type: 'service' as const,
        target,
        badge,
        sort: (i + 1) * 10,
        created_by: by,
      })),
      ...(
        [
          ['首页', 'HomeOutlined', 'notice'],
          ['缴费', 'WalletOutlined', 'payment'],
          ['报修', 'ToolOutlined', 'repair'],
        ] as const
      ).map(([title, icon, target], i) => ({
        rid,
        title,
        icon,
        position: 'tabbar' as const,
        link_type: 'service' as const,
        target,
        sort: i + 1,
        created_by: by,
      })),
      {
        rid,
        title: '服务热线',
        icon: 'PhoneOutlined',
        position: 'mine' as const,
        link_type: 'h5' as const,
        target: 'https://example.com/hotline',
        sort: 1,
        created_by: by,
      },
    ])
    .execute();
  if (rid === 1) {
    const changes = [
      {
        code: 'repair',
        before: { enabled: 'Y', title: '在线报修', hours: '' },
        after: { enabled: 'Y', title: '在线报修', hours: '每天 8:00-20:00' },
      },
      { code: 'card', before: { enabled: 'N', title: '会员卡' }, after: { enabled: 'Y', title: '会员中心' } },
    ];
    for (const c of changes) {
      await db
        .insertInto('app_services')
        .values({
          rid,
          code: c.code,
          enabled: c.after.enabled as 'Y' | 'N',
          title: c.after.title,
          hours: 'hours' in c.after ? String(c.after.hours) : '',
          phone: '400-800-1234',
          sort: c.code === 'repair' ? 20 : 100,
          created_by: by,
          updated_by: by,
        })
        .execute();
      await db
        .insertInto('app_service_logs')
        .values({ rid, code: c.code, before: JSON.stringify(c.before), after: JSON.stringify(c.after), created_by: by })
        .execute();
    }
  }
}
