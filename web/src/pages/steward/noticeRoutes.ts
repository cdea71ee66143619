import type { AppRoute } from '../../router/types';

/** Route titles of the steward desk's notices, keyed like 'route.<name>' without the prefix. */
export const noticeTitles = { 'zh-CN': {}, en: {} };

/** The steward desk's notices pages under /steward. */
export const noticeRoutes: AppRoute[] = [];
