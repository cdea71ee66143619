/**
 * The access area's to-do items (docs/product.md#to-do-list): a grant waiting for review, and a
 * device that grants failed to reach (one item per device, settled once none fails on it).
 */
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { registerBacklogSource } from '../setup/backlog.js';

export const grantReviewBacklog = registerBacklogSource({
  kind: 'accessgrant',
  roles: ACCESS_ROLES.staff,
  link: (id) => `/carpark/currentexamine_info?id=${id}`,
  hours: 24,
});

export const deviceSyncBacklog = registerBacklogSource({
  kind: 'accesssync',
  roles: ACCESS_ROLES.staff,
  link: () => '/carpark/face_user_synclog',
});
