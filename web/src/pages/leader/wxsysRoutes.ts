import { CreditCardOutlined, SwapOutlined, WechatOutlined } from '@ant-design/icons';
import { PAYTYPE_ROLES } from '@wuye/contract/leader/paytypes';
import { WXSYS_ROLES } from '@wuye/contract/leader/wxsys';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const SetWxsys = lazyPage(() => import('./SetWxsys'));
const SetChannel = lazyPage(() => import('./SetChannel'));
const PayTypeList = lazyPage(() => import('./PayTypeList'));

/** Route titles of the group's WeChat settings and payment channels, keyed like 'route.<name>' without the prefix. */
export const wxsysTitles = {
  'zh-CN': { setwxsys: '公众号/小程序设置', setchannel: '支付渠道', paytypelist: '支付方式' },
  en: { setwxsys: 'WeChat account & mini-program', setchannel: 'Payment channels', paytypelist: 'Payment methods' },
  es: { setwxsys: 'Cuenta oficial y miniprograma de WeChat', setchannel: 'Canales de pago', paytypelist: 'Formas de pago' },
};

/**
 * Children of the group side's '/setup' (issue 45): the official account and mini-program (each half
 * shown to an account holding is_wechatset_auth or is_microapp_auth), the payment channel per scene and
 * the payment methods' rules (支付方式).
 */
export const wxsysLeaderRoutes: AppRoute[] = [
  {
    path: 'setwxsys',
    component: SetWxsys,
    meta: { title: 'route.setwxsys', icon: WechatOutlined, roles: [...WXSYS_ROLES], keepAlive: true },
  },
  {
    path: 'setchannel',
    component: SetChannel,
    meta: { title: 'route.setchannel', icon: SwapOutlined, roles: [...WXSYS_ROLES], keepAlive: true },
  },
  {
    path: 'paytypelist',
    component: PayTypeList,
    meta: { title: 'route.paytypelist', icon: CreditCardOutlined, roles: [...PAYTYPE_ROLES], keepAlive: true },
  },
];
