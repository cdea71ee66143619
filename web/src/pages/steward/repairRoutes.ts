import type { AppRoute } from '../../router/types';

/** Route titles of the steward desk's repairs, keyed like 'route.<name>' without the prefix. */
export const repairTitles = { 'zh-CN': {}, en: {} };

/** The steward desk's repairs pages under /steward. */
export const repairRoutes: AppRoute[] = [];
