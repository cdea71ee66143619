import { building, roomCategory, unit } from '@wuye/contract';
import { afterAll, beforeAll } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());
const server = () => s;

describeResource(roomCategory, {
  server,
  sample: { title: '酒店式公寓', kind: 'other', sort: 9 },
  edit: { title: '公寓', kind: 'residence' },
  deniedWriter: 'steward',
  unique: ['title'],
  filters: { title: '酒店' },
});

describeResource(building, {
  server,
  sample: { title: '99号楼', floors: 18, sort: 99, remark: '新交付' },
  edit: { title: '99号楼A', floors: 20 },
  deniedWriter: 'cashier',
  unique: ['title'],
});

describeResource(unit, {
  server,
  async sample(s, token) {
    const b = (await s.call('building_small_list', {}, token)).data.items[0];
    return { bid: b.id, title: '9单元', sort: 9 };
  },
  edit: { title: '九单元' },
  deniedWriter: 'merchant',
  unique: ['bid', 'title'],
});
