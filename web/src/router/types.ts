import type { ComponentType } from 'react';
import type { CommunityModule } from '@wuye/contract/leader/modules';

/** Route meta (docs/product.md#route-meta). */
export interface RouteMeta {
  /** i18n key (e.g. 'route.dashboard') or a literal title */
  title?: string;
  icon?: ComponentType;
  /** at least one of these roles (or permission flags) is needed; none = open */
  roles?: readonly string[];
  /** never kept alive, even when keepAlive is set */
  noCache?: boolean;
  /** fixed tab that never closes */
  affix?: boolean;
  /** keeps the page mounted while its tab is open */
  keepAlive?: boolean;
  /** the menu entry to highlight instead of this route (detail/edit pages) */
  activeMenu?: string;
  /** shows a back button on the page header */
  isBack?: boolean;
  /** left out of breadcrumbs */
  breadcrumb?: boolean;
  /** a hidden page the header's route search still finds (one that opens without a record) */
  search?: boolean;
  /** account types (sys_type) that never get this page, e.g. merchant (docs/product.md#merchant-restrictions) */
  notForSysTypes?: readonly string[];
  /** the community module the page belongs to: not there where it is closed (docs/product.md#community-modules) */
  module?: CommunityModule;
}

/** A route's page: code-split pages are lazyPage (router/lazyPage.tsx), which the menus can preload, not React.lazy. */
export type PageComponent = ComponentType;

/** One entry of the route tree: a page (component) or a menu group (children). */
export interface AppRoute {
  /** absolute at the top ('/setup'), relative below ('backlog') or absolute */
  path: string;
  component?: PageComponent;
  /** where the group itself leads (default: its first visible child) */
  redirect?: string;
  /** left out of the menu (still routable) */
  hidden?: boolean;
  meta?: RouteMeta;
  children?: AppRoute[];
}

/** A page with its absolute path and the chain of routes above it. */
export interface FlatRoute {
  fullPath: string;
  route: AppRoute;
  /** ancestors from the top route down to (not including) this route */
  parents: { fullPath: string; route: AppRoute }[];
}
