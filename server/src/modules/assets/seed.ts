/**
 * The equipment ledger's demo (docs/product.md#equipment-ledger), for both demo communities (rid 1
 * 阳光花园, rid 2 翠湖苑): the built-in categories and a few below them, about 20 assets each in
 * every state (one scrapped, warranties ending soon and over), their registration and a few moves
 * and state changes in the log; a maintenance standard and a weekly plan whose last four weeks of
 * tasks are there: some done, one with a failed check and its internal work order, some overdue.
 */
import { addDays, addMonths } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { seedCtxOf } from '../../db/seedAs.js';
import { today } from '../../lib/wire.js';
import { ensureBuiltinCategories, linkDeviceAsset } from './ledger.js';
import { finishTask, generatePlanTasks, noteOverdue } from './maintain.js';

const SUB_CATEGORIES = [
  { parent: 'ELEVATOR', code: 'ELEV-P', name: '客梯', importance: 'A', unit: '部' },
  { parent: 'ELEVATOR', code: 'ELEV-F', name: '货梯', importance: 'A', unit: '部' },
  { parent: 'FIRE', code: 'FIRE-H', name: '消火栓', importance: 'A', unit: '个' },
  { parent: 'FIRE', code: 'FIRE-E', name: '灭火器', importance: 'B', unit: '个' },
  { parent: 'WATER', code: 'WATER-P', name: '水泵', importance: 'A', unit: '台' },
  { parent: 'CCTV', code: 'CCTV-C', name: '摄像机', importance: 'B', unit: '台' },
] as const;

interface DemoAsset {
  cate: string;
  name: string;
  brand: string;
  model: string;
  location: string;
  /** months ago of first use */
  age: number;
  /** months from first use the warranty lasts */
  warranty: number;
  years: number;
  importance: 'A' | 'B' | 'C';
  state: 'U' | 'S' | 'I' | 'X';
  price: string;
}

const DEMO_ASSETS: DemoAsset[] = [
  {
    cate: 'ELEV-P',
    name: '1栋1单元客梯',
    brand: '奥的斯',
    model: 'GeN2',
    location: '1栋1单元',
    age: 40,
    warranty: 60,
    years: 15,
    importance: 'A',
    state: 'U',
    price: '268000.00',
  },
  {
    cate: 'ELEV-P',
    name: '1栋2单元客梯',
    brand: '奥的斯',
    model: 'GeN2',
    location: '1栋2单元',
    age: 40,
    warranty: 60,
    years: 15,
    importance: 'A',
    state: 'U',
    price: '268000.00',
  },
  {
    cate: 'ELEV-P',
    name: '2栋1单元客梯',
    brand: '三菱',
    model: 'NexWay',
    location: '2栋1单元',
    age: 30,
    warranty: 31,
    years: 15,
    importance: 'A',
    state: 'U',
    price: '245000.00',
  },
  {
    cate: 'ELEV-F',
    name: '地库货梯',
    brand: '日立',
    model: 'HGE',
    location: '地下车库',
    age: 70,
    warranty: 36,
    years: 15,
    importance: 'A',
    state: 'S',
    price: '198000.50',
  },
  {
    cate: 'FIRE-H',
    name: '1栋消火栓箱',
    brand: '天广',
    model: 'SG24',
    location: '1栋一层',
    age: 50,
    warranty: 24,
    years: 10,
    importance: 'A',
    state: 'U',
    price: '1850.00',
  },
  {
    cate: 'FIRE-E',
    name: '大堂灭火器组',
    brand: '淮海',
    model: 'MFZ/ABC4',
    location: '物业大堂',
    age: 20,
    // its warranty ends today: 30 天内到期
    warranty: 20,
    years: 5,
    importance: 'B',
    state: 'U',
    price: '360.00',
  },
  {
    cate: 'FIRE-E',
    name: '地库灭火器组',
    brand: '淮海',
    model: 'MFZ/ABC4',
    location: '地下车库',
    age: 66,
    warranty: 12,
    years: 5,
    importance: 'B',
    state: 'X',
    price: '360.00',
  },
  {
    cate: 'FIRE',
    name: '消防报警主机',
    brand: '海湾',
    model: 'GST5000',
    location: '消防控制室',
    age: 48,
    warranty: 60,
    years: 10,
    importance: 'A',
    state: 'U',
    price: '56000.00',
  },
  {
    cate: 'WATER-P',
    name: '生活水泵一号',
    brand: '格兰富',
    model: 'CR32',
    location: '地下泵房',
    age: 36,
    warranty: 36,
    years: 12,
    importance: 'A',
    state: 'U',
    price: '32800.00',
  },
  {
    cate: 'WATER-P',
    name: '生活水泵二号',
    brand: '格兰富',
    model: 'CR32',
    location: '地下泵房',
    age: 36,
    warranty: 36,
    years: 12,
    importance: 'A',
    state: 'I',
    price: '32800.00',
  },
  {
    cate: 'CCTV-C',
    name: '南门摄像机',
    brand: '海康威视',
    model: 'DS-2CD3T',
    location: '南门',
    age: 14,
    warranty: 36,
    years: 6,
    importance: 'B',
    state: 'U',
    price: '1280.00',
  },
  {
    cate: 'CCTV-C',
    name: '北门摄像机',
    brand: '海康威视',
    model: 'DS-2CD3T',
    location: '北门',
    age: 14,
    warranty: 36,
    years: 6,
    importance: 'B',
    state: 'U',
    price: '1280.00',
  },
  {
    cate: 'CCTV-C',
    name: '地库摄像机',
    brand: '大华',
    model: 'IPC-HFW',
    location: '地下车库',
    age: 60,
    warranty: 24,
    years: 6,
    importance: 'C',
    state: 'S',
    price: '980.00',
  },
  {
    cate: 'CCTV',
    name: '监控硬盘录像机',
    brand: '海康威视',
    model: 'DS-8632N',
    location: '监控室',
    age: 26,
    warranty: 36,
    years: 8,
    importance: 'B',
    state: 'U',
    price: '8600.00',
  },
  {
    cate: 'ACCESS',
    name: '南门人脸门禁',
    brand: '模拟器',
    model: 'SIM-FACE',
    location: '南门',
    age: 8,
    warranty: 24,
    years: 8,
    importance: 'A',
    state: 'U',
    price: '4200.00',
  },
  {
    cate: 'GATE',
    name: '北门道闸',
    brand: '模拟器',
    model: 'SIM-GATE',
    location: '北门车道',
    age: 12,
    warranty: 24,
    years: 10,
    importance: 'A',
    state: 'U',
    price: '15800.00',
  },
  {
    cate: 'METER',
    name: '公区电表一',
    brand: '拓强',
    model: 'DDS1946',
    location: '配电房',
    age: 24,
    warranty: 24,
    years: 10,
    importance: 'B',
    state: 'I',
    price: '420.00',
  },
  {
    cate: 'PILE',
    name: '地库充电桩一号',
    brand: '模拟器',
    model: 'SIM-PILE',
    location: '地下车库 B区',
    age: 6,
    warranty: 36,
    years: 8,
    importance: 'B',
    state: 'U',
    price: '6800.00',
  },
  {
    cate: 'POWER',
    name: '1号变压器',
    brand: '正泰',
    model: 'SCB13',
    location: '配电房',
    age: 90,
    warranty: 24,
    years: 20,
    importance: 'A',
    state: 'U',
    price: '128000.00',
  },
  {
    cate: 'POWER',
    name: '旧配电柜',
    brand: '正泰',
    model: 'GGD',
    location: '配电房',
    age: 130,
    warranty: 24,
    years: 10,
    importance: 'C',
    state: 'X',
    price: '18000.00',
  },
];

const ELEVATOR_CHECKS = ['曳引机运行无异响', '门机开关门顺畅', '轿厢照明与通风正常', '紧急呼叫对讲畅通', '安全钳与限速器有效'];

export async function seedAssets(db: Kysely<DB>): Promise<void> {
  const day = today();
  for (const [rid, prefix] of [
    [1, 'YG'],
    [2, 'CH'],
  ] as const) {
    await ensureBuiltinCategories(db, rid);
    const cates = new Map(
      (await db.selectFrom('asset_categories').select(['id', 'code']).where('rid', '=', rid).execute()).map((c) => [c.code, c.id]),
    );
    for (const [i, c] of SUB_CATEGORIES.entries()) {
      const row = await db
        .insertInto('asset_categories')
        .values({ rid, parent_id: cates.get(c.parent)!, code: c.code, name: c.name, importance: c.importance, unit: c.unit, sort: i + 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      cates.set(c.code, row.id);
    }
    const staff = await db
      .selectFrom('accounts as a')
      .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
      .select(['a.id', 'a.name', 'a.username'])
      .where('ar.rid', '=', rid)
      .where('a.username', 'in', rid === 1 ? ['tech', 'admin'] : ['admin2'])
      .orderBy('a.id')
      .execute();
    const tech = staff.find((s) => s.username === 'tech') ?? staff[0]!;
    const admin = staff.find((s) => s.username !== 'tech') ?? tech;
    const assetIds: number[] = [];
    for (const [i, a] of DEMO_ASSETS.entries()) {
      const firstUse = addMonths(day, -a.age);
      const row = await db
        .insertInto('assets')
        .values({
          rid,
          category_id: cates.get(a.cate)!,
          name: a.name,
          code: `${prefix}-${a.cate.split('-')[0]}-${String(i + 1).padStart(3, '0')}`,
          brand: a.brand,
          model: a.model,
          location: a.location,
          first_use: firstUse,
          warranty_end: addMonths(firstUse, a.warranty),
          service_years: a.years,
          importance: a.importance,
          state: a.state,
          price: a.price,
          staff_ids: [tech.id],
          created_at: sql<Date>`now() - make_interval(days => ${a.age * 30})`,
          created_by: admin.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      assetIds.push(id);
      const log = (action: 'add' | 'state' | 'move', extra: Record<string, string>, daysAgo: number) =>
        db
          .insertInto('asset_logs')
          .values({
            rid,
            asset_id: id,
            action,
            operator: admin.name,
            created_by: admin.id,
            created_at: sql<Date>`now() - make_interval(days => ${daysAgo})`,
            ...extra,
          })
          .execute();
      await log('add', { to_state: 'U', to_location: a.location === '地下泵房' ? '设备仓库' : a.location }, a.age * 30);
      if (a.location === '地下泵房')
        await log('move', { from_location: '设备仓库', to_location: a.location, remark: '安装到位' }, a.age * 30 - 3);
      if (a.state !== 'U') {
        const words = { S: '故障待修', I: '备用', X: '超过使用年限，已报废' } as const;
        await log('state', { from_state: 'U', to_state: a.state, remark: words[a.state] }, 20);
      }
    }
    // the elevators' monthly-style check, weekly on Monday and Thursday, started four weeks ago
    const standard = await db
      .insertInto('maintain_standards')
      .values({ rid, name: '电梯例行保养', category_id: cates.get('ELEVATOR')!, items: ELEVATOR_CHECKS, created_by: admin.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('maintain_standards')
      .values({
        rid,
        name: '消防设施巡检',
        category_id: cates.get('FIRE')!,
        items: ['压力表指针在绿区', '箱体与标识完好', '水带枪头齐全'],
        created_by: admin.id,
      })
      .execute();
    const start = addDays(day, -28);
    const plan = await db
      .insertInto('maintain_plans')
      .values({
        rid,
        name: '电梯每周两检',
        standard_id: standard.id,
        asset_ids: assetIds.slice(0, 3),
        staff_ids: [tech.id],
        cycle: 'W',
        cycle_days: [1, 4],
        start_date: start,
        generated_until: addDays(start, -1),
        created_by: admin.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await generatePlanTasks(db, rid, Number(plan.id), day);
    // done up to a week ago, one of them with a failed check (its work order); the rest of the past overdue
    const tasks = await db
      .selectFrom('maintain_tasks')
      .select(['id', sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on')])
      .where('rid', '=', rid)
      .where('plan_id', '=', plan.id)
      .where('due_on', '<', addDays(day, -7))
      .orderBy('due_on')
      .orderBy('id')
      .execute();
    const ctx = seedCtxOf(db, rid, tech, ['admin']);
    for (const [i, t] of tasks.entries()) {
      const failedOne = i === tasks.length - 1;
      await finishTask(ctx, {
        id: Number(t.id),
        results: ELEVATOR_CHECKS.map((_, j) =>
          failedOne && j === 1 ? { passed: false, note: '厅门关门时有卡顿，需调整门刀' } : { passed: true, note: '' },
        ),
        notes: failedOne ? '已断电挂牌，通知维修' : '运行正常',
        photos: [],
      });
      await db
        .updateTable('maintain_tasks')
        .set({ done_at: sql<Date>`(${t.due_on}::date + time '10:30') AT TIME ZONE current_setting('TimeZone')` })
        .where('rid', '=', rid)
        .where('id', '=', Number(t.id))
        .execute();
    }
    await noteOverdue(db, rid, day);
    // the community's door devices and gates are in the ledger as every device added later is
    const devices = await db.selectFrom('devices').select('id').where('rid', '=', rid).orderBy('id').execute();
    for (const d of devices) await linkDeviceAsset(db, rid, Number(d.id), { accountId: admin.id, name: admin.name });
  }
}

/**
 * The devices the later areas seeded (the meters' gateways, the charging piles) join the ledger as
 * every device added later does: run after their seeds.
 */
export async function seedDeviceAssets(db: Kysely<DB>): Promise<void> {
  const devices = await db.selectFrom('devices').select(['rid', 'id']).where('asset_id', 'is', null).orderBy('rid').orderBy('id').execute();
  for (const d of devices) {
    const admin = await db
      .selectFrom('accounts as a')
      .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
      .select(['a.id', 'a.name'])
      .where('ar.rid', '=', d.rid)
      .where('a.username', 'in', ['admin', 'admin2'])
      .orderBy('a.id')
      .executeTakeFirst();
    await linkDeviceAsset(db, d.rid, Number(d.id), admin ? { accountId: Number(admin.id), name: admin.name } : null);
  }
}
