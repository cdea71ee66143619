/**
 * Customer care's demo (docs/product.md#crm-care), for 阳光花园: records of owners of the first
 * buildings (the demo owner 陈建国 and his family among them; some with a birthday this month, some
 * living alone), two people outside the directory, the recurring rules (birthdays, anniversaries,
 * a monthly visit of those living alone, 国庆, a quarterly call of the key customers) run as the
 * daily job would have run them last month and today, a group affair for 1号楼 half done, and
 * affairs by hand: done, cancelled, open and overdue. Every open affair is on its assignee's to-do list.
 */
import { addDays } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { DEMO_MOBILE } from '../owners/seed.js';
import { affairBacklog, raiseAffairsById } from './careAffairs.js';
import { runCareRules } from './careRules.js';

export async function seedCrmCare(db: Kysely<DB>, rid: number): Promise<void> {
  const accounts = await db.selectFrom('accounts').select(['id', 'username']).where('username', 'in', ['admin', 'sales']).execute();
  const admin = accounts.find((a) => a.username === 'admin')?.id;
  const sales = accounts.find((a) => a.username === 'sales')?.id;
  const owners = await db.selectFrom('room_members').select('id').where('rid', '=', rid).limit(1).executeTakeFirst();
  if (!admin || !sales || !owners) return;
  const day = today();

  // owners living in 1号楼 to 3号楼: every seventh, with birthdays (a quarter this month, some within the week),
  // special attention and tags spread over them; the stewards take turns
  await sql`
    WITH picked AS (
      SELECT DISTINCT ON (rm.member_id) rm.member_id, rm.hid, rm.relation, rm.move_in_date
      FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid JOIN buildings b ON b.rid = r.rid AND b.id = r.bid
      JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${rid} AND rm.status = 'Y' AND rm.relation IN ('owner', 'tenant') AND b.title IN ('1号楼', '2号楼', '3号楼')
        AND rm.id % 7 = 0 AND m.mobile <> ${DEMO_MOBILE}
      ORDER BY rm.member_id, rm.id
    ), numbered AS (SELECT p.*, row_number() OVER (ORDER BY p.member_id)::int AS n FROM picked p)
    INSERT INTO care_customers (rid, member_id, kind, realname, mobile, gender, birthday, hids, move_in_date, family_notes,
      preferences, tags, attention, steward_id, remark, created_at, created_by)
    SELECT ${rid}, m.id, x.relation, m.realname, m.mobile, m.gender,
      CASE WHEN x.n % 4 = 0 THEN (current_date + (x.n % 9) - make_interval(years => 48 + x.n % 30))::date
           ELSE date '1948-01-01' + (x.n * 397) % 17000 END,
      ARRAY[x.hid], x.move_in_date,
      CASE WHEN x.n % 5 = 0 THEN '子女在外地工作，紧急联系人：女儿 139****' || lpad((x.n % 10000)::text, 4, '0') ELSE '' END,
      CASE WHEN x.n % 3 = 0 THEN '上午 9 点到 11 点方便联系' WHEN x.n % 3 = 1 THEN '喜欢下棋，傍晚常在小区花园' ELSE '' END,
      CASE WHEN x.n % 3 = 0 THEN ARRAY['重点客户'] WHEN x.n % 8 = 1 THEN ARRAY['新入住'] ELSE '{}'::text[] END,
      CASE WHEN x.n % 5 = 0 THEN ARRAY['独居老人'] WHEN x.n % 11 = 0 THEN ARRAY['行动不便', '慢性病'] WHEN x.n % 13 = 0 THEN ARRAY['孕产妇']
           ELSE '{}'::text[] END,
      CASE WHEN x.n % 2 = 0 THEN ${sales}::bigint ELSE ${admin}::bigint END,
      '', now() - make_interval(days => 40 + x.n), ${admin}::bigint
    FROM numbered x JOIN members m ON m.rid = ${rid} AND m.id = x.member_id
    WHERE x.n <= 45`.execute(db);

  // the demo owner and his family; two people the directory does not know
  const demo = await db
    .selectFrom('members as m')
    .innerJoin('room_members as rm', (j) => j.onRef('rm.rid', '=', 'm.rid').onRef('rm.member_id', '=', 'm.id'))
    .select(['m.id', 'm.realname', 'm.mobile', 'm.gender', 'm.id_card', 'rm.hid', 'rm.relation', 'rm.move_in_date'])
    .where('m.rid', '=', rid)
    .where('m.realname', 'in', ['陈建国', '李秀英'])
    .where('rm.status', '=', 'Y')
    .orderBy('rm.id')
    .execute();
  const home = demo.find((d) => d.realname === '陈建国');
  const wife = demo.find((d) => d.realname === '李秀英');
  if (home && wife)
    await db
      .insertInto('care_customers')
      .values([
        {
          rid,
          member_id: home.id,
          kind: 'owner',
          realname: home.realname,
          mobile: home.mobile,
          gender: home.gender,
          id_card: home.id_card,
          birthday: '1978-05-12',
          hids: demo.filter((d) => d.id === home.id).map((d) => d.hid),
          move_in_date: home.move_in_date,
          family_notes: '与妻子李秀英、儿子陈思远同住 1101；2号楼 801 出租',
          preferences: '工作日晚上 7 点后方便联系；关注车位和停车费',
          tags: ['重点客户', 'VIP'],
          steward_id: sales,
          remark: '演示业主',
          created_by: admin,
        },
        {
          rid,
          member_id: wife.id,
          kind: 'family',
          realname: wife.realname,
          mobile: wife.mobile,
          gender: wife.gender,
          birthday: addDays(day, 3).replace(/^\d{4}/, '1980'),
          hids: [wife.hid],
          move_in_date: wife.move_in_date,
          preferences: '喜欢养花，参加过社区插花活动',
          tags: ['志愿者'],
          steward_id: sales,
          created_by: admin,
        },
      ])
      .execute();
  await db
    .insertInto('care_customers')
    .values([
      {
        rid,
        kind: 'other',
        realname: '周秀兰',
        mobile: '13600136021',
        gender: 'F',
        birthday: '1941-03-08',
        family_notes: '业主的母亲，户口不在本小区；独居，儿子在外地',
        preferences: '听力不好，请上门当面沟通',
        attention: ['独居老人', '行动不便'],
        steward_id: sales,
        created_by: sales,
      },
      {
        rid,
        kind: 'other',
        realname: '钱卫东',
        mobile: '13600136022',
        gender: 'M',
        birthday: '1956-10-02',
        family_notes: '退役军人，社区志愿者',
        attention: ['优抚对象'],
        tags: ['志愿者'],
        steward_id: admin,
        created_by: admin,
      },
    ])
    .execute();

  // the recurring rules, as the care team set them up
  await db
    .insertInto('care_affair_rules')
    .values([
      {
        rid,
        name: '业主生日祝福',
        cycle: 'birthday',
        affair_kind: 'birthday',
        days_before: 7,
        assign_mode: 'steward',
        assignee_id: sales,
        content: '{姓名}生日，电话或上门送上祝福和小区生日礼包',
        created_by: admin,
      },
      {
        rid,
        name: '入住周年慰问',
        cycle: 'anniversary',
        affair_kind: 'anniversary',
        days_before: 3,
        tag: '重点客户',
        assign_mode: 'steward',
        assignee_id: sales,
        content: '{姓名}入住 {周年} 周年，致电问候并了解居住感受',
        created_by: admin,
      },
      {
        rid,
        name: '独居老人每月探访',
        cycle: 'monthly',
        affair_kind: 'visit',
        days_before: 10,
        day_of_month: 15,
        tag: '独居老人',
        assign_mode: 'steward',
        assignee_id: sales,
        content: '上门探访{姓名}：身体状况、水电燃气安全、生活需要',
        created_by: admin,
      },
      {
        rid,
        name: '重点客户季度回访',
        cycle: 'quarterly',
        affair_kind: 'call',
        days_before: 15,
        day_of_month: 10,
        tag: '重点客户',
        assign_mode: 'fixed',
        assignee_id: admin,
        content: '季度回访{姓名}：服务满意度与意见',
        created_by: admin,
      },
      {
        rid,
        name: '国庆节慰问',
        cycle: 'festival',
        affair_kind: 'festival',
        days_before: 5,
        festival_date: '10-01',
        tag: '优抚对象',
        assign_mode: 'fixed',
        assignee_id: admin,
        content: '国庆节慰问{姓名}，送上节日慰问品',
        created_by: admin,
      },
      {
        rid,
        name: '重阳节敬老（已停用）',
        cycle: 'festival',
        affair_kind: 'festival',
        days_before: 3,
        festival_date: '10-29',
        assign_mode: 'fixed',
        assignee_id: sales,
        status: 'N',
        created_by: admin,
      },
    ])
    .execute();

  // the daily job as it ran over the last weeks and today; what came due before today was done,
  // but for one overdue birthday and one visit
  for (const back of [45, 35, 25, 15, 8, 0]) await runCareRules(db, addDays(day, -back), { rid, inCaller: true });
  await sql`
    WITH past AS (
      SELECT id, row_number() OVER (ORDER BY id) AS n FROM care_affairs
      WHERE rid = ${rid} AND rule_id IS NOT NULL AND due_date < current_date
    )
    UPDATE care_affairs a SET status = 'Y', done_by = a.assignee_id,
      done_at = a.due_date + time '10:30' + make_interval(mins => (p.n * 17 % 300)::int),
      result = CASE a.kind WHEN 'birthday' THEN '已电话送上生日祝福，业主表示感谢；礼包已送到家'
                           WHEN 'visit' THEN '已上门探访，老人身体状况良好，燃气阀门检查正常'
                           WHEN 'call' THEN '已回访，对保洁和安保满意，希望增加夜间巡逻'
                           ELSE '已完成慰问' END
    FROM past p WHERE a.rid = ${rid} AND a.id = p.id AND p.n % 6 <> 1`.execute(db);

  // a group affair for 1号楼: every customer of the building, half of it done
  const building = await db.selectFrom('buildings').select('id').where('rid', '=', rid).where('title', '=', '1号楼').executeTakeFirst();
  if (building) {
    const targets = await sql<{ id: number; steward_id: number | null }>`
      SELECT c.id, c.steward_id FROM care_customers c
      WHERE c.rid = ${rid} AND c.status = 'Y' AND c.hids && array(SELECT r.id FROM rooms r WHERE r.rid = ${rid} AND r.bid = ${building.id})
      ORDER BY c.id`.execute(db);
    if (targets.rows.length) {
      const batch = await db
        .insertInto('care_affair_batches')
        .values({
          rid,
          title: '夏季防暑慰问（1号楼）',
          affair_kind: 'visit',
          content: '上门送防暑降温用品，检查空调和用电安全',
          due_date: addDays(day, 4),
          assign_mode: 'steward',
          assignee_id: sales,
          criteria: JSON.stringify({ bid: building.id }),
          criteria_text: '1号楼',
          total: targets.rows.length,
          created_at: sql`now() - interval '3 days'`,
          created_by: admin,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('care_affairs')
        .values(
          targets.rows.map((t, i) => ({
            rid,
            customer_id: t.id,
            kind: 'visit' as const,
            content: '上门送防暑降温用品，检查空调和用电安全',
            assignee_id: t.steward_id ?? sales,
            due_date: addDays(day, 4),
            batch_id: batch.id,
            created_at: sql<Date>`now() - interval '3 days'`,
            created_by: admin,
            ...(i % 2 === 0
              ? {
                  status: 'Y' as const,
                  result: '已送达，住户表示感谢',
                  done_at: sql<Date>`now() - make_interval(hours => ${24 + i})`,
                  done_by: t.steward_id ?? sales,
                }
              : {}),
          })),
        )
        .execute();
    }
  }

  // affairs by hand: a follow-up call done, a cancelled visit, an open one today, one overdue
  const someone = await db
    .selectFrom('care_customers')
    .select(['id', 'steward_id'])
    .where('rid', '=', rid)
    .where('member_id', 'is not', null)
    .orderBy('id')
    .limit(6)
    .execute();
  const hand = [
    { kind: 'call' as const, content: '报修（厨房漏水）完成后回访', due: -6, status: 'Y' as const, result: '维修效果满意，已无漏水' },
    {
      kind: 'visit' as const,
      content: '上门了解噪音投诉情况',
      due: -3,
      status: 'C' as const,
      cancel_reason: '业主已电话说明问题解决，无需上门',
    },
    { kind: 'call' as const, content: '电话确认新装门禁卡是否好用', due: 0, status: 'P' as const },
    { kind: 'other' as const, content: '协助办理老年卡', due: -2, status: 'P' as const },
    { kind: 'visit' as const, content: '陪同查看楼道无障碍扶手安装位置', due: 6, status: 'P' as const },
  ];
  const handMade = await db
    .insertInto('care_affairs')
    .values(
      hand.flatMap((h, i) => {
        const c = someone[i];
        if (!c) return [];
        const due = addDays(day, h.due);
        return [
          {
            rid,
            customer_id: c.id,
            kind: h.kind,
            content: h.content,
            assignee_id: c.steward_id ?? sales,
            due_date: due,
            status: h.status,
            result: h.result ?? '',
            done_at: h.status === 'Y' ? sql<Date>`${due}::date + time '15:20'` : null,
            done_by: h.status === 'Y' ? (c.steward_id ?? sales) : null,
            cancel_reason: h.cancel_reason ?? '',
            cancelled_at: h.status === 'C' ? sql<Date>`${due}::date - 1 + time '17:05'` : null,
            created_at: sql<Date>`${due}::date - 5 + time '09:00'`,
            created_by: admin,
          },
        ];
      }),
    )
    .returning('id')
    .execute();

  // the history of what was done or cancelled, as the workflow writes it
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, input, operator, created_by, created_at)
    SELECT a.rid, 'careaffair', a.id, CASE a.status WHEN 'Y' THEN 'done' ELSE 'cancel' END, 'P', a.status,
      CASE a.status WHEN 'Y' THEN jsonb_build_object('result', a.result) ELSE jsonb_build_object('reason', a.cancel_reason) END,
      coalesce(ac.name, ''), coalesce(a.done_by, a.assignee_id), coalesce(a.done_at, a.cancelled_at)
    FROM care_affairs a LEFT JOIN accounts ac ON ac.id = coalesce(a.done_by, a.assignee_id)
    WHERE a.rid = ${rid} AND a.status IN ('Y', 'C')`.execute(db);
  await sql`
    INSERT INTO workflow_logs (rid, flow, row_id, transition, from_state, to_state, input, operator, created_by, created_at)
    SELECT ${rid}, 'careaffair', a.id, 'create', '', 'P', '{}'::jsonb, ac.name, ac.id, a.created_at
    FROM care_affairs a JOIN accounts ac ON ac.id = ${admin}::bigint WHERE a.rid = ${rid} AND a.id = ANY(${handMade.map((h) => h.id)}::bigint[])`.execute(
    db,
  );

  // the daily job put its affairs on the to-do list: those done since leave it, the open ones are on it
  const closed = await db.selectFrom('care_affairs').select('id').where('rid', '=', rid).where('status', '<>', 'P').execute();
  for (const c of closed) await affairBacklog.settle(db, rid, Number(c.id));
  const open = await db.selectFrom('care_affairs').select('id').where('rid', '=', rid).where('status', '=', 'P').orderBy('id').execute();
  await raiseAffairsById(
    db,
    rid,
    open.map((o) => Number(o.id)),
  );
}
