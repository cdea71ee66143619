import { useQuery } from '@tanstack/react-query';
import { call } from './client';

export const PARKING_DASHBOARD_KEY = ['parkingdashboard'] as const;

/** The parking card's figures on the dashboard (parkingdashboard; docs/product.md#parking-reports). */
export function useParkingDashboard() {
  return useQuery({
    queryKey: PARKING_DASHBOARD_KEY,
    queryFn: () => call('parkingdashboard', {}, { silent: true }),
    refetchInterval: 5 * 60_000,
  });
}
