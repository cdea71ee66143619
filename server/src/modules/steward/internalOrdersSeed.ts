/**
 * The internal orders' demo (docs/product.md#internal-orders): one-off orders of community 1 in every
 * state (one past its due time), and two recurring templates (a daily public-area round, a weekly
 * fire-equipment check) with their last occurrences; one order in community 2. Relative to today.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { addDays } from '@wuye/contract';
import { today } from '../../lib/wire.js';

interface Demo {
  title: string;
  kind: 'E' | 'P' | 'C' | 'T' | 'O';
  location: string;
  status: 'P' | 'D' | 'C' | 'Y' | 'X';
  /** hours before now it was raised */
  ago: number;
  due: number;
  items: string[];
  /** how many items are done */
  done?: number;
  score?: number;
  note?: string;
  template?: number;
  occursOn?: string;
}

export async function seedInternalOrders(db: Kysely<DB>): Promise<void> {
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'name'])
    .where('username', 'in', ['steward', 'tech', 'admin', 'admin2'])
    .execute();
  const who = (u: string) => accounts.find((a) => a.username === u)!;
  const steward = who('steward');
  const tech = who('tech');
  const day = today();

  const templates: Array<{
    title: string;
    kind: 'P' | 'E';
    recurrence: 'D' | 'W';
    items: string[];
    due: number;
    start: string;
    next: string;
  }> = [
    {
      title: '每日公区巡查',
      kind: 'P',
      recurrence: 'D',
      items: ['大堂与电梯厅', '地下车库', '垃圾分类点'],
      due: 8,
      start: addDays(day, -3),
      next: addDays(day, 1),
    },
    {
      title: '消防设备周检',
      kind: 'E',
      recurrence: 'W',
      items: ['消防栓水压', '灭火器有效期', '应急照明'],
      due: 24,
      start: addDays(day, -7),
      next: addDays(day, 7),
    },
  ];
  const templateIds: number[] = [];
  for (const t of templates) {
    const row = await db
      .insertInto('internal_order_templates')
      .values({
        rid: 1,
        title: t.title,
        kind: t.kind,
        location: t.kind === 'P' ? '全小区公共区域' : '1号楼、2号楼消防通道',
        handler_ids: t.kind === 'P' ? [steward.id] : [tech.id],
        cc_ids: t.kind === 'P' ? [] : [steward.id],
        items: t.items,
        due_hours: t.due,
        recurrence: t.recurrence,
        start_date: t.start,
        next_on: t.next,
        creator: steward.name,
        created_by: steward.id,
        created_at: sql<Date>`now() - interval '8 days'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    templateIds.push(Number(row.id));
  }

  const demos: Demo[] = [
    { title: '2号楼楼道灯更换', kind: 'E', location: '2号楼2单元5-8层', status: 'P', ago: 2, due: 24, items: ['更换灯管', '检查开关'] },
    { title: '东门道闸异响检修', kind: 'E', location: '小区东门', status: 'P', ago: 30, due: 12, items: ['检查电机', '加注润滑油'] },
    {
      title: '中心花园草坪修剪',
      kind: 'C',
      location: '中心花园',
      status: 'D',
      ago: 5,
      due: 48,
      items: ['修剪草坪', '清理落叶', '浇水'],
      done: 1,
    },
    {
      title: '地下车库排水沟清淤',
      kind: 'C',
      location: '地下车库B1',
      status: 'C',
      ago: 26,
      due: 48,
      items: ['清理淤泥', '冲洗排水沟'],
      done: 2,
    },
    {
      title: '业主活动室布置',
      kind: 'T',
      location: '会所二楼活动室',
      status: 'Y',
      ago: 72,
      due: 24,
      items: ['摆放桌椅', '悬挂横幅'],
      done: 2,
      score: 5,
      note: '布置得很好',
    },
    { title: '3号楼外墙广告清理', kind: 'O', location: '3号楼外墙', status: 'X', ago: 100, due: 72, items: [], note: '已由城管统一清理' },
    ...[-2, -1, 0].map<Demo>((d) => ({
      title: '每日公区巡查',
      kind: 'P',
      location: '全小区公共区域',
      status: d === 0 ? 'P' : 'Y',
      ago: 0,
      due: 8,
      items: templates[0]!.items,
      done: d === 0 ? 0 : 3,
      score: d === 0 ? undefined : 4,
      template: templateIds[0],
      occursOn: addDays(day, d),
    })),
    {
      title: '消防设备周检',
      kind: 'E',
      location: '1号楼、2号楼消防通道',
      status: 'D',
      ago: 0,
      due: 24,
      items: templates[1]!.items,
      done: 2,
      template: templateIds[1],
      occursOn: day,
    },
  ];

  for (const d of demos) {
    const handlers = d.kind === 'C' || d.kind === 'E' ? [tech.id] : d.kind === 'P' ? [steward.id] : [steward.id, tech.id];
    const raised = d.occursOn
      ? sql<Date>`(${d.occursOn}::date + time '08:00') AT TIME ZONE current_setting('TimeZone')`
      : sql<Date>`now() - make_interval(hours => ${d.ago})`;
    const row = await db
      .insertInto('internal_orders')
      .values({
        rid: 1,
        template_id: d.template ?? null,
        occurs_on: d.occursOn ?? null,
        title: d.title,
        kind: d.kind,
        location: d.location,
        content: d.template ? '' : `${d.title}，请按检查项逐项完成并拍照。`,
        handler_ids: handlers,
        cc_ids: d.kind === 'T' ? [who('admin').id] : [],
        due_hours: d.due,
        due_at: sql<Date>`${raised} + make_interval(hours => ${d.due})`,
        status: d.status,
        score: d.score ?? null,
        accept_note: d.status === 'Y' ? (d.note ?? '') : '',
        started_at: ['D', 'C', 'Y'].includes(d.status) ? sql<Date>`${raised} + interval '1 hour'` : null,
        submitted_at: ['C', 'Y'].includes(d.status) ? sql<Date>`${raised} + interval '3 hours'` : null,
        accepted_at: d.status === 'Y' ? sql<Date>`${raised} + interval '4 hours'` : null,
        closed_at: d.status === 'X' ? sql<Date>`${raised} + interval '2 hours'` : null,
        close_note: d.status === 'X' ? (d.note ?? '') : '',
        creator: steward.name,
        created_by: steward.id,
        created_at: raised,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    if (d.items.length) {
      await db
        .insertInto('internal_order_items')
        .values(
          d.items.map((title, i) => ({
            rid: 1,
            order_id: id,
            sort: i + 1,
            title,
            done: i < (d.done ?? 0),
            done_at: i < (d.done ?? 0) ? sql<Date>`${raised} + interval '2 hours'` : null,
            done_by: i < (d.done ?? 0) ? (handlers[0] === tech.id ? tech.name : steward.name) : '',
          })),
        )
        .execute();
    }
    const steps: Array<[string, string, string, Record<string, unknown>, string, string]> = [
      [d.template ? 'recur' : 'create', '', 'P', { title: d.title }, '0 hours', d.template ? '系统' : steward.name],
    ];
    const doer = handlers[0] === tech.id ? tech.name : steward.name;
    if (['D', 'C', 'Y'].includes(d.status)) steps.push(['start', 'P', 'D', {}, '1 hour', doer]);
    for (const item of d.items.slice(0, d.done ?? 0)) steps.push(['check', 'D', 'D', { item }, '2 hours', doer]);
    if (['C', 'Y'].includes(d.status)) steps.push(['submit', 'D', 'C', { note: '已完成' }, '3 hours', doer]);
    if (d.status === 'Y') steps.push(['accept', 'C', 'Y', { score: d.score, note: d.note ?? '' }, '4 hours', steward.name]);
    if (d.status === 'X') steps.push(['close', 'P', 'X', { note: d.note }, '2 hours', steward.name]);
    for (const [transition, from, to, input, after, operator] of steps) {
      await db
        .insertInto('workflow_logs')
        .values({
          rid: 1,
          flow: 'internalorder',
          row_id: id,
          transition,
          from_state: from,
          to_state: to,
          input: JSON.stringify(input),
          operator,
          created_by: null,
          created_at: sql<Date>`${raised} + ${after}::interval`,
        })
        .execute();
    }
    if (d.status === 'P' || d.status === 'C') {
      await db
        .insertInto('backlog')
        .values({
          rid: 1,
          kind: 'internalorder',
          source_id: String(id),
          title: `内部工单${d.status === 'P' ? '待处理' : '待验收'}：GD${String(id).padStart(6, '0')} ${d.title}`,
          link: `/steward/internalorder?id=${id}`,
          submitter_id: steward.id,
          submitter_name: steward.name,
          roles: ['steward', 'repairs'],
          // as the desk raises them (internalOrders.ts): the only handler's, the creator's to accept
          account_id: d.status === 'C' ? steward.id : handlers.length === 1 ? handlers[0]! : null,
        })
        .execute();
    }
  }

  const admin2 = who('admin2');
  await db
    .insertInto('internal_orders')
    .values({
      rid: 2,
      title: '水泵房例行检查',
      kind: 'E',
      location: '水泵房',
      handler_ids: [admin2.id],
      due_hours: 24,
      due_at: sql<Date>`now() + interval '20 hours'`,
      creator: admin2.name,
      created_by: admin2.id,
    })
    .execute();
}
