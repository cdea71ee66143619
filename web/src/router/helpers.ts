import type { CommunityModule } from '@wuye/contract/leader/modules';
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
 * meta.roles, children filtered the same way; a group left without pages is dropped. Pages of a module closed in the
 * community are left out for everyone (docs/product.md#community-modules).
 */
export function filterRoutes(
  routes: readonly AppRoute[],
  keys: readonly string[],
  sysType?: string,
  modulesOff: readonly string[] = [],
): AppRoute[] {
  const isAdmin = keys.includes('admin');
  const out: AppRoute[] = [];
  for (const route of routes) {
    if (!isAdmin && !hasRoutePermission(keys, route)) continue;
    if (sysType && route.meta?.notForSysTypes?.includes(sysType)) continue;
    if (route.meta?.module && modulesOff.includes(route.meta.module)) continue;
    if (route.children) {
      const children = filterRoutes(route.children, keys, sysType, modulesOff);
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

/** Whether a page of the group (as the user's routes have it) is at this address. */
function holds(route: AppRoute, base: string, path: string): boolean {
  const fullPath = joinPath(base, route.path);
  if (fullPath === path && route.component) return true;
  return (route.children ?? []).some((c) => holds(c, fullPath, path));
}

/**
 * First page a menu group leads to: its redirect when the group (filtered to the user's pages)
 * holds it, else its first visible page: a steward's 收费报表 opens 报修统计, not a report it may not read.
 */
export function firstPagePath(route: AppRoute, base = ''): string | undefined {
  const fullPath = joinPath(base, route.path);
  if (route.redirect && (!route.children?.length || holds(route, base, route.redirect))) return route.redirect;
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

/**
 * The top route a path belongs to: by its prefix ('/fees/payment' under '/fees'), or as one of its
 * pages when the pages keep the product's own addresses at the root ('/roomlist' under the
 * structure area's group).
 */
export function topOf(routes: readonly AppRoute[], path: string): AppRoute | undefined {
  return (
    routes.find((r) => path === r.path || path.startsWith(`${r.path.replace(/\/+$/, '')}/`)) ??
    routes.find((r) => !!r.children && !!findFlat(flattenRoutes([r]), path))
  );
}

/** An address kept for an old link or a group of pages: `from` (a pattern) leads to `to`. */
export interface RouteAlias {
  /** a pattern with :params and a trailing * ('/basis/editroom/:id', '/basis/*') */
  from: string;
  /** where it leads; :params and * are filled from `from`, the query may be given ('/editroom?id=:id') */
  to: string;
}

/**
 * The address an alias leads to: its params and splat filled in, the visitor's own query kept
 * (after the alias's) and the hash too.
 */
export function aliasTarget(to: string, params: Readonly<Record<string, string | undefined>>, search = '', hash = ''): string {
  const filled = to.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? '')).replace('*', params['*'] ?? '');
  const [path, query = ''] = filled.split('?') as [string, string?];
  const merged = new URLSearchParams(query);
  for (const [k, v] of new URLSearchParams(search)) if (!merged.has(k)) merged.append(k, v);
  const q = merged.toString();
  return `${path.replace(/\/{2,}/g, '/') || '/'}${q ? `?${q}` : ''}${hash}`;
}

/**
 * Every menu group's own address leads to the group's first page the user may open ('/fees' to
 * '/fees/feebilllist', '/updatelog' to '/updatelog/updatelog'): its redirect when permitted, else
 * its first visible page.
 */
export function groupAliases(permitted: readonly AppRoute[], base = ''): RouteAlias[] {
  const out: RouteAlias[] = [];
  const pages = flattenRoutes(permitted);
  for (const route of permitted) {
    const fullPath = joinPath(base, route.path);
    if (route.children && !route.component) {
      const wanted = route.redirect && pages.some((p) => p.fullPath === route.redirect) ? route.redirect : undefined;
      const to = wanted ?? firstPagePath({ ...route, redirect: undefined }, base);
      if (to && to !== fullPath) out.push({ from: fullPath, to });
      out.push(...groupAliases(route.children, fullPath));
    }
  }
  return out;
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

/** Route-search entries: menu-visible pages (and hidden ones marked `search`) with their title trail. */
export function searchEntries(
  routes: readonly AppRoute[],
  translate: (key: string) => string,
  base = '',
  prefix: string[] = [],
): { path: string; title: string }[] {
  const out: { path: string; title: string }[] = [];
  for (const route of routes) {
    // a hidden page is found only when its meta says so (it opens without a record)
    if (route.hidden && !route.meta?.search) continue;
    const fullPath = joinPath(base, route.path);
    const title = route.meta?.title ? [...prefix, translate(route.meta.title)] : prefix;
    if (route.component && route.meta?.title && !fullPath.includes(':')) out.push({ path: fullPath, title: title.join(' > ') });
    if (route.children) out.push(...searchEntries(route.children, translate, fullPath, title));
  }
  return out;
}

/** A tree's top routes as pages of one community module (docs/product.md#community-modules). */
export function inModule(module: CommunityModule, routes: readonly AppRoute[]): AppRoute[] {
  return routes.map((r) => ({ ...r, meta: { ...r.meta, module } }));
}
