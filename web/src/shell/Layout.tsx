import { lazy, Suspense, useEffect, useState, type CSSProperties } from 'react';
import { Drawer } from 'antd';
import { LIMITS } from '@wuye/contract/codes';
import { useRoutesInfo } from '../router/context';
import { affixRoutes } from '../router/helpers';
import { MOBILE_MEDIA_QUERY, useAppStore } from '../stores/app';
import { useSettings } from '../stores/settings';
import { useSystem } from '../stores/system';
import { useTags } from '../stores/tags';
import { useTranslation } from 'react-i18next';
import AppMain, { PageLoading } from './AppMain';
import Breadcrumbs from './Breadcrumbs';
import Navbar from './Navbar';
import Sidebar from './Sidebar';
import TagsView from './TagsView';
import { useCurrentRoute } from './useCurrentRoute';
import { useDocumentTitle } from './useDocumentTitle';
import './layout.css';
import { useDictLabels } from '../pages/setup/dictLabels';

const SettingsDrawer = lazy(() => import('./SettingsDrawer'));

/** The settings drawer's chunk loads the first time it opens, then it stays mounted. */
function SettingsDrawerGate() {
  const open = useSettings((s) => s.drawerOpen);
  const [wanted, setWanted] = useState(false);
  if (open && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <SettingsDrawer />
    </Suspense>
  ) : null;
}

/** The footer until the system info gives the community's copyright (docs/product.md#shell-breadcrumbs). */
export const DEFAULT_COPYRIGHT = '版权所有 © 物业管理平台';

/** Desktop or mobile by the 992 px breakpoint (docs/product.md#constants). */
function useDeviceWatch() {
  const setDevice = useAppStore((s) => s.setDevice);
  useEffect(() => {
    const query = window.matchMedia(MOBILE_MEDIA_QUERY);
    const apply = () => {
      const device = query.matches ? 'mobile' : 'desktop';
      // setDevice also closes the mobile drawer: only on a change
      if (useAppStore.getState().device !== device) setDevice(device);
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [setDevice]);
}

/** Adds the current page to the tab strip; affix tabs first (docs/product.md#visited-tabs). */
function useTagTracking() {
  const { flat } = useRoutesInfo();
  const current = useCurrentRoute();
  useEffect(() => {
    useTags.getState().initAffix(
      affixRoutes(flat).map((f) => ({
        path: f.fullPath,
        fullPath: f.fullPath,
        title: f.route.meta?.title ?? f.fullPath,
        affix: true,
        cache: !!f.route.meta?.keepAlive && !f.route.meta.noCache,
      })),
    );
  }, [flat]);
  const f = current.flat;
  const { pathname, fullPath } = current;
  useEffect(() => {
    if (!f?.route.meta?.title || pathname.startsWith('/redirect/')) return;
    useTags.getState().addView({
      path: pathname,
      fullPath,
      title: f.route.meta.title,
      affix: f.route.meta.affix && f.fullPath === pathname,
      cache: !!f.route.meta.keepAlive && !f.route.meta.noCache,
    });
  }, [f, pathname, fullPath]);
}

/** The browser tab names the page it shows (the route's title). */
function usePageTitle() {
  const { t } = useTranslation();
  const { flat } = useCurrentRoute();
  const title = flat?.route.meta?.title;
  useDocumentTitle(title ? t(title) : undefined);
}

export default function Layout() {
  useDeviceWatch();
  useTagTracking();
  usePageTitle();
  const device = useAppStore((s) => s.device);
  const opened = useAppStore((s) => s.sidebarOpened);
  const withoutAnimation = useAppStore((s) => s.withoutAnimation);
  const mobileOpen = useAppStore((s) => s.mobileSidebarOpen);
  const setMobileOpen = useAppStore((s) => s.setMobileSidebarOpen);
  const tagsView = useSettings((s) => s.tagsView);
  const fixedHeader = useSettings((s) => s.fixedHeader);
  const theme = useSettings((s) => s.theme);
  const copyright = useSystem((s) => s.info?.copyright);
  // the dictionary's renamed labels: the page area waits for them, and redraws when they change
  const dictLabels = useDictLabels();
  const { pathname } = useCurrentRoute();
  const mobile = device === 'mobile';
  // the phone's sidebar drawer is built the first time it opens, then stays (closing animates)
  const [mobileDrawerUsed, setMobileDrawerUsed] = useState(false);
  if (mobile && mobileOpen && !mobileDrawerUsed) setMobileDrawerUsed(true);

  // the mobile sidebar drawer closes on navigation
  useEffect(() => {
    useAppStore.getState().setMobileSidebarOpen(false);
  }, [pathname]);

  const classes = [
    'app-wrapper',
    mobile ? 'mobile' : 'desktop',
    !mobile && !opened ? 'hide-sidebar' : 'open-sidebar',
    withoutAnimation ? 'without-animation' : '',
    fixedHeader ? 'has-fixed-header' : '',
  ].join(' ');

  return (
    <div
      className={classes}
      style={{ '--theme': theme, '--sidebar-width': `${LIMITS.sidebarWidthPx}px` } as CSSProperties}
      data-testid="layout"
      data-device={device}
    >
      {!mobile && (
        <aside className="sidebar-container">
          <Sidebar />
        </aside>
      )}
      {mobile && (mobileOpen || mobileDrawerUsed) && (
        <Drawer
          open={mobileOpen}
          placement="left"
          size={LIMITS.sidebarWidthPx}
          closable={false}
          onClose={() => setMobileOpen(false)}
          styles={{ body: { padding: 0, background: '#304156' } }}
          rootClassName="sidebar-drawer"
        >
          <Sidebar mobile />
        </Drawer>
      )}
      <div className="main-container">
        <header className={fixedHeader ? 'fixed-header' : 'static-header'}>
          <Navbar />
          {tagsView && <TagsView />}
        </header>
        <main className="app-main">
          <Breadcrumbs />
          {dictLabels.ready ? <AppMain key={dictLabels.version} /> : <PageLoading />}
        </main>
        <footer className="app-footer" data-testid="footer">
          {copyright || DEFAULT_COPYRIGHT}
        </footer>
      </div>
      <SettingsDrawerGate />
    </div>
  );
}
