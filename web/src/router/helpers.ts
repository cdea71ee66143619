import type { AppRoute, FlatRoute } from './types';

export function joinPath(base: string, path: string): string {
  if (path.startsWith('/')) return path;
  if (!base || base === '/') return `/${path}`;
  return `${base.replace(/\/+$/, '')}/${path}`;
}

/** Route permission (docs/product.md#roles): no roles = open, else one matching role; admin sees all. */
export function hasRoutePermission(keys: readonly string[], route: AppRoute): boolean {
  const roles = route.meta?.roles;
  if (!roles || roles.length === 0) return true;
  return keys.some((k) => roles.includes(k));
}

/**
 * Builds the permitted routes from the roles (docs/product.md#navigation-guard, #roles): admin sees everything, others by
 * meta.roles, children filtered the same way; a group left without pages is dropped.
 */
export function filterRoutes(routes: readonly AppRoute[], keys: readonly string[], sysType?: string): AppRoute[] {
  const isAdmin = keys.includes('admin');
  const out: AppRoute[] = [];
  for (const route of routes) {
    if (!isAdmin && !hasRoutePermission(keys, route)) continue;
    if (sysType && route.meta?.notForSysTypes?.includes(sysType)) continue;
    if (route.children) {
      const children = filterRoutes(route.children, keys, sysType);
      if (children.length === 0 && !route.component) continue;
      out.push({ ...route, children });
    } else {
      out.push(route);
    }
  }
  return out;
}

/** Every page of a tree with its absolute path. */
export function flattenRoutes(routes: readonly AppRoute[], base = '', parents: FlatRoute['parents'] = []): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const route of routes) {
    const fullPath = joinPath(base, route.path);
    if (route.component) out.push({ fullPath, route, parents });
    if (route.children) out.push(...flattenRoutes(route.children, fullPath, [...parents, { fullPath, route }]));
  }
  return out;
}

/** Matches a concrete pathname against a route pattern with :params and a trailing *. */
export function matchPattern(pattern: string, pathname: string): boolean {
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  const a = norm(pattern).split('/');
  const b = norm(pathname).split('/');
  for (let i = 0; i < a.length; i++) {
    const seg = a[i]!;
    if (seg === '*') return true;
    if (i >= b.length) return seg.endsWith('?');
    if (seg.startsWith(':')) {
      if (!b[i]) return false;
      continue;
    }
    if (seg.toLowerCase() !== b[i]!.toLowerCase()) return false;
  }
  return a.length === b.length;
}

export function findFlat(flat: readonly FlatRoute[], pathname: string): FlatRoute | undefined {
  return flat.find((f) => f.fullPath === pathname) ?? flat.find((f) => matchPattern(f.fullPath, pathname));
}

/** First page a menu group leads to (its redirect, else its first visible page). */
export function firstPagePath(route: AppRoute, base = ''): string | undefined {
  const fullPath = joinPath(base, route.path);
  if (route.redirect) return route.redirect;
  if (route.component && !route.children?.length) return fullPath;
  for (const child of route.children ?? []) {
    if (child.hidden) continue;
    const p = firstPagePath(child, fullPath);
    if (p) return p;
  }
  return route.component ? fullPath : undefined;
}

/** Top menu entries: the visible top routes. */
export function topMenuRoutes(routes: readonly AppRoute[]): AppRoute[] {
  return routes.filter((r) => !r.hidden && firstPagePath(r) !== undefined);
}

/**
 * The top route a page belongs to; activeMenu (docs/product.md#route-meta) redirects the highlight of hidden
 * detail pages to their list page.
 */
export function activeMenuPath(flat: FlatRoute | undefined): string | undefined {
  if (!flat) return undefined;
  return flat.route.meta?.activeMenu ?? flat.fullPath;
}

export function topOf(routes: readonly AppRoute[], path: string): AppRoute | undefined {
  return routes.find((r) => path === r.path || path.startsWith(`${r.path.replace(/\/+$/, '')}/`));
}

/** Pages whose tab is fixed (affix). */
export function affixRoutes(flat: readonly FlatRoute[]): FlatRoute[] {
  return flat.filter((f) => f.route.meta?.affix && !f.fullPath.includes(':'));
}

/** Breadcrumb trail (docs/product.md#shell-breadcrumbs), rooted at /dashboard. */
export function breadcrumbTrail(flat: FlatRoute | undefined): { path: string; title: string; link: boolean }[] {
  const home = { path: '/dashboard', title: 'route.dashboard', link: true };
  if (!flat) return [home];
  if (flat.fullPath === '/dashboard') return [{ ...home, link: false }];
  const chain = [...flat.parents, { fullPath: flat.fullPath, route: flat.route }]
    .filter((c) => c.route.meta?.title && c.route.meta.breadcrumb !== false)
    .map((c, i, arr) => ({
      path: c.route.redirect ?? c.fullPath,
      title: c.route.meta!.title!,
      link: i < arr.length - 1 && !!c.route.redirect,
    }));
  return [home, ...chain];
}

/** Route-search entries: menu-visible pages with their title trail. */
export function searchEntries(
  routes: readonly AppRoute[],
  translate: (key: string) => string,
  base = '',
  prefix: string[] = [],
): { path: string; title: string }[] {
  const out: { path: string; title: string }[] = [];
  for (const route of routes) {
    if (route.hidden) continue;
    const fullPath = joinPath(base, route.path);
    const title = route.meta?.title ? [...prefix, translate(route.meta.title)] : prefix;
    if (route.component && route.meta?.title && !fullPath.includes(':')) out.push({ path: fullPath, title: title.join(' > ') });
    if (route.children) out.push(...searchEntries(route.children, translate, fullPath, title));
  }
  return out;
}
