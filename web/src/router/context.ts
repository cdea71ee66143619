import { createContext, useContext } from 'react';
import type { AppRoute, FlatRoute } from './types';

export interface RoutesInfo {
  /** the permitted tree of the signed-in side */
  permitted: AppRoute[];
  /** its pages, flattened */
  flat: FlatRoute[];
  /** every page of the side, permitted or not (401 vs 404) */
  flatAll: FlatRoute[];
}

export const RoutesContext = createContext<RoutesInfo>({ permitted: [], flat: [], flatAll: [] });

export function useRoutesInfo(): RoutesInfo {
  return useContext(RoutesContext);
}
