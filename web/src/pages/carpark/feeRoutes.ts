import { CalculatorOutlined, FileDoneOutlined, TagsOutlined } from '@ant-design/icons';
import { PARK_COUPON_ROLES } from '@wuye/contract/carpark/coupons';
import { TEMP_FEE_ROLES } from '@wuye/contract/carpark/tempFeeConfig';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const TempFeeList = lazyPage(() => import('./TempFeeList'));
const ParkCardList = lazyPage(() => import('./ParkCardList'));
const ReceiveList = lazyPage(() => import('./ReceiveList'));

/** Route titles of the temporary-car fees and parking coupons, keyed like 'route.<name>' without the prefix. */
export const feeTitles = {
  'zh-CN': { tempfee: '临时车收费标准', parkcardlist: '停车劵', receivelist: '停车劵领取记录' },
  en: { tempfee: 'Temporary parking fees', parkcardlist: 'Parking coupons', receivelist: 'Coupons given' },
};

/** /carpark: the temporary-car fee standards and calculator, the parking coupons and those given (docs/product.md#temporary-car-fees). */
export const feeRoutes: AppRoute[] = [
  {
    path: 'tempfee',
    component: TempFeeList,
    meta: { title: 'route.tempfee', icon: CalculatorOutlined, roles: [...TEMP_FEE_ROLES], keepAlive: true },
  },
  {
    path: 'parkcardlist',
    component: ParkCardList,
    meta: { title: 'route.parkcardlist', icon: TagsOutlined, roles: [...PARK_COUPON_ROLES.read], keepAlive: true },
  },
  {
    path: 'receivelist',
    component: ReceiveList,
    meta: { title: 'route.receivelist', icon: FileDoneOutlined, roles: [...PARK_COUPON_ROLES.read], keepAlive: true },
  },
];
