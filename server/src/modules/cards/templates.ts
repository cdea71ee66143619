/**
 * Member card templates (会员卡设置, /carpark/cardinfo; docs/product.md#member-cards): the resource's
 * table, and the validity and points rules as words for the list.
 */
import { cardTemplate, fenToYuan, toFen, type CardTemplateItem } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineResource } from '../../lib/resource.js';

/** 有效期 as words. */
export function validityText(r: Pick<CardTemplateItem, 'validity' | 'valid_start' | 'valid_end' | 'valid_days'>): string {
  if (r.validity === 'range') return `${r.valid_start ?? ''} 至 ${r.valid_end ?? ''}`;
  if (r.validity === 'days') return `开卡后 ${r.valid_days ?? 0} 天`;
  return '永久有效';
}

/** 积分规则 as words: what earns points, what they take off, when they expire. */
export function pointsText(
  r: Pick<
    CardTemplateItem,
    | 'supply_bonus'
    | 'earn_per_yuan'
    | 'earn_cap'
    | 'redeem_points'
    | 'redeem_money'
    | 'redeem_min_order'
    | 'redeem_max_points'
    | 'expiry'
    | 'expiry_months'
  >,
): string {
  if (r.supply_bonus !== 'Y') return '不积分';
  const parts: string[] = [];
  parts.push(r.earn_per_yuan > 0 ? `每消费1元得${r.earn_per_yuan}分${r.earn_cap > 0 ? `，单笔最多${r.earn_cap}分` : ''}` : '消费不得积分');
  if (r.redeem_points > 0) {
    const min = toFen(r.redeem_min_order) > 0n ? `，满${fenToYuan(toFen(r.redeem_min_order))}元可用` : '';
    const max = r.redeem_max_points > 0 ? `，单笔最多${r.redeem_max_points}分` : '';
    parts.push(`${r.redeem_points}分抵${fenToYuan(toFen(r.redeem_money))}元${min}${max}`);
  } else parts.push('不可抵扣');
  if (r.expiry === 'next_year_end') parts.push('次年年底清零');
  if (r.expiry === 'rolling') parts.push(`${r.expiry_months ?? 0}个月后过期`);
  return parts.join('；');
}

/** A template's wire row from its table row. */
function toTemplateRow(r: Record<string, unknown>): CardTemplateItem {
  const row = {
    ...(r as unknown as CardTemplateItem),
    id: Number(r.id),
    valid_days: r.valid_days === null ? null : Number(r.valid_days),
    expiry_months: r.expiry_months === null ? null : Number(r.expiry_months),
    redeem_money: String(r.redeem_money),
    redeem_min_order: String(r.redeem_min_order),
  };
  delete (row as Record<string, unknown>).created_by;
  return { ...row, validity_text: validityText(row), points_text: pointsText(row) };
}

export const templateMethods = defineResource(cardTemplate, {
  table: 'card_templates',
  query: (db, rid) => (db as Kysely<DB>).selectFrom('card_templates as t').selectAll('t').where('t.rid', '=', rid),
  row: toTemplateRow,
  unique: [{ on: ['name'], message: (v) => `会员卡「${String(v.name)}」已存在` }],
  small: { label: 'name' },
  values(input) {
    // the fields of another validity or expiry are not kept
    return {
      ...input,
      valid_start: input.validity === 'range' ? input.valid_start : null,
      valid_end: input.validity === 'range' ? input.valid_end : null,
      valid_days: input.validity === 'days' ? input.valid_days : null,
      expiry_months: input.expiry === 'rolling' ? input.expiry_months : null,
    };
  },
});
