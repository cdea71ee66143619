/**
 * Charging month cards (充电月卡; docs/product.md#charging-piles): a card (months, price, hours a day)
 * bought by a member from the balance makes that many hours a day of their sessions free.
 */
import { CHARGING_ROLES, addDays, addMonths, chargeCard, fenToYuan, toFen } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { moveBalance } from '../cards/ledger.js';

const cardResource = defineResource(chargeCard, {
  table: 'charge_cards',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('charge_cards as t')
      .selectAll('t')
      .select(sql<number>`(SELECT count(*)::int FROM charge_card_orders o WHERE o.rid = t.rid AND o.card_id = t.id)`.as('sold'))
      .where('t.rid', '=', rid),
  row: (r: Record<string, unknown>) => ({ ...r, id: Number(r.id), price: fenToYuan(toFen(String(r.price))) }),
  unique: [{ on: ['title'], message: (v) => `充电月卡「${String(v.title)}」已存在` }],
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  dependents: { charge_card_orders: '该充电月卡已有会员购买，不能删除（可停售）' },
});

const chargecardbuy = defineMethod('chargecardbuy', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: true,
  summary: '为会员购买充电月卡：从会员余额支付月卡价格，自开始日期（默认今天，或接在该会员现有月卡之后）起若干个月内每日若干小时充电免费',
  async handler(ctx, input) {
    const card = await ctx.db
      .selectFrom('charge_cards')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.card_id)
      .executeTakeFirst();
    if (!card) fail('充电月卡不存在');
    if (card.status !== 'Y') fail('该充电月卡已停售');
    const member = await ctx.db
      .selectFrom('members')
      .select(['id', 'realname'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.member_id)
      .executeTakeFirst();
    if (!member) fail('会员不存在');
    const day = today();
    const current = await ctx.db
      .selectFrom('charge_card_orders')
      .select(sql<string>`max(end_date)::text`.as('end'))
      .where('rid', '=', ctx.rid)
      .where('member_id', '=', member.id)
      .where('end_date', '>=', day)
      .executeTakeFirst();
    // a renewal starts the day after the card it follows: two cards never cover one day twice
    const start = input.start_date || (current?.end ? addDays(current.end, 1) : day);
    if (start < day) fail('开始日期不能早于今天');
    if (current?.end && start <= current.end) fail(`该会员的月卡有效至 ${current.end}，新月卡应从之后开始`);
    const end = addDays(addMonths(start, card.months), -1);
    const row = await ctx.db
      .insertInto('charge_card_orders')
      .values({
        rid: ctx.rid,
        card_id: card.id,
        member_id: member.id,
        paid: card.price,
        hours_per_day: card.hours_per_day,
        start_date: start,
        end_date: end,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await moveBalance(ctx.db, {
      rid: ctx.rid,
      memberId: member.id,
      fen: toFen(String(card.price)),
      ioType: 2,
      feetype: 'charging_card',
      paytype: 'balance',
      orderid: `CM${row.id}`,
      remark: `购买充电月卡「${card.title}」`,
      createUser: ctx.session.name,
    });
    return reply({ id: Number(row.id), end_date: end }, `购买成功，有效期 ${start} 至 ${end}`);
  },
});

const chargecardorderlist = defineMethod('chargecardorderlist', {
  side: 'community',
  roles: CHARGING_ROLES.staff,
  writes: false,
  summary: '充电月卡订单：会员、手机号、月卡、实收、每日小时、有效期',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('charge_card_orders as o')
      .innerJoin('charge_cards as c', (j) => j.onRef('c.rid', '=', 'o.rid').onRef('c.id', '=', 'o.card_id'))
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'o.rid').onRef('m.id', '=', 'o.member_id'))
      .selectAll('o')
      .select(['c.title as card_title', 'm.realname', 'm.mobile'])
      .where('o.rid', '=', ctx.rid);
    if (input.card_id) qb = qb.where('o.card_id', '=', input.card_id);
    if (input.keyword) {
      const k = input.keyword;
      qb = qb.where((eb) =>
        eb.or([eb('m.realname', containsOperator(k), likePattern(k)), eb('m.mobile', containsOperator(k), likePattern(k))]),
      );
    }
    const page = await listPage(qb, input, 'o.id');
    return {
      total: page.total,
      items: page.items.map((r) => ({
        id: Number(r.id),
        card_id: Number(r.card_id),
        card_title: r.card_title,
        member_id: Number(r.member_id),
        realname: r.realname,
        mobile: r.mobile,
        paid: fenToYuan(toFen(String(r.paid))),
        hours_per_day: r.hours_per_day,
        start_date: String(r.start_date),
        end_date: String(r.end_date),
        create_time: wireTime(r.created_at),
      })),
    };
  },
});

export const monthCardMethods = [...cardResource, chargecardbuy, chargecardorderlist];
