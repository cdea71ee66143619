import { feesMethods } from '@wuye/contract';
import { describe, expect, it } from 'vitest';
import { billFilterKey } from './billQuery.js';

const parse = (payload: Record<string, unknown>) => feesMethods.feebilllist.parse(payload);

describe('billFilterKey (remembered bill-list totals)', () => {
  it('is the same for every page and order of one filter set', () => {
    const key = billFilterKey(1, parse({ status: 'N', bid: 3 }));
    expect(billFilterKey(1, parse({ bid: 3, status: 'N', page: 7, limit: 30, sort: 'desc' }))).toBe(key);
  });

  it('differs by community and by every filter', () => {
    const base = parse({ status: 'N' });
    const keys = [
      billFilterKey(1, base),
      billFilterKey(2, base),
      ...[
        { status: 'E' },
        { status: 'N', bid: 1 },
        { status: 'N', tid: 1 },
        { status: 'N', hid: 1 },
        { status: 'N', cost_types: ['property'] },
        { status: 'N', title: '物业' },
        { status: 'N', min_fee: '1.00' },
        { status: 'N', max_fee: '1.00' },
        { status: 'N', is_check: 'Y' },
        { status: 'N', itemid: 1 },
      ].map((f) => billFilterKey(1, parse(f))),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
