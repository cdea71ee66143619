import { useLocation } from 'react-router';
import { useRoutesInfo } from '../router/context';
import { activeMenuPath, findFlat, topOf } from '../router/helpers';
import type { AppRoute, FlatRoute } from '../router/types';

export interface CurrentRoute {
  pathname: string;
  fullPath: string;
  flat: FlatRoute | undefined;
  /** the menu entry to highlight (activeMenu or the page itself) */
  menuPath: string;
  /** the top route the page belongs to */
  top: AppRoute | undefined;
}

export function useCurrentRoute(): CurrentRoute {
  const location = useLocation();
  const { flat, permitted } = useRoutesInfo();
  const current = findFlat(flat, location.pathname);
  const menuPath = activeMenuPath(current) ?? location.pathname;
  return {
    pathname: location.pathname,
    fullPath: location.pathname + location.search,
    flat: current,
    menuPath,
    top: topOf(permitted, menuPath),
  };
}
