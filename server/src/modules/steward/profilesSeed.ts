import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';

/** A deterministic pseudo-random stream (the demo is the same on every seed). */
function stream(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) / 0x1000000;
  };
}

/** A score leaning on `bias` (0 good … 1 poor): mostly 4 and 5, a few low ones. */
function scoreOf(r: number, bias: number): number {
  const v = r + bias * 0.35;
  if (v < 0.45) return 5;
  if (v < 0.8) return 4;
  if (v < 0.92) return 3;
  if (v < 0.97) return 2;
  return 1;
}

const COMMENTS = [
  '管家很负责，群里的问题都回复得很及时',
  '上门很准时，态度好',
  '楼道灯坏了报了两次才修好',
  '希望加强地下车库的巡查',
  '快递柜旁的垃圾清理不及时',
  '',
  '',
  '',
];

/** The months of the demo's scores: the current one and the two before it. */
function lastMonths(n: number): string[] {
  const [y, m] = today().split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

interface ProfileSpec {
  username: string;
  post: 'GJ' | 'KF' | 'GC' | 'ZX' | 'BJ';
  buildings: string[];
  phone: string;
  introduction: string;
  items: Array<[string, number]>;
  /** households scoring a month */
  perMonth: number;
  bias: number;
}

async function seedCommunity(
  db: Kysely<DB>,
  rid: number,
  items: Array<[string, string, 'Y' | 'N']>,
  profiles: ProfileSpec[],
  enteredBy: string,
): Promise<void> {
  const itemRows = await db
    .insertInto('assessment_items')
    .values(items.map(([name, description, status], i) => ({ rid, name, description, status, sort: (i + 1) * 10 })))
    .returning(['id', 'name'])
    .execute();
  const itemId = (name: string) => Number(itemRows.find((i) => i.name === name)!.id);
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'username'])
    .where('username', 'in', [...profiles.map((p) => p.username), enteredBy])
    .execute();
  const accountOf = (username: string) => accounts.find((a) => a.username === username)?.id;
  const buildings = await db.selectFrom('buildings').select(['id', 'title']).where('rid', '=', rid).execute();
  const months = lastMonths(3);
  const day = today();
  for (const [pi, p] of profiles.entries()) {
    const account = accountOf(p.username);
    if (!account) continue;
    const { id } = await db
      .insertInto('steward_profiles')
      .values({
        rid,
        account_id: account,
        post: p.post,
        phone: p.phone,
        introduction: p.introduction,
        sort: pi + 1,
        created_by: accountOf(enteredBy),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bids = p.buildings
      .map((t) => buildings.find((b) => b.title === t))
      .filter((b) => b !== undefined)
      .map((b) => b.id);
    await db
      .insertInto('steward_profile_areas')
      .values(bids.map((bid) => ({ rid, profile_id: id, bid, tid: null })))
      .execute();
    await db
      .insertInto('steward_profile_items')
      .values(p.items.map(([name, weight]) => ({ rid, profile_id: id, item_id: itemId(name), weight: weight * 100 })))
      .execute();
    const rooms = await db
      .selectFrom('rooms')
      .select('id')
      .where('rid', '=', rid)
      .where('bid', 'in', bids)
      .orderBy('building_sort')
      .orderBy('unit_sort')
      .orderBy('floor')
      .orderBy('title')
      .execute();
    const rand = stream(rid * 1000 + pi * 97 + 13);
    const entries = [];
    for (const [mi, month] of months.entries()) {
      const current = month === day.slice(0, 7);
      // the current month is under way: fewer households so far
      const count = Math.min(rooms.length, current ? Math.ceil(p.perMonth / 2) : p.perMonth);
      const step = Math.max(1, Math.floor(rooms.length / Math.max(count, 1)));
      const lastDay = current ? Number(day.slice(8, 10)) : 28;
      for (let k = 0; k < count; k++) {
        const room = rooms[(k * step + mi * 3 + pi) % rooms.length]!;
        const comment = COMMENTS[Math.floor(rand() * COMMENTS.length)]!;
        const at = new Date(`${month}-${String(1 + Math.floor(rand() * lastDay)).padStart(2, '0')}T10:00:00+08:00`);
        for (const [name] of p.items) {
          entries.push({
            rid,
            hid: room.id,
            account_id: account,
            item_id: itemId(name),
            period: month,
            score: scoreOf(rand(), p.bias),
            content: comment,
            created_by: accountOf(enteredBy) ?? null,
            created_at: at,
            updated_at: at,
          });
        }
      }
    }
    if (entries.length)
      await db
        .insertInto('score_entries')
        .values(entries)
        .onConflict((oc) => oc.doNothing())
        .execute();
  }
}

/**
 * The demo's steward profiles and scores (docs/product.md#steward-profiles): 阳光花园 (rid 1) has six
 * assessment items (one disabled), profiles for 钱管家 (管家 of 1号楼 and 2号楼), 赵收银 (客服),
 * 孙师傅 (工程) and 周保安 (秩序), and three months of households' scores entered by 钱管家 after
 * phone surveys, the current month half done; 翠湖苑 (rid 2) a small set for 孙收银.
 */
export async function seedStewardProfiles(db: Kysely<DB>): Promise<void> {
  await seedCommunity(
    db,
    1,
    [
      ['服务态度', '是否主动、热情、耐心', 'Y'],
      ['响应及时', '接到诉求后多久回应、上门', 'Y'],
      ['问题解决', '问题是否一次解决到位', 'Y'],
      ['沟通反馈', '进展是否主动告知、回访', 'Y'],
      ['安全秩序', '门岗、巡逻、车辆秩序', 'Y'],
      ['环境卫生', '楼道、电梯、垃圾清运（保洁外包期间暂停）', 'N'],
    ],
    [
      {
        username: 'steward',
        post: 'GJ',
        buildings: ['1号楼', '2号楼'],
        phone: '13800138003',
        introduction: '负责 1号楼、2号楼的日常服务：报修登记、缴费提醒、邻里协调。工作日 8:30–18:00 在物业服务中心。',
        items: [
          ['服务态度', 30],
          ['响应及时', 25],
          ['问题解决', 25],
          ['沟通反馈', 20],
        ],
        perMonth: 24,
        bias: 0,
      },
      {
        username: 'cashier',
        post: 'KF',
        buildings: ['1号楼', '2号楼', '3号楼', '4号楼', '5号楼', '6号楼'],
        phone: '021-58881234',
        introduction: '前台客服：咨询、缴费、投诉受理。',
        items: [
          ['服务态度', 50],
          ['沟通反馈', 50],
        ],
        perMonth: 10,
        bias: 0.15,
      },
      {
        username: 'tech',
        post: 'GC',
        buildings: ['1号楼', '2号楼', '3号楼', '4号楼', '5号楼', '6号楼'],
        phone: '13800138006',
        introduction: '水电维修、公共设施保养，持电工证。',
        items: [
          ['服务态度', 30],
          ['响应及时', 30],
          ['问题解决', 40],
        ],
        perMonth: 12,
        bias: 0.3,
      },
      {
        username: 'guard',
        post: 'ZX',
        buildings: ['1号楼', '2号楼', '3号楼', '4号楼', '5号楼', '6号楼'],
        phone: '',
        introduction: '门岗与夜间巡逻。',
        items: [
          ['服务态度', 40],
          ['安全秩序', 60],
        ],
        perMonth: 8,
        bias: 0.5,
      },
    ],
    'steward',
  );
  await seedCommunity(
    db,
    2,
    [
      ['服务态度', '是否主动、热情、耐心', 'Y'],
      ['响应及时', '接到诉求后多久回应', 'Y'],
    ],
    [
      {
        username: 'cashier2',
        post: 'KF',
        buildings: ['1号楼'],
        phone: '13900139002',
        introduction: '翠湖苑前台客服。',
        items: [
          ['服务态度', 60],
          ['响应及时', 40],
        ],
        perMonth: 4,
        bias: 0.1,
      },
    ],
    'admin2',
  );
}
