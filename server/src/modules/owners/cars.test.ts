import { car } from '@wuye/contract';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';

describeResource(car, {
  async sample(s, token) {
    const room = (await s.call('roomlist', { limit: 1 }, token)).data.items[0];
    return { hid: room.id, carlicense: '浙J8K321', color: '白色', brand: '比亚迪', status: 'Y' };
  },
  edit: { color: '黑色', status: 'N' },
  // 登记时间: today's range finds the car added now (its last day included), the days before leave it out
  filters: { carlicense: '8K32', status: 'Y', create_time: [today(), today()] },
  deniedWriter: 'cashier',
  unique: ['carlicense'],
});
