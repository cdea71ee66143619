import { useQuery } from '@tanstack/react-query';
import { call } from './client';

export const BACKLOG_COUNT_KEY = ['backlog-count'] as const;
/** the home page's latest pending to-dos (also drawn by the server's first screen) */
export const BACKLOG_PENDING_KEY = ['backlog-pending'] as const;
export { PENDING_ON_HOME } from '@wuye/contract/home';

/** The to-do count of the badge: backlog_list total of pending items (docs/product.md#shell-top-bar, #calls). */
export function useBacklogCount(enabled: boolean): number {
  const { data } = useQuery({
    queryKey: BACKLOG_COUNT_KEY,
    queryFn: async () => (await call('backlog_list', { page: 1, limit: 1, status: 'E' }, { silent: true })).total,
    enabled,
    refetchInterval: 60_000,
  });
  return data ?? 0;
}
