import { fenToYuan, toFen } from '@wuye/contract/money';

/** Sum of decimal strings, in fen. */
export const sumFen = (values: string[]): bigint => values.reduce((s, v) => s + toFen(v), 0n);

/** '' or an invalid text counts as 0 fen (the money input only lets valid text through). */
export const fenOf = (v: string | undefined): bigint => {
  try {
    return v ? toFen(v) : 0n;
  } catch {
    return 0n;
  }
};

export const yuan = fenToYuan;

/** A fresh idempotency key: 32 hex characters from the browser's CSPRNG (works without https). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
