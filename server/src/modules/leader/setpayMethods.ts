import { setpayMethods } from './setpay.js';

/** The group's payment merchants (支付商户设置, /setup/setpay on the group side; issue 45). */
export const setpayModule = [...setpayMethods];
