import { WalletOutlined } from '@ant-design/icons';
import { SETPAY_ROLES } from '@wuye/contract/leader/setpay';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const SetPay = lazyPage(() => import('./SetPay'));

/** Route titles of the group's payment merchants page, keyed like 'route.<name>' without the prefix. */
export const setpayTitles = {
  'zh-CN': { setpay: '支付商户设置' },
  en: { setpay: 'Payment merchants' },
  es: { setpay: 'Comercios de pago' },
};

/** Children of the group side's '/setup': the payment merchants per community and kind of fee (issue 45). */
export const setpayLeaderRoutes: AppRoute[] = [
  { path: 'setpay', component: SetPay, meta: { title: 'route.setpay', icon: WalletOutlined, roles: [...SETPAY_ROLES], keepAlive: true } },
];
