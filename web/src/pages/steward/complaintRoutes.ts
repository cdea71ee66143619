import type { AppRoute } from '../../router/types';

/** Route titles of the steward desk's complaints, keyed like 'route.<name>' without the prefix. */
export const complaintTitles = { 'zh-CN': {}, en: {} };

/** The steward desk's complaints pages under /steward. */
export const complaintRoutes: AppRoute[] = [];
