import { z } from 'zod';

/**
 * Money rules (docs/architecture.md#money): decimal strings on the wire ("128.50"),
 * integer fen as bigint for arithmetic, NUMERIC(14,2) in the database. Never a float.
 */
export const MONEY_RE = /^\d{1,12}(\.\d{1,2})?$/;
export const MAX_FEN = 999_999_999_999_99n;

/** A non-negative amount with at most two decimals, as string or number on input, string out. */
export const money = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = typeof v === 'number' ? numberToMoneyText(v) : v.trim();
  if (s === null || !MONEY_RE.test(s)) {
    ctx.addIssue({ code: 'custom', message: '金额格式不正确，应为不小于0且最多两位小数的数字' });
    return z.NEVER;
  }
  return fenToYuan(toFen(s));
});

/** The most one bill (or one line of a quick payment) may come to: 10,000,000.00 yuan. */
export const MAX_BILL_FEN = 10_000_000_00n;
/** The most one payment (many bills, a top-up) may take: 100,000,000.00 yuan. */
export const MAX_PAYMENT_FEN = 100_000_000_00n;

/**
 * An amount with a sane ceiling: a bill edited to 999,999,999,999.99 could never be paid (its sum
 * with late fees overflows NUMERIC(14,2)).
 */
export const moneyUpTo = (maxFen: bigint) => money.refine((v) => toFen(v) <= maxFen, { message: `金额不能超过 ${fenToYuan(maxFen)} 元` });

function numberToMoneyText(n: number): string | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const s = String(n);
  return /e/i.test(s) ? null : s;
}

/** "128.5" -> 12850n. Throws on anything that is not a plain decimal with at most two places. */
export function toFen(value: string | number | bigint): bigint {
  if (typeof value === 'bigint') return value * 100n;
  const s = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new Error(`invalid money: ${s}`);
  const fen = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -fen : fen;
}

/** 12850n -> "128.50" */
export function fenToYuan(fen: bigint): string {
  const neg = fen < 0n;
  const abs = neg ? -fen : fen;
  const text = `${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  return neg ? `-${text}` : text;
}

/** a*b/den rounded half up to whole fen, all in integers (e.g. area x unit price). */
export function mulDivRoundHalfUp(a: bigint, b: bigint, den: bigint): bigint {
  const p = a * b;
  const sign = p < 0n ? -1n : 1n;
  const abs = p < 0n ? -p : p;
  return sign * ((abs * 2n + den) / (den * 2n));
}

/**
 * Money input filter (docs/product.md#money-input): keeps digits and a single dot, removes a leading dot,
 * keeps at most two decimals.
 */
export function sanitizeMoneyInput(raw: string): string {
  let s = raw.replace(/[^\d.]/g, '');
  s = s.replace(/^\.+/, '');
  const dot = s.indexOf('.');
  if (dot >= 0) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
  const m = /^(\d*)(\.\d{0,2})?/.exec(s);
  return m ? m[1]! + (m[2] ?? '') : '';
}

/** Amount proof (docs/product.md#money-input): '' when valid, else the product's message. */
export function checkAmount(raw: string | undefined | null): string {
  if (raw === undefined || raw === null || String(raw).trim() === '') return '输入不能为空';
  return /^\d+(\.\d+)?$/.test(String(raw).trim()) ? '' : '只能输入阿拉伯数字';
}

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const SMALL_UNITS = ['', '拾', '佰', '仟'];
const BIG_UNITS = ['', '万', '亿', '万亿'];

/** Chinese capital-numeral currency text; ends with 整 when there are no jiao/fen (docs/product.md#money-input). */
export function capitalAmount(value: string | number | bigint): string {
  let fen = typeof value === 'bigint' ? value : toFen(typeof value === 'number' ? value.toFixed(2) : value);
  const neg = fen < 0n;
  if (neg) fen = -fen;
  const yuan = fen / 100n;
  const jiao = Number((fen / 10n) % 10n);
  const cent = Number(fen % 10n);
  let text = yuan > 0n ? integerToCapital(yuan) + '元' : '';
  if (jiao === 0 && cent === 0) text = (text || '零元') + '整';
  else {
    if (jiao > 0) text += DIGITS[jiao] + '角';
    else if (yuan > 0n) text += '零';
    if (cent > 0) text += DIGITS[cent] + '分';
  }
  return (neg ? '负' : '') + text;
}

function integerToCapital(n: bigint): string {
  const groups: number[] = [];
  for (let v = n; v > 0n; v /= 10000n) groups.push(Number(v % 10000n));
  let out = '';
  let pendingZero = false;
  for (let g = groups.length - 1; g >= 0; g--) {
    const group = groups[g]!;
    if (group === 0) {
      pendingZero = out !== '';
      continue;
    }
    if (pendingZero || (out !== '' && group < 1000)) out += '零';
    out += groupToCapital(group) + BIG_UNITS[g];
    pendingZero = false;
  }
  return out;
}

function groupToCapital(group: number): string {
  let out = '';
  let zero = false;
  for (let i = 3; i >= 0; i--) {
    const d = Math.floor(group / 10 ** i) % 10;
    if (d === 0) {
      zero = out !== '';
      continue;
    }
    if (zero) out += '零';
    out += DIGITS[d]! + SMALL_UNITS[i]!;
    zero = false;
  }
  return out;
}
