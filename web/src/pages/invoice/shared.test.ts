import { describe, expect, it } from 'vitest';
import { amountProblem, distinct } from './shared';
import { mappingStart } from './ItemMapCard';

describe('invoice helpers', () => {
  it('takes an amount above nothing and up to what is left', () => {
    expect(amountProblem('50.00', '100.00')).toBe('');
    expect(amountProblem('100', '100.00')).toBe('');
    expect(amountProblem('100.01', '100.00')).toBe('不能超过 100.00');
    expect(amountProblem('0', '100.00')).toBe('金额须大于0');
    expect(amountProblem('', '100.00')).toBe('请输入金额');
    expect(amountProblem('1.234', '100.00')).toBe('请输入金额');
  });
  it('keeps distinct ids in order without nulls', () => {
    expect(distinct([3, null, 3, 1, undefined])).toEqual([3, 1]);
  });
  it('opens an unmapped item with the suggestion of its cost type, a mapped one with its mapping', () => {
    const row = {
      item_id: 1,
      item_title: '物业服务费',
      cost_type: 'property',
      cost_type_ch: '物业费',
      mapped: 'N' as const,
      goods_name: '',
      tax_code: '',
      rate: '',
      rate_ch: '',
      tax_included: '' as const,
      special: '',
      special_ch: '',
      unit: '',
      update_time: '',
    };
    expect(mappingStart(row)).toMatchObject({ goods_name: '物业管理服务', tax_code: '3040801010000000000', rate: '6' });
    expect(mappingStart({ ...row, cost_type: 'unknown' }).goods_name).toBe('其他服务');
    expect(
      mappingStart({ ...row, mapped: 'Y', goods_name: '物业费', tax_code: '1'.repeat(19), rate: '3', tax_included: 'N' }),
    ).toMatchObject({
      goods_name: '物业费',
      rate: '3',
      tax_included: 'N',
    });
  });
});
