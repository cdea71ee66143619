import { useQuery } from '@tanstack/react-query';
import { call } from './client';

export const INBOX_COUNT_KEY = ['inbox-count'] as const;

/** The signed-in staff member's unread 站内消息 in this community (docs/product.md#notifications). */
export function useInboxCount(enabled: boolean): number {
  const { data } = useQuery({
    queryKey: INBOX_COUNT_KEY,
    queryFn: async () => (await call('inboxcount', {}, { silent: true })).unread,
    enabled,
    refetchInterval: 60_000,
  });
  return data ?? 0;
}
