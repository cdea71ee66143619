import { groupedAmount } from '@wuye/contract/home';

/**
 * How money reads on every page. One convention:
 * - a table's money column says its unit in the title, 实收（元）, and its cells show 12,345.60;
 * - a summary figure (a Statistic, a card) shows ¥12,345.60 under a title without a unit;
 * - a sentence says 12,345.60 元.
 * Inputs keep the plain decimal the user types; exports keep plain numbers. The components that
 * draw it (Money, moneyColumn, MoneyStatistic) are in components/Money.tsx.
 */

/** A decimal string as the server sends it, a number (chart sums) or fen as a bigint. */
export type MoneyValue = string | number | bigint | null | undefined;

/** '¥' before the amount (figures), '元' after it (sentences, charts), or none (table cells). */
export type MoneyUnit = '¥' | '元' | '';

export interface MoneyFormat {
  unit?: MoneyUnit;
  /** what an absent amount (null, undefined, '') shows; '' by default */
  empty?: string;
}

/** The plain decimal of a value, or null when there is none. */
function decimalOf(value: MoneyValue): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    const negative = value < 0n;
    const fen = negative ? -value : value;
    return `${negative ? '-' : ''}${fen / 100n}.${String(fen % 100n).padStart(2, '0')}`;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const fixed = value.toFixed(2);
    return fixed === '-0.00' ? '0.00' : fixed;
  }
  const s = value.trim();
  return s === '' ? null : s;
}

/** Thousands separators on a decimal; a unit price's third and fourth decimals are kept as they are. */
function grouped(decimal: string): string {
  const long = /^(-?)(\d+)\.(\d{3,4})$/.exec(decimal);
  if (!long) return groupedAmount(decimal);
  const whole = long[2]!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${long[1]}${whole}.${long[3]}`;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * An amount as people read it: formatMoney('12345.6') is '12,345.60', with unit '¥' '¥12,345.60'
 * (a negative one '-¥12,345.60'), with unit '元' '12,345.60 元'. Text that is not a decimal is
 * shown as it is, without a unit.
 */
export function formatMoney(value: MoneyValue, { unit = '', empty = '' }: MoneyFormat = {}): string {
  const decimal = decimalOf(value);
  if (decimal === null) return empty;
  if (!NUMERIC.test(decimal)) return decimal;
  const text = grouped(decimal);
  if (unit === '¥') return text.startsWith('-') ? `-¥${text.slice(1)}` : `¥${text}`;
  if (unit === '元') return `${text} 元`;
  return text;
}
