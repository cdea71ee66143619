import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capitalAmount, checkAmount, fenToYuan, money, mulDivRoundHalfUp, sanitizeMoneyInput, toFen } from './money.js';

describe('money', () => {
  it('converts between yuan text and fen exactly', () => {
    expect(toFen('128.5')).toBe(12850n);
    expect(toFen('0.01')).toBe(1n);
    expect(fenToYuan(12850n)).toBe('128.50');
    expect(fenToYuan(-5n)).toBe('-0.05');
    expect(() => toFen('1.234')).toThrow();
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 14n }), (fen) => toFen(fenToYuan(fen)) === fen));
  });

  it('parses wire amounts: two decimals at most, never negative', () => {
    expect(money.parse('12.5')).toBe('12.50');
    expect(money.parse(3)).toBe('3.00');
    for (const bad of ['1.234', '-1', 'abc', '', '1e5', NaN, Infinity, -2]) expect(money.safeParse(bad).success).toBe(false);
  });

  it('rounds half up to the fen', () => {
    expect(mulDivRoundHalfUp(8950n, 25000n, 10000n)).toBe(22375n); // 89.50 m2 x 2.5000 = 223.75
    expect(mulDivRoundHalfUp(1n, 5n, 10n)).toBe(1n);
    expect(mulDivRoundHalfUp(1n, 4n, 10n)).toBe(0n);
  });

  it('filters the money input as spec 5 says', () => {
    expect(sanitizeMoneyInput('.12')).toBe('12');
    expect(sanitizeMoneyInput('12.345')).toBe('12.34');
    expect(sanitizeMoneyInput('1a2.3.4')).toBe('12.34');
    expect(sanitizeMoneyInput('¥100')).toBe('100');
  });

  it('checks amounts with the spec messages', () => {
    expect(checkAmount('')).toBe('输入不能为空');
    expect(checkAmount('12a')).toBe('只能输入阿拉伯数字');
    expect(checkAmount('-1')).toBe('只能输入阿拉伯数字');
    expect(checkAmount('12.5')).toBe('');
  });

  it('writes capital-numeral currency, ending with 整 when there are no jiao or fen', () => {
    expect(capitalAmount('0')).toBe('零元整');
    expect(capitalAmount('1')).toBe('壹元整');
    expect(capitalAmount('10')).toBe('壹拾元整');
    expect(capitalAmount('105.5')).toBe('壹佰零伍元伍角');
    expect(capitalAmount('1004.07')).toBe('壹仟零肆元零柒分');
    expect(capitalAmount('100000')).toBe('壹拾万元整');
    expect(capitalAmount('10010000.30')).toBe('壹仟零壹万元叁角');
    expect(capitalAmount('123456789.12')).toBe('壹亿贰仟叁佰肆拾伍万陆仟柒佰捌拾玖元壹角贰分');
    expect(capitalAmount('0.05')).toBe('伍分');
  });
});
