/**
 * Members' cards (会员列表 /carpark/carduslist; docs/product.md#member-cards): the resource, the
 * card's life as a workflow (activate, freeze, lost with a replacement, close at zero), points
 * adjusted with a reason, and a card's ledgers. A member holds at most one live card, which shows
 * the member's balance and points (cards/ledger.ts changes them).
 */
import {
  CARD_ROLES,
  PAY_TYPE,
  addDays,
  enumText,
  fenToYuan,
  memberCard,
  memberCardFlow,
  toFen,
  type CardLedgerRow,
  type MemberCardItem,
} from '@wuye/contract';
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { likePattern } from '../../lib/like.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { FEETYPE_CH } from '../owners/labels.js';
import { moveBonus } from './ledger.js';

registerDependents({ member_cards: '会员卡', card_recharges: '充值记录' });

/** Statuses in which a card is the member's live card. */
export const LIVE = ['I', 'Y', 'F'] as const;

const cardQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('member_cards as t')
    .innerJoin('card_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.template_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
    .selectAll('t')
    .select(['ct.name as template_name', 'ct.color as template_color', 'm.realname', 'm.mobile', 'm.balance', 'm.bonus'])
    .select(
      sql<string | null>`(SELECT string_agg(r.address, '、' ORDER BY r.id) FROM rooms r WHERE r.rid = t.rid AND r.id = ANY(t.hids))`.as(
        'houses',
      ),
    )
    .select(sql<string | null>`(SELECT n.card_no FROM member_cards n WHERE n.rid = t.rid AND n.id = t.replaced_by)`.as('replaced_by_no'))
    .select(
      sql<boolean>`(EXISTS (SELECT 1 FROM balance_ledger l WHERE l.rid = t.rid AND l.card_id = t.id)
        OR EXISTS (SELECT 1 FROM bonus_ledger l WHERE l.rid = t.rid AND l.card_id = t.id))`.as('transacted'),
    )
    .where('t.rid', '=', rid);

type CardRaw = Record<string, unknown>;

function toCardRow(r: CardRaw): MemberCardItem {
  return {
    id: Number(r.id),
    card_no: String(r.card_no),
    template_id: Number(r.template_id),
    template_name: String(r.template_name),
    template_color: String(r.template_color),
    member_id: Number(r.member_id),
    realname: String(r.realname),
    mobile: String(r.mobile),
    level: r.level as MemberCardItem['level'],
    level_ch: String(r.level_ch ?? r.level),
    tags: (r.tags as string[]) ?? [],
    hids: ((r.hids as Array<string | number>) ?? []).map(Number),
    houses: (r.houses as string | null) ?? '',
    status: r.status as MemberCardItem['status'],
    status_ch: String(r.status_ch ?? ''),
    balance: fenToYuan(toFen(String(r.balance))),
    bonus: Number(r.bonus),
    transacted: !!r.transacted,
    replaced_by_no: (r.replaced_by_no as string | null) ?? '',
    valid_until: (r.valid_until as string | null) ?? null,
    remark: String(r.remark ?? ''),
    create_time: String(r.create_time ?? ''),
  };
}

/** A card as its list shows it. */
export async function cardRow(ctx: CommunityCtx, id: number): Promise<MemberCardItem> {
  const r = await cardQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) fail('会员卡不存在');
  return toCardRow({
    ...r,
    create_time: wireTime(r.created_at),
    status_ch: enumText(memberCard.def.fields.status.enum!, r.status),
    level_ch: r.level,
  });
}

/** The day a card opened today stops being valid under its template: null when it never does. */
function validUntil(t: { validity: string; valid_end: string | null; valid_days: number | null }): string | null {
  if (t.validity === 'range') return t.valid_end;
  if (t.validity === 'days') return addDays(today(), (t.valid_days ?? 1) - 1);
  return null;
}

/** Who opens a card: a call's ctx, or an import job's community and uploader. */
export type CardOpener = Pick<CommunityCtx, 'db' | 'rid'> & { session: Pick<CommunityCtx['session'], 'accountId' | 'name'> };

/** Whom a card is opened for and how: a member's id, or someone found by the mobile (added when new). */
export interface CardOpening {
  templateId: number;
  memberId?: number | null;
  realname?: string;
  mobile?: string;
  /** the chosen room, first among the card's houses */
  hid?: number | null;
}

/** The member a card is opened for: the chosen resident, or the person of that mobile (added when new). */
async function cardMember(ctx: CardOpener, o: CardOpening): Promise<number> {
  if (o.memberId) return Number(o.memberId);
  const mobile = String(o.mobile);
  const known = await ctx.db.selectFrom('members').select('id').where('rid', '=', ctx.rid).where('mobile', '=', mobile).executeTakeFirst();
  if (known) return known.id;
  const added = await ctx.db
    .insertInto('members')
    .values({ rid: ctx.rid, realname: String(o.realname), mobile, remark: '开卡登记' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return added.id;
}

async function refuseSecondCard(ctx: CardOpener, memberId: number, except?: number): Promise<void> {
  let q = ctx.db
    .selectFrom('member_cards')
    .select('card_no')
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', memberId)
    .where('status', 'in', [...LIVE]);
  if (except) q = q.where('id', '<>', except);
  const live = await q.executeTakeFirst();
  if (live) fail(`该会员已有会员卡（卡号 ${live.card_no}），不能重复开卡`);
}

async function cardNoTaken(ctx: CardOpener, cardNo: string): Promise<boolean> {
  const taken = await ctx.db
    .selectFrom('member_cards')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('card_no', '=', cardNo)
    .executeTakeFirst();
  return !!taken;
}

async function refuseTakenNo(ctx: CardOpener, cardNo: string): Promise<void> {
  if (await cardNoTaken(ctx, cardNo)) fail(`卡号 ${cardNo} 已存在`);
}

/**
 * The rules of opening a card, for 开卡, a claim link and the import alike: the template running
 * and in its validity, the member (found or added), one live card a member, the member's rooms
 * (the chosen one first) and the end of validity. Answers the new card's derived columns.
 */
async function cardOpening(ctx: CardOpener, o: CardOpening) {
  const template = await ctx.db
    .selectFrom('card_templates')
    .select(['status', 'validity', 'valid_end', 'valid_days'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', o.templateId)
    .executeTakeFirst();
  if (!template) fail('会员卡不存在');
  if (template.status !== 'Y') fail('该会员卡已停用，不能开卡');
  if (template.validity === 'range' && template.valid_end !== null && template.valid_end < today()) fail('该会员卡已过有效期，不能开卡');
  const memberId = await cardMember(ctx, o);
  await refuseSecondCard(ctx, memberId);
  // the card serves the member's rooms, the chosen one first
  const rooms = await ctx.db
    .selectFrom('room_members')
    .select('hid')
    .distinct()
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', memberId)
    .where('status', '=', 'Y')
    .execute();
  const hids = [...new Set([...(o.hid ? [Number(o.hid)] : []), ...rooms.map((r) => r.hid)])];
  return { member_id: memberId, hids, valid_until: validUntil(template) };
}

/** A card number nobody holds in the community: M, the day and five random digits. */
async function freeCardNo(ctx: CardOpener): Promise<string> {
  for (;;) {
    const no = `M${today().slice(2).replaceAll('-', '')}${String(crypto.randomInt(100000)).padStart(5, '0')}`;
    if (!(await cardNoTaken(ctx, no))) return no;
  }
}

/**
 * Opens a card outside the card form (a claim link, the import), by the form's rules
 * (`cardOpening`): the number given (refused when taken) or a free one; 正常 from now; its history
 * starts with 开卡. Answers the card.
 */
export async function openCard(
  ctx: CardOpener,
  o: CardOpening & { cardNo?: string; level?: MemberCardItem['level']; tags?: string[]; remark?: string },
): Promise<{ id: number; card_no: string; member_id: number }> {
  const derived = await cardOpening(ctx, o);
  if (o.cardNo) await refuseTakenNo(ctx, o.cardNo);
  const cardNo = o.cardNo ?? (await freeCardNo(ctx));
  const card = await ctx.db
    .insertInto('member_cards')
    .values({
      rid: ctx.rid,
      card_no: cardNo,
      template_id: o.templateId,
      ...derived,
      level: o.level ?? '普通会员',
      tags: o.tags ?? [],
      status: 'Y',
      activated_at: sql`now()`,
      remark: o.remark ?? '',
      created_by: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // the log reads only the community, the account and its name
  await writeFlowLog(ctx as CommunityCtx, memberCardFlow.def, card.id, { transition: 'create', from: '', to: 'Y' });
  return { id: card.id, card_no: cardNo, member_id: derived.member_id };
}

const resourceMethods = defineResource(memberCard, {
  table: 'member_cards',
  query: (db, rid) => cardQuery(db as Kysely<DB>, rid),
  row: (r: CardRaw) => toCardRow({ ...r, level_ch: r.level }),
  unique: [{ on: ['card_no'], message: (v) => `卡号 ${String(v.card_no)} 已存在` }],
  where: {
    keyword: (qb, value) => {
      const k = likePattern(String(value));
      return qb.where((eb) => eb.or([eb('m.realname', 'like', k), eb('m.mobile', 'like', k)]));
    },
  },
  async values(input, ctx, before) {
    const { hid, member_id, realname, mobile, ...card } = input;
    if (before) return card;
    const opening = { templateId: Number(input.template_id), memberId: member_id as number | null, hid: hid as number | null };
    return {
      ...card,
      ...(await cardOpening(ctx, { ...opening, realname: realname as string, mobile: mobile as string })),
      activated_at: card.status === 'Y' ? sql`now()` : null,
      created_by: ctx.session.accountId,
    };
  },
  async beforeEdit(ctx, before, values) {
    if (values.card_no !== before.card_no && (await transacted(ctx, Number(before.id)))) fail('该卡已有交易，卡号不能修改');
    if (before.status === 'C' || before.status === 'L') fail('已注销或挂失的会员卡不能修改');
  },
  async after(ctx, id, _values, before) {
    if (!before) await writeFlowLog(ctx, memberCardFlow.def, id, { transition: 'create', from: '', to: String(_values.status) });
  },
  summaries: {
    list: '会员列表：卡号、会员卡、会员、房屋、等级、标签、状态、余额与积分（会员的余额和积分，按流水合计）',
    add: '开卡：选住户（房屋→会员）或填非住户姓名和手机号；每位会员只能有一张在用的卡；有效期按会员卡设置',
    edit: '修改会员卡：等级、标签、备注；有交易后卡号不能修改',
    del: '删除会员卡：只有没有交易的卡可以删除',
  },
});

async function transacted(ctx: CommunityCtx, id: number): Promise<boolean> {
  const row = await sql<{ used: boolean }>`SELECT (EXISTS (SELECT 1 FROM balance_ledger WHERE rid = ${ctx.rid} AND card_id = ${id})
    OR EXISTS (SELECT 1 FROM bonus_ledger WHERE rid = ${ctx.rid} AND card_id = ${id})) AS used`.execute(ctx.db);
  return !!row.rows[0]?.used;
}

const flowMethods = defineWorkflow(memberCardFlow, {
  table: 'member_cards',
  answer: cardRow,
  transitions: {
    activate: { set: () => ({ activated_at: sql`now()` }), message: '激活成功' },
    freeze: { message: '已冻结' },
    unfreeze: { message: '已解冻' },
    lost: {
      async run(ctx, row, input) {
        const cardNo = String(input.new_card_no);
        await refuseTakenNo(ctx, cardNo);
        // the lost card leaves the member's live card first: one live card a member
        await ctx.db.updateTable('member_cards').set({ status: 'L' }).where('rid', '=', ctx.rid).where('id', '=', row.id).execute();
        const replacement = await ctx.db
          .insertInto('member_cards')
          .values({
            rid: ctx.rid,
            card_no: cardNo,
            template_id: row.template_id,
            member_id: row.member_id,
            level: row.level,
            tags: row.tags,
            hids: row.hids,
            status: 'Y',
            valid_until: row.valid_until,
            activated_at: sql`now()`,
            remark: `补卡，原卡 ${String(row.card_no)} 挂失`,
            created_by: ctx.session.accountId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await ctx.db
          .updateTable('member_cards')
          .set({ replaced_by: replacement.id })
          .where('rid', '=', ctx.rid)
          .where('id', '=', row.id)
          .execute();
        await writeFlowLog(ctx, memberCardFlow.def, replacement.id, {
          transition: 'replace',
          from: '',
          to: 'Y',
          input: { lost_card_no: row.card_no },
        });
      },
      message: '已挂失，新卡已开通并继承余额和积分',
    },
    close: {
      async run(ctx, row) {
        const member = await ctx.db
          .selectFrom('members')
          .select('balance')
          .where('rid', '=', ctx.rid)
          .where('id', '=', row.member_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (toFen(member.balance) !== 0n) fail(`该会员余额还有 ${fenToYuan(toFen(member.balance))} 元，须为 0 才能注销`);
      },
      message: '已注销',
    },
  },
  logRoles: CARD_ROLES.staff,
  summaries: {
    cardusactivate: '激活会员卡（未激活→正常）',
    cardusfreeze: '冻结会员卡：冻结后不能消费余额和积分（充值、退回仍可入账）',
    cardusunfreeze: '解冻会员卡',
    carduslost: '挂失补卡：原卡停用（挂失），新卡号开通为正常，会员的余额和积分由新卡继承',
    carduseclose: '注销会员卡：余额须为 0',
    carduslog: '一张会员卡的操作记录：开卡、激活、冻结、解冻、挂失补卡、注销',
  },
});

const cardbonusadjust = defineMethod('cardbonusadjust', {
  side: 'community',
  roles: CARD_ROLES.issue,
  writes: true,
  summary: '调整积分（须填原因）：增加或扣减会员积分，写入积分流水；扣减不能超过现有积分；同一 idempotency_key 重试只调整一次',
  async handler(ctx, input) {
    return onceByKey(ctx, 'cardbonusadjust', input.idempotency_key, async () => {
      const card = await ctx.db
        .selectFrom('member_cards')
        .select(['member_id', 'status', 'card_no'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!card) fail('会员卡不存在');
      if (card.status === 'L' || card.status === 'C') fail('已挂失或注销的会员卡不能调整积分');
      const template = await ctx.db
        .selectFrom('member_cards as c')
        .innerJoin('card_templates as t', (j) => j.onRef('t.rid', '=', 'c.rid').onRef('t.id', '=', 'c.template_id'))
        .select('t.supply_bonus')
        .where('c.rid', '=', ctx.rid)
        .where('c.id', '=', input.id)
        .executeTakeFirstOrThrow();
      if (template.supply_bonus !== 'Y') fail('该会员卡不积分');
      const bonus = await moveBonus(ctx.db, {
        rid: ctx.rid,
        memberId: card.member_id,
        points: input.points,
        orderid: `TZ${Date.now()}`,
        payCate: '手工调整',
        source: '后台',
        actionUser: ctx.session.name,
        remark: input.reason,
      });
      return reply({ id: input.id, bonus: bonus ?? 0 }, `积分已调整，当前积分 ${bonus ?? 0}`);
    });
  },
});

const cardledgerlist = defineMethod('cardledgerlist', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '一张会员卡所属会员的余额或积分流水（每行：单号、商户、类型、增减、金额或积分、变动后、支付方式、操作人、时间）',
  async handler(ctx, input) {
    const card = await ctx.db
      .selectFrom('member_cards')
      .select('member_id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!card) fail('会员卡不存在');
    const offset = (input.page - 1) * input.limit;
    const dir = input.sort === 'asc' ? sql`ASC` : sql`DESC`;
    if (input.kind === 'bonus') {
      const base = ctx.db.selectFrom('bonus_ledger as l').where('l.rid', '=', ctx.rid).where('l.member_id', '=', card.member_id);
      const [count, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
        base
          .leftJoin('merchants as s', (j) => j.onRef('s.rid', '=', 'l.rid').onRef('s.id', '=', 'l.merchant_id'))
          .select([
            'l.id',
            'l.orderid',
            's.merchant',
            'l.pay_cate',
            'l.cate',
            'l.num',
            'l.bonus_after',
            'l.source',
            'l.action_user',
            'l.remark',
            'l.create_time',
          ])
          .orderBy(sql`l.create_time ${dir}, l.id ${dir}`)
          .limit(input.limit)
          .offset(offset)
          .execute(),
      ]);
      const items: CardLedgerRow[] = rows.map((l) => ({
        id: l.id,
        kind: 'bonus',
        orderid: l.orderid,
        merchant: l.merchant ?? '',
        what: l.pay_cate,
        direction: l.num > 0 ? '增加' : '减少',
        amount: String(l.num),
        after: l.bonus_after === null ? '' : String(l.bonus_after),
        paytype_ch: l.source,
        operator: l.action_user,
        remark: l.remark,
        create_time: wireTime(l.create_time),
      }));
      return { items, total: Number(count.n) };
    }
    const base = ctx.db
      .selectFrom('balance_ledger as l')
      .where('l.rid', '=', ctx.rid)
      .where('l.member_id', '=', card.member_id)
      .where('l.status', '=', 'Y');
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      base
        .leftJoin('merchants as s', (j) => j.onRef('s.rid', '=', 'l.rid').onRef('s.id', '=', 'l.merchant_id'))
        .leftJoin('fee_cost_types as ft', (j) => j.onRef('ft.rid', '=', 'l.rid').onRef('ft.cost_type', '=', 'l.feetype'))
        .select([
          'l.id',
          'l.orderid',
          's.merchant',
          'l.feetype',
          'ft.title as cost_title',
          'l.io_type',
          'l.total_fee',
          'l.balance_after',
          'l.paytype',
          'l.create_user',
          'l.remark',
          'l.create_time',
        ])
        .orderBy(sql`l.create_time ${dir}, l.id ${dir}`)
        .limit(input.limit)
        .offset(offset)
        .execute(),
    ]);
    const items: CardLedgerRow[] = rows.map((l) => ({
      id: l.id,
      kind: 'balance',
      orderid: l.orderid,
      merchant: l.merchant ?? '',
      what: l.cost_title ?? FEETYPE_CH[l.feetype] ?? l.feetype,
      direction: l.io_type === 1 ? '增加' : '减少',
      amount: `${l.io_type === 1 ? '' : '-'}${fenToYuan(toFen(l.total_fee))}`,
      after: l.balance_after === null ? '' : fenToYuan(toFen(l.balance_after)),
      paytype_ch: l.paytype ? enumText(PAY_TYPE, l.paytype) : '',
      operator: l.create_user,
      remark: l.remark,
      create_time: wireTime(l.create_time),
    }));
    return { items, total: Number(count.n) };
  },
});

// the members' cards and ledgers are the property's: a merchant serves a member at its counter, by the member's code
export const cardMethods = notForMerchants([...resourceMethods, ...flowMethods, cardbonusadjust, cardledgerlist]);
