import { Activity, Component, lazy, Suspense, useEffect, useState, type ErrorInfo, type ReactElement, type ReactNode } from 'react';
import { Spin } from 'antd';
import { useLocation, useOutlet } from 'react-router';
import { logError } from '../stores/errorLog';
import { useTags } from '../stores/tags';
import { FirstScreenDone } from './firstScreen';
import { useCurrentRoute } from './useCurrentRoute';

// antd's Result carries its illustrations: loaded only when a page fails
const Result = lazy(() => import('antd/es/result'));

class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    logError(error, 'render', info.componentStack ?? '');
  }
  override render() {
    if (this.state.error) {
      return (
        <Suspense fallback={<p>{this.state.error.message}</p>}>
          <FirstScreenDone />
          <Result status="error" title="Error" subTitle={this.state.error.message} />
        </Suspense>
      );
    }
    return this.props.children;
  }
}

/** The page area while its page loads. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <Spin />
    </div>
  );
}
const pageFallback = <PageLoading />;

/**
 * At most this many pages stay mounted behind their tabs: past it the one shown longest ago is let
 * go, and mounts anew (its filters kept in its address) when its tab is clicked again. A day's work
 * opens dozens of pages, each mounted one holding its rows and queries.
 */
export const MAX_KEPT_PAGES = 10;

/**
 * The page area. Pages whose tab is open and whose meta says keepAlive (and not noCache) stay
 * mounted but hidden (<Activity>) when another tab is shown, the MAX_KEPT_PAGES shown last; refresh
 * drops them (docs/product.md#visited-tabs).
 */
export default function AppMain() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const { flat } = useCurrentRoute();
  const visited = useTags((s) => s.visitedViews);
  const evicted = useTags((s) => s.evicted);
  const [cache, setCache] = useState<Record<string, ReactElement>>({});
  // when each page was last shown: the least recent goes first past MAX_KEPT_PAGES
  const [shownAt, setShownAt] = useState<Record<string, number>>({});

  const meta = flat?.route.meta;
  const cacheable = !!meta?.keepAlive && !meta.noCache && !pathname.startsWith('/redirect/');
  const keepPaths = new Set(visited.filter((v) => v.cache).map((v) => v.path));

  // drop pages whose tab closed, that are being refreshed, or shown least recently past the limit; remember the current one
  const kept = Object.keys(cache).filter((k) => k !== pathname && keepPaths.has(k) && !evicted.includes(k));
  const over = kept.length + 1 - MAX_KEPT_PAGES;
  const leastRecent = over > 0 ? kept.sort((a, b) => (shownAt[a] ?? 0) - (shownAt[b] ?? 0)).slice(0, over) : [];
  const stale = Object.keys(cache).filter((k) => k !== pathname && (!keepPaths.has(k) || evicted.includes(k) || leastRecent.includes(k)));
  const missing = cacheable && outlet && !cache[pathname];
  if (stale.length > 0 || missing) {
    const next = { ...cache };
    for (const k of stale) delete next[k];
    if (missing) next[pathname] = outlet;
    setCache(next);
  }

  useEffect(() => {
    useTags.getState().unevict(pathname);
    setShownAt((at) => ({ ...at, [pathname]: Date.now() }));
  }, [pathname]);

  const keys = Object.keys(cache).filter((k) => !stale.includes(k));
  if (!keys.includes(pathname)) keys.push(pathname);

  return (
    <div className="app-main-inner" data-testid="app-main">
      {keys.map((k) => (
        <Activity key={k} mode={k === pathname ? 'visible' : 'hidden'}>
          <PageErrorBoundary>
            <Suspense fallback={pageFallback}>
              {k === pathname && <FirstScreenDone />}
              {k === pathname ? outlet : cache[k]}
            </Suspense>
          </PageErrorBoundary>
        </Activity>
      ))}
    </div>
  );
}
