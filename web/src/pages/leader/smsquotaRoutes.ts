import { MessageOutlined } from '@ant-design/icons';
import { SMSQUOTA_FLAG } from '@wuye/contract/leader/smsquota';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const SmsQuota = lazyPage(() => import('./SmsQuota'));

/** Route titles of the group's SMS quota page, keyed like 'route.<name>' without the prefix. */
export const smsquotaTitles = {
  'zh-CN': { smsquota: '短信额度' },
  en: { smsquota: 'SMS quota' },
  es: { smsquota: 'Cupo de SMS' },
};

/**
 * Children of the group side's '/setup' (issue 45): the group's SMS quota package and its ledger,
 * shown to an account holding is_smsset_auth (the group side's leaders only hold such flags).
 */
export const smsquotaLeaderRoutes: AppRoute[] = [
  {
    path: 'smsquota',
    component: SmsQuota,
    meta: { title: 'route.smsquota', icon: MessageOutlined, roles: [SMSQUOTA_FLAG], keepAlive: true },
  },
];
