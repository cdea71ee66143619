import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { building, unit } from '@wuye/contract/structure';
import { dayRangePresets } from './dateRanges';
import { decodeFilter, encodeFilter } from './useResourceList';
import { formDefaults } from './useResourceForm';
import { isRequired, zodRule } from './zodRule';
import { resourceOfSmall } from './keys';

const check = async (schema: z.ZodType, value: unknown, label = '名称', choose = false) => {
  const rule = zodRule(schema, label, choose) as { validator: (r: unknown, v: unknown) => Promise<void> };
  return rule.validator({}, value).then(
    () => 'ok',
    (e: Error) => e.message,
  );
};

describe('zodRule', () => {
  it("runs the field's zod and shows its message, or one in the console's words", async () => {
    expect(await check(building.def.fields.title.zod, '')).toBe('请输入楼栋名称');
    expect(await check(building.def.fields.title.zod, '9号楼')).toBe('ok');
    expect(await check(z.string().max(30), 'x'.repeat(31), '楼栋名称')).toBe('楼栋名称最多30个字符');
    expect(await check(building.def.fields.floors.zod, 300, '楼层数')).toBe('楼层数不能大于200');
    expect(await check(unit.def.fields.bid.zod, undefined, '所属楼栋', true)).toBe('请选择所属楼栋');
    expect(await check(building.def.fields.remark.zod, '')).toBe('ok');
    expect(isRequired(building.def.fields.title.zod)).toBe(true);
    expect(isRequired(building.def.fields.floors.zod)).toBe(false);
  });

  it("starts a new row from the fields' defaults", () => {
    expect(formDefaults(building.def)).toEqual({ floors: 0, sort: 0, remark: '' });
  });
});

describe('filters in the address', () => {
  it('writes and reads them back in their types', () => {
    expect(encodeFilter(['2026-11-01', '2026-11-30'])).toBe('2026-11-01~2026-11-30');
    expect(decodeFilter({ label: '日期', widget: 'dateRange' }, '2026-11-01~2026-11-30')).toEqual(['2026-11-01', '2026-11-30']);
    expect(decodeFilter(unit.def.fields.bid, '9')).toBe(9);
    expect(decodeFilter(unit.def.fields.title, '9')).toBe('9');
    expect(encodeFilter('')).toBeUndefined();
    // a multiple choice: a list, with commas
    const costTypes = { label: '费用类型', widget: { small: 'feebill_cate_small_list', multiple: true } } as const;
    expect(encodeFilter(['property', 'water'], costTypes)).toBe('property,water');
    expect(decodeFilter(costTypes, 'property,water')).toEqual(['property', 'water']);
    expect(encodeFilter([], costTypes)).toBeUndefined();
    // a room is an id
    expect(decodeFilter({ label: '房屋', widget: 'room' }, '12')).toBe(12);
  });
});

describe('small lists', () => {
  it('belong to their resource, so its writes refresh them', () => {
    expect(resourceOfSmall('building_small_list')).toBe('building');
    expect(resourceOfSmall('unit_small_list')).toBe('unit');
    expect(resourceOfSmall('roomcate_small_list')).toBe('roomcate');
    expect(resourceOfSmall('room_small_list')).toBe('room');
  });
});

describe('date-range presets', () => {
  it('count days in the business time zone (weeks from Monday)', () => {
    // Thursday 2026-11-26 01:30 in Shanghai is still Wednesday the 25th in UTC
    const now = new Date('2026-11-25T17:30:00Z');
    const byLabel = Object.fromEntries(dayRangePresets(now, 'Asia/Shanghai').map((p) => [p.label, p.range]));
    expect(byLabel).toEqual({
      今天: ['2026-11-26', '2026-11-26'],
      昨天: ['2026-11-25', '2026-11-25'],
      本周: ['2026-11-23', '2026-11-29'],
      本月: ['2026-11-01', '2026-11-30'],
      上月: ['2026-10-01', '2026-10-31'],
      本年: ['2026-01-01', '2026-12-31'],
    });
    expect(dayRangePresets(now, 'UTC')[0]!.range).toEqual(['2026-11-25', '2026-11-25']);
  });
});
