import { cardTemplate } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { pointsText, validityText } from './templates.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const SAMPLE = {
  name: '测试会员卡',
  color: '#336699',
  notice: '结账时出示',
  description: '可在合作商户使用',
  validity: 'days',
  valid_days: 365,
  activation: ['mobile', 'name', 'birthday'],
  discount: 95,
  supply_bonus: 'Y',
  supply_balance: 'Y',
  earn_per_yuan: 2,
  earn_cap: 500,
  redeem_points: 100,
  redeem_money: '1.50',
  redeem_min_order: '20.00',
  redeem_max_points: 2000,
  expiry: 'rolling',
  expiry_months: 12,
  status: 'Y',
};

describeResource(cardTemplate, {
  server: () => s,
  sample: SAMPLE,
  edit: { name: '测试会员卡二', discount: 90, status: 'N' },
  filters: { name: '测试', supply_bonus: 'Y', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['name'],
});

describe('card templates: validity, points rules, the merchant', () => {
  const add = (token: string, v: Record<string, unknown>) => s.call('cardtemplateadd', { ...SAMPLE, ...v }, token);

  it('refuses a range without its dates or ending before it starts, days without a count, rolling without months', async () => {
    const admin = await s.login('admin');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '缺日期', validity: 'range', valid_start: '2026-01-01', valid_end: '' }, '固定日期的会员卡须填写开始和结束日期'],
      [{ name: '倒日期', validity: 'range', valid_start: '2026-12-31', valid_end: '2026-01-01' }, '结束日期不能早于开始日期'],
      [{ name: '缺天数', validity: 'days', valid_days: '' }, '领取后N天的会员卡须填写有效天数'],
      [{ name: '缺月数', expiry: 'rolling', expiry_months: null }, '滚动过期须填写月数'],
      [{ name: '零抵扣', redeem_points: 100, redeem_money: '0' }, '积分抵扣金额须大于0'],
      [{ name: '折扣', discount: 0 }, '会员折扣'],
      [{ name: '颜色', color: 'red' }, '卡面颜色应为 #RRGGBB'],
    ];
    for (const [v, msg] of cases) {
      const res = await add(admin, v);
      expect(res.return_code, JSON.stringify(v)).toBe('FAIL');
      expect(res.return_msg).toContain(msg);
    }
    const listed = await s.call('cardtemplatelist', { name: '缺' }, admin);
    expect(listed.data.total).toBe(0);
  });

  it('keeps only the chosen validity and expiry fields, and says the rules in words', async () => {
    const admin = await s.login('admin');
    const res = await add(admin, {
      name: '固定期卡',
      validity: 'range',
      valid_start: '2026-01-01',
      valid_end: '2026-12-31',
      valid_days: 30,
      expiry: 'never',
    });
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    const row = (await s.call('cardtemplatelist', { name: '固定期卡' }, admin)).data.items[0];
    expect(row).toMatchObject({
      valid_days: null,
      expiry_months: null,
      validity_text: '2026-01-01 至 2026-12-31',
      validity_ch: '固定日期',
    });
    expect(row.points_text).toBe('每消费1元得2分，单笔最多500分；100分抵1.50元，满20.00元可用，单笔最多2000分');
    expect(row.activation).toEqual(['mobile', 'name', 'birthday']);
  });

  it('writes the words of each rule', () => {
    expect(validityText({ validity: 'forever', valid_start: null, valid_end: null, valid_days: null })).toBe('永久有效');
    expect(validityText({ validity: 'days', valid_start: null, valid_end: null, valid_days: 30 })).toBe('开卡后 30 天');
    const base = {
      supply_bonus: 'Y' as const,
      earn_per_yuan: 0,
      earn_cap: 0,
      redeem_points: 0,
      redeem_money: '1.00',
      redeem_min_order: '0.00',
      redeem_max_points: 0,
      expiry: 'next_year_end' as const,
      expiry_months: null,
    };
    expect(pointsText(base)).toBe('消费不得积分；不可抵扣；次年年底清零');
    expect(pointsText({ ...base, supply_bonus: 'N' })).toBe('不积分');
  });

  it('a merchant reads the templates but cannot change them', async () => {
    const merchant = await s.login('merchant');
    const listed = await s.call('cardtemplatelist', {}, merchant);
    expect(listed.return_code).toBe('SUCCESS');
    expect(listed.data.total).toBeGreaterThan(0);
    const before = listed.data.total;
    expect((await add(merchant, { name: '商户的卡' })).return_code).toBe('NO_PERMISSION');
    const id = listed.data.items[0].id;
    expect((await s.call('cardtemplatedel', { id }, merchant)).return_code).toBe('NO_PERMISSION');
    expect((await s.call('cardtemplateedit', { ...SAMPLE, id, name: '改名' }, merchant)).return_code).toBe('NO_PERMISSION');
    const after = await s.call('cardtemplatelist', {}, merchant);
    expect(after.data.total).toBe(before);
    expect(after.data.items[0].name).toBe(listed.data.items[0].name);
  });

  it('the demo has the community card with points and a stopped promotion card', async () => {
    const admin = await s.login('admin');
    const rows = (await s.call('cardtemplatelist', { limit: 50 }, admin)).data.items as Array<{
      name: string;
      status: string;
      supply_bonus: string;
    }>;
    expect(rows.some((r) => r.name.endsWith('会员卡') && r.status === 'Y' && r.supply_bonus === 'Y')).toBe(true);
    expect(rows.some((r) => r.name.endsWith('促销卡') && r.status === 'N')).toBe(true);
  });
});
