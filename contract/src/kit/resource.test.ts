import { describe, expect, it } from 'vitest';
import { car } from '../owners/cars.js';
import { building } from '../structure/resources.js';
import { createTimeColumn, dependsOnFields, enumOptions, enumText, filterSchema, matchOf, valueEnum, type FieldDef } from './resource.js';

const parse = (f: FieldDef, value: unknown) => filterSchema(f).safeParse(value);

describe('filters of a description', () => {
  it('takes a date range as two days that exist, both given, or nothing', () => {
    const range: FieldDef = { label: '登记时间', widget: 'dateRange', in: ['filter'] };
    expect(matchOf(range)).toBe('range');
    expect(parse(range, ['2026-03-01', '2026-03-31']).data).toEqual(['2026-03-01', '2026-03-31']);
    for (const empty of ['', null, undefined]) expect(parse(range, empty)).toMatchObject({ success: true, data: undefined });
    for (const bad of [['2026-02-30', '2026-03-31'], ['2026-3-1', '2026-03-31'], ['2026-03-01'], ["2026-03-01' OR 1=1", '2026-03-31']])
      expect(parse(range, bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('takes a multiple choice as a list, matched by in', () => {
    const many: FieldDef = { label: '费用类型', widget: { small: 'feebill_cate_small_list', multiple: true }, in: ['filter'] };
    expect(matchOf(many)).toBe('in');
    expect(parse(many, ['property', 'water']).data).toEqual(['property', 'water']);
    expect(parse(many, []).data).toBeUndefined();
    expect(parse(many, '').data).toBeUndefined();
    expect(
      parse(
        many,
        Array.from({ length: 51 }, (_, i) => `t${i}`),
      ).success,
    ).toBe(false);
  });

  it('takes a room and a member as ids, matched exactly; the member depends on the room', () => {
    const { hid, member_id } = car.def.fields;
    expect(matchOf(hid)).toBe('eq');
    expect(matchOf(member_id)).toBe('eq');
    expect(parse(hid, 12).data).toBe(12);
    expect(parse(hid, '').data).toBeUndefined();
    expect(parse(hid, 'x').success).toBe(false);
    expect(dependsOnFields(member_id)).toEqual(['hid']);
    expect(dependsOnFields(hid)).toEqual([]);
    expect(car.filterKeys).toContain('create_time');
  });
});

describe('the creation time column', () => {
  it('is create_time, 创建时间 unless named otherwise, with what a description adds', () => {
    expect(createTimeColumn()).toEqual({ key: 'create_time', label: '创建时间', width: 170 });
    expect(createTimeColumn('登记时间', { in: ['export'] })).toEqual({ key: 'create_time', label: '登记时间', width: 170, in: ['export'] });
    expect(building.def.columns.at(-1)).toEqual(createTimeColumn());
    expect(car.def.columns.at(-1)?.label).toBe('登记时间');
  });
});

describe('coded values', () => {
  const STATUS = valueEnum({ '': { text: '待审核', tone: 'warning' }, Y: { text: '已同意' } });
  it("gives the text of a value, '' included where the enum names it, and the value itself when it does not", () => {
    expect(enumText(STATUS, '')).toBe('待审核');
    expect(enumText(STATUS, 'Y')).toBe('已同意');
    expect(enumText(STATUS, 'Z')).toBe('Z');
    expect(enumText(STATUS, null)).toBe('');
    expect(enumText(valueEnum({ Y: { text: '是' } }), '')).toBe('');
    expect(enumText(STATUS, 'toString')).toBe('toString');
    expect(enumOptions(STATUS)).toEqual([
      { value: '', label: '待审核' },
      { value: 'Y', label: '已同意' },
    ]);
  });
});
