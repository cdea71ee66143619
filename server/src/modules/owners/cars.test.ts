import { car } from '@wuye/contract';
import { describeResource } from '../../test/describeResource.js';

describeResource(car, {
  async sample(s, token) {
    const room = (await s.call('roomlist', { limit: 1 }, token)).data.items[0];
    return { hid: room.id, carlicense: '浙J8K321', color: '白色', brand: '比亚迪', status: 'Y' };
  },
  edit: { color: '黑色', status: 'N' },
  filters: { carlicense: '8K32', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['carlicense'],
});
