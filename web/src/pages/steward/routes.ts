import { CustomerServiceOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { inModule } from '../../router/helpers';
import { noticeRoutes, noticeTitles } from './noticeRoutes';
import { repairRoutes, repairTitles } from './repairRoutes';
import { complaintRoutes, complaintTitles } from './complaintRoutes';
import { internalOrderRoutes, internalOrderTitles } from './internalOrderRoutes';
import { profileRoutes, profileTitles } from './profileRoutes';

export const stewardTitles = [
  { 'zh-CN': { steward: '管家服务', steward_short: '管家' }, en: { steward: 'Steward desk' } },
  noticeTitles,
  repairTitles,
  complaintTitles,
  internalOrderTitles,
  profileTitles,
];

/** /steward (docs/product.md#route-table): notices, repairs, complaints, internal orders, profiles and scores. */
export const stewardRoutes: AppRoute[] = [
  {
    path: '/steward',
    meta: { title: 'route.steward', icon: CustomerServiceOutlined },
    children: inModule('steward', [...noticeRoutes, ...repairRoutes, ...complaintRoutes, ...internalOrderRoutes, ...profileRoutes]),
  },
];
