/**
 * The complaints' demo (docs/product.md#complaints): the categories of community 1 (and two of
 * community 2) and a believable fortnight of complaints in every state, relative to now: some
 * anonymous, some past a deadline (marked 超时 with its to-do), rated by the owner or by the system.
 */
import { recordServiceRating } from './scores.js';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { complaintNo } from './complaints.js';

const CATEGORIES: Array<[string, number, number]> = [
  ['环境卫生', 2, 48],
  ['噪音扰民', 1, 24],
  ['停车管理', 2, 48],
  ['设施设备', 2, 72],
  ['服务态度', 4, 72],
  ['物业费用', 8, 120],
  ['其他', 8, 120],
];

interface Demo {
  kind: 'C' | 'S' | 'Q';
  cat: string;
  contact: string;
  phone: string;
  content: string;
  /** hours before now it was registered */
  ago: number;
  status: 'W' | 'D' | 'E' | 'Y' | 'X';
  anonymous?: boolean;
  handler?: 'tech' | 'steward';
  reply?: string;
  note?: string;
  finish?: string;
  rating?: number;
  ratingText?: string;
  autoRated?: boolean;
  close?: 'invalid' | 'duplicate';
}

const DEMOS: Demo[] = [
  {
    kind: 'C',
    cat: '噪音扰民',
    contact: '李女士',
    phone: '13800010001',
    content: '楼上每天晚上十一点后还在拖动家具，影响休息。',
    ago: 0.5,
    status: 'W',
  },
  {
    kind: 'C',
    cat: '环境卫生',
    contact: '王先生',
    phone: '13800010002',
    content: '2号楼垃圾桶已经两天没有清运，味道很大。',
    ago: 5,
    status: 'W',
  },
  {
    kind: 'S',
    cat: '设施设备',
    contact: '赵先生',
    phone: '13800010003',
    content: '建议在小区东门加装一个快递柜。',
    ago: 3,
    status: 'W',
    anonymous: true,
  },
  {
    kind: 'C',
    cat: '停车管理',
    contact: '陈先生',
    phone: '13800010004',
    content: '我的车位连续三天被外来车辆占用。',
    ago: 20,
    status: 'D',
    handler: 'steward',
    reply: '已联系保安核查，今天会张贴提示并联系车主挪车。',
    note: '车牌已记录，车主为访客，已电话联系。',
  },
  {
    kind: 'C',
    cat: '设施设备',
    contact: '刘女士',
    phone: '13800010005',
    content: '1单元电梯按钮失灵，按了没反应。',
    ago: 80,
    status: 'D',
    handler: 'tech',
    anonymous: true,
    note: '已报电梯维保单位，等待配件。',
  },
  {
    kind: 'Q',
    cat: '物业费用',
    contact: '周先生',
    phone: '13800010006',
    content: '想咨询一下今年物业费的收费标准是否有变化。',
    ago: 30,
    status: 'E',
    handler: 'steward',
    reply: '今年收费标准不变，详见公告栏。',
    finish: '已电话答复业主，收费标准不变。',
  },
  {
    kind: 'C',
    cat: '环境卫生',
    contact: '吴女士',
    phone: '13800010007',
    content: '楼道里有人堆放杂物，存在消防隐患。',
    ago: 120,
    status: 'Y',
    handler: 'steward',
    reply: '已安排保洁清理，并通知相关业主。',
    finish: '杂物已清理完毕，并在楼道张贴了提示。',
    rating: 5,
    ratingText: '处理很及时，谢谢！',
  },
  {
    kind: 'S',
    cat: '服务态度',
    contact: '郑先生',
    phone: '13800010008',
    content: '建议前台工作人员周末也能办理门禁卡。',
    ago: 200,
    status: 'Y',
    handler: 'steward',
    finish: '已调整排班，周末上午可办理门禁卡。',
    rating: 4,
    ratingText: '希望下午也能办理。',
  },
  {
    kind: 'C',
    cat: '噪音扰民',
    contact: '孙女士',
    phone: '13800010009',
    content: '隔壁装修中午也在施工。',
    ago: 170,
    status: 'Y',
    handler: 'tech',
    finish: '已告知装修队午休时间禁止施工。',
    autoRated: true,
  },
  {
    kind: 'C',
    cat: '其他',
    contact: '钱先生',
    phone: '13800010010',
    content: '测试，无效内容。',
    ago: 40,
    status: 'X',
    close: 'invalid',
  },
  {
    kind: 'C',
    cat: '噪音扰民',
    contact: '李女士',
    phone: '13800010001',
    content: '楼上晚上拖动家具（重复登记）。',
    ago: 0.3,
    status: 'X',
    close: 'duplicate',
  },
  {
    kind: 'C',
    cat: '停车管理',
    contact: '冯先生',
    phone: '13800010012',
    content: '地库照明有一排灯不亮，停车很暗。',
    ago: 60,
    status: 'W',
  },
];

export async function seedComplaints(db: Kysely<DB>): Promise<void> {
  const cats = new Map<string, { id: number; respond: number; close: number }>();
  for (const [i, [name, respond, close]] of CATEGORIES.entries()) {
    const row = await db
      .insertInto('complaint_categories')
      .values({ rid: 1, name, respond_hours: respond, close_hours: close, sort: i + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    cats.set(name, { id: Number(row.id), respond, close });
  }
  for (const [i, name] of ['环境卫生', '设施设备'].entries()) {
    await db
      .insertInto('complaint_categories')
      .values({ rid: 2, name, respond_hours: 2, close_hours: 48, sort: i + 1 })
      .execute();
  }
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'name'])
    .where('username', 'in', ['steward', 'tech'])
    .execute();
  const who = (u: 'tech' | 'steward') => accounts.find((a) => a.username === u)!;
  const steward = who('steward');
  const rooms = await db.selectFrom('rooms').select('id').where('rid', '=', 1).orderBy('id').limit(DEMOS.length).execute();

  for (const [i, d] of DEMOS.entries()) {
    const cat = cats.get(d.cat)!;
    const at = (h: number) => sql<Date>`now() - make_interval(secs => ${Math.round((d.ago - h) * 3600)})`;
    const handler = d.handler ? who(d.handler) : null;
    const accepted = d.status !== 'W' && handler;
    const finished = d.status === 'E' || d.status === 'Y';
    const row = await db
      .insertInto('complaints')
      .values({
        rid: 1,
        kind: d.kind,
        category_id: cat.id,
        hid: i % 4 === 3 ? null : (rooms[i]?.id ?? null),
        contact: d.contact,
        phone: d.phone,
        content: d.content,
        anonymous: d.anonymous ?? false,
        status: d.status,
        handler_id: handler?.id ?? null,
        handler_name: handler?.name ?? '',
        respond_deadline: at(cat.respond),
        close_deadline: at(cat.close),
        accepted_at: accepted ? at(0.5) : null,
        finished_at: finished ? at(Math.min(d.ago - 0.2, 10)) : null,
        finish_note: d.finish ?? '',
        rating: d.rating ?? (d.autoRated ? 5 : null),
        rating_text: d.ratingText ?? '',
        rated_at: d.status === 'Y' ? at(Math.min(d.ago - 0.1, 60)) : null,
        rated_auto: d.autoRated ?? false,
        close_reason: d.close ?? '',
        close_note: d.close === 'duplicate' ? '与之前的投诉重复' : '',
        closed_at: d.status === 'X' ? at(0.2) : null,
        respond_overdue_at: d.status === 'W' && d.ago > cat.respond ? at(cat.respond) : null,
        close_overdue_at: (d.status === 'W' || d.status === 'D') && d.ago > cat.close ? at(cat.close) : null,
        creator: steward.name,
        created_by: steward.id,
        created_at: at(0),
      })
      .returning(['id', 'respond_overdue_at', 'close_overdue_at', 'rating', 'rated_at'])
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    // the rated ones count in their handler's service score, as complaintrate does
    if (handler && row.rating !== null && row.rated_at)
      await recordServiceRating(db, {
        rid: 1,
        staffId: Number(handler.id),
        source: 'complaint',
        sourceId: id,
        score: row.rating,
        ratedAt: row.rated_at,
      });
    const steps: Array<[string, string, string, Record<string, unknown>, number, string]> = [
      ['create', '', 'W', { kind: { C: '投诉', S: '建议', Q: '咨询' }[d.kind], category: d.cat }, 0, steward.name],
    ];
    if (accepted) steps.push(['accept', 'W', 'D', { handler_id: handler.name, remark: '' }, 0.5, steward.name]);
    if (d.reply) steps.push(['reply', 'D', 'D', { content: d.reply }, 1, handler?.name ?? steward.name]);
    if (d.note) steps.push(['note', 'D', 'D', { content: d.note }, 2, handler?.name ?? steward.name]);
    if (finished) steps.push(['finish', 'D', 'E', { note: d.finish }, Math.min(d.ago - 0.2, 10), handler?.name ?? steward.name]);
    if (d.status === 'Y' && d.autoRated) steps.push(['autorate', 'E', 'Y', {}, Math.min(d.ago - 0.1, 60), '系统']);
    else if (d.status === 'Y')
      steps.push(['rate', 'E', 'Y', { rating: d.rating, rating_text: d.ratingText }, Math.min(d.ago - 0.1, 60), steward.name]);
    if (d.status === 'X') steps.push(['close', 'W', 'X', { reason: d.close, note: '' }, 0.2, steward.name]);
    if (row.respond_overdue_at) steps.push(['respond_overdue', d.status, d.status, {}, cat.respond, '系统']);
    if (row.close_overdue_at) steps.push(['close_overdue', d.status, d.status, {}, cat.close, '系统']);
    steps.sort((a, b) => a[4] - b[4]);
    for (const [transition, from, to, input, h, operator] of steps) {
      await db
        .insertInto('workflow_logs')
        .values({
          rid: 1,
          flow: 'complaint',
          row_id: id,
          transition,
          from_state: from,
          to_state: to,
          input: JSON.stringify(input),
          operator,
          created_by: operator === '系统' ? null : operator === steward.name ? steward.id : (handler?.id ?? null),
          created_at: at(h),
        })
        .execute();
    }
    if (d.status === 'W' || row.respond_overdue_at || row.close_overdue_at) {
      const late = row.close_overdue_at ? '办结超时' : row.respond_overdue_at ? '首次响应超时' : '待受理';
      await db
        .insertInto('backlog')
        .values({
          rid: 1,
          kind: 'complaint',
          source_id: String(id),
          title: `${{ C: '投诉', S: '建议', Q: '咨询' }[d.kind]}${late}：${complaintNo(id)} ${d.cat}`,
          content: d.content,
          link: `/steward/complaintlist?id=${id}`,
          submitter_id: steward.id,
          submitter_name: steward.name,
          deadline: at(cat.respond),
          roles: ['steward'],
          created_at: at(0),
        })
        .execute();
    }
  }
}
