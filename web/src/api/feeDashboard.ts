import { useQuery } from '@tanstack/react-query';
import { call } from './client';

export const FEE_DASHBOARD_KEY = ['feedashboard'] as const;

/** This month's collection figures of the dashboard's fee cards (feedashboard). */
export function useFeeDashboard() {
  return useQuery({
    queryKey: FEE_DASHBOARD_KEY,
    queryFn: () => call('feedashboard', {}, { silent: true }),
    refetchInterval: 5 * 60_000,
  });
}
