import type { AppRoute } from '../../router/types';

/** Route titles of the steward desk's internalorders, keyed like 'route.<name>' without the prefix. */
export const internalOrderTitles = { 'zh-CN': {}, en: {} };

/** The steward desk's internalorders pages under /steward. */
export const internalOrderRoutes: AppRoute[] = [];
