import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { joinPath } from '../router/helpers';
import type { AppRoute } from '../router/types';
import { isExternal } from '../utils/validate';

type MenuItem = NonNullable<MenuProps['items']>[number];

function label(route: AppRoute, t: TFunction): string {
  return route.meta?.title ? t(route.meta.title) : route.path;
}

function iconOf(route: AppRoute) {
  const Icon = route.meta?.icon;
  return Icon ? <Icon /> : undefined;
}

/**
 * Sidebar items of a list of routes: hidden routes are left out; a group with a single visible
 * page shows that page directly.
 */
export function sidebarItems(routes: readonly AppRoute[], base: string, t: TFunction, preload: (path: string) => void): MenuItem[] {
  const items: MenuItem[] = [];
  // a page starts loading as the pointer reaches its entry (router/lazyPage.tsx)
  const page = (key: string, icon: ReturnType<typeof iconOf>, text: string): MenuItem => ({
    key,
    icon,
    label: text,
    onMouseEnter: () => preload(key),
  });
  for (const route of routes) {
    if (route.hidden) continue;
    const fullPath = isExternal(route.path) ? route.path : joinPath(base, route.path);
    const visible = (route.children ?? []).filter((c) => !c.hidden);
    if (visible.length === 1 && !visible[0]!.children?.some((c) => !c.hidden) && !route.component) {
      const only = visible[0]!;
      const onlyPath = isExternal(only.path) ? only.path : joinPath(fullPath, only.path);
      items.push(page(onlyPath, iconOf(only) ?? iconOf(route), label(only, t)));
    } else if (visible.length > 0) {
      items.push({
        key: fullPath,
        icon: iconOf(route),
        label: label(route, t),
        children: sidebarItems(route.children!, fullPath, t, preload),
      });
    } else if (route.component || isExternal(route.path)) {
      items.push(page(fullPath, iconOf(route), label(route, t)));
    }
  }
  return items;
}

/** What the sidebar lists for the selected top route: its children, or the top page itself. */
export function sidebarRoutesOf(top: AppRoute | undefined): { routes: AppRoute[]; base: string } {
  if (!top) return { routes: [], base: '' };
  const visible = (top.children ?? []).filter((c) => !c.hidden);
  if (visible.length === 0) return { routes: [top], base: '' };
  return { routes: top.children!, base: top.path };
}
