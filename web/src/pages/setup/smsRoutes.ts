import { MessageOutlined } from '@ant-design/icons';
import { SMS_READERS } from '@wuye/contract/setup/sms';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const SmsJob = lazyPage(() => import('./SmsJob'));
const SmsJobLog = lazyPage(() => import('./SmsJobLog'));

/** Route titles of the messaging pages, keyed like 'route.<name>' without the prefix. */
export const smsTitles = {
  'zh-CN': { smsjob: '短信任务', smsjoblog: '短信发送日志' },
  en: { smsjob: 'SMS jobs', smsjoblog: 'SMS log' },
};

/** Messaging under /setup (issue 36): jobs with their templates, unsubscribe list and provider settings; the send log. */
export const smsSetupRoutes: AppRoute[] = [
  { path: 'smsjob', component: SmsJob, meta: { title: 'route.smsjob', icon: MessageOutlined, roles: [...SMS_READERS], keepAlive: true } },
  {
    path: 'smsjoblog',
    component: SmsJobLog,
    meta: { title: 'route.smsjoblog', icon: MessageOutlined, roles: [...SMS_READERS], keepAlive: true },
  },
];
