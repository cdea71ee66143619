import { costType, feeItem } from '@wuye/contract';
import { afterAll, beforeAll } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());
const server = () => s;

describeResource(costType, {
  server,
  sample: { cost_type: 'heating', title: '供暖费', sort: 20 },
  edit: { title: '采暖费', sort: 21 },
  deniedWriter: 'steward',
  unique: ['cost_type'],
  filters: { title: '供暖' },
});

describeResource(feeItem, {
  server,
  sample: {
    cost_type: 'property',
    title: '高层电梯费',
    pricing: 'area_built',
    unit_price: '0.3500',
    cycle_months: 1,
    late_fee_rule: 'daily',
    late_fee_rate: '0.5',
    status: 'Y',
  },
  edit: { unit_price: '0.4000', status: 'N' },
  deniedWriter: 'steward',
  unique: ['title'],
  filters: { cost_type: 'property', keyword: '电梯', status: 'Y' },
});
