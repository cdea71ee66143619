import type { AppRoute } from '../../router/types';

/** Route titles of the steward desk's profiles, keyed like 'route.<name>' without the prefix. */
export const profileTitles = { 'zh-CN': {}, en: {} };

/** The steward desk's profiles pages under /steward. */
export const profileRoutes: AppRoute[] = [];
