import { useQuery } from '@tanstack/react-query';
import { call } from './client';

export const REPAIR_DASHBOARD_KEY = ['repairdashboard'] as const;

/** The repair desk's figures of the dashboard's card (repairdashboard; docs/product.md#repair-count). */
export function useRepairDashboard() {
  return useQuery({
    queryKey: REPAIR_DASHBOARD_KEY,
    queryFn: () => call('repairdashboard', {}, { silent: true }),
    refetchInterval: 5 * 60_000,
  });
}
