import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { MSG } from '@wuye/contract/messages';
import { call, ApiError } from '../api/client';
import { toastError } from '../api/feedback';
import FullSpin from '../components/FullSpin';
import { routesFor } from '../routes';
import { anyHostDialogOpen, useDialogs } from '../stores/dialogs';
import { expiryAction, daysLeftOf, useSystem } from '../stores/system';
import { useUser } from '../stores/user';
import { readText, writeText } from '../stores/storage';
import { loginUrl, safeRedirect } from '../utils/auth';
import { RoutesContext, type RoutesInfo } from './context';
import { filterRoutes, findFlat, flattenRoutes } from './helpers';

const Login = lazy(() => import('../pages/login/Login'));
const AuthRedirect = lazy(() => import('../pages/login/AuthRedirect'));
const Layout = lazy(() => import('../shell/Layout'));
const RegionListPage = lazy(() => import('../pages/region/RegionListPage'));
const Spectaculars = lazy(() => import('../pages/spectaculars/Spectaculars'));
const Page401 = lazy(() => import('../pages/error/Page401'));
const Page404 = lazy(() => import('../pages/error/Page404'));
const Redirect = lazy(() => import('../pages/redirect/Redirect'));
const DialogHost = lazy(() => import('../shell/dialogs/DialogHost'));

/** spec 2.1: without a token only these are open */
export const WHITE_LIST = ['/login', '/auth-redirect'];

let userLoad: Promise<void> | null = null;
/** one userinfo call at a time (StrictMode runs effects twice in development) */
function loadUserOnce(): Promise<void> {
  userLoad ??= useUser
    .getState()
    .loadUser()
    .finally(() => {
      userLoad = null;
    });
  return userLoad;
}

let systemLoad: Promise<void> | null = null;
/** loads the system info when empty; failures are swallowed (spec 8) */
export function loadSystemInfo(force = false): Promise<void> {
  if (!force && useSystem.getState().info) return Promise.resolve();
  systemLoad ??= call('get_system_info')
    .then((data) => useSystem.getState().setInfo(data.items))
    .catch(() => undefined)
    .finally(() => {
      systemLoad = null;
    });
  return systemLoad;
}

/** Roles not yet loaded: fetch user info; on failure clear the token and go to login (spec 2.1). */
function UserLoader() {
  useEffect(() => {
    loadUserOnce().then(
      () => void loadSystemInfo(),
      (err: unknown) => {
        // a call cut off by leaving the page says nothing about the token
        if (err instanceof ApiError && err.code === 'ABORTED') return;
        const shown = err instanceof ApiError && err.shown;
        useUser.getState().resetToken();
        if (!shown) toastError((err instanceof Error && err.message) || MSG.hasError);
      },
    );
  }, []);
  return <FullSpin />;
}

/** Expiry check and weak-password prompt once the session is known (spec 4). */
function SessionEffects() {
  const roles = useUser((s) => s.roles);
  const sysUser = useUser((s) => s.sysUser);
  const info = useSystem((s) => s.info);
  useEffect(() => {
    void loadSystemInfo();
  }, []);
  useEffect(() => {
    // the check runs for non-admin roles other than leader_admin
    if (!info || roles.includes('admin') || roles.includes('leader_admin')) return;
    const action = expiryAction(daysLeftOf(info));
    if (action === 'force') useDialogs.getState().openRenewal(true);
    else if (action === 'remind' && readText('session', 'expiryReminded') !== '1') {
      writeText('session', 'expiryReminded', '1');
      useDialogs.getState().setExpiryOpen(true);
    }
  }, [info, roles]);
  useEffect(() => {
    if (sysUser?.password_status === 'N' && readText('session', 'weakPasswordPrompted') !== '1') {
      writeText('session', 'weakPasswordPrompted', '1');
      useDialogs.getState().setWeakPasswordOpen(true);
    }
  }, [sysUser]);
  return null;
}

/** Loads the dialog chunk the first time a shell dialog opens. */
function DialogHostGate() {
  const anyOpen = useDialogs(anyHostDialogOpen);
  const [wanted, setWanted] = useState(false);
  if (anyOpen && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <DialogHost />
    </Suspense>
  ) : null;
}

/** Unknown paths go to /404, known but forbidden ones to /401 (spec 2.1). */
function Fallback({ info }: { info: RoutesInfo }) {
  const { pathname } = useLocation();
  return <Navigate to={findFlat(info.flatAll, pathname) ? '/401' : '/404'} replace />;
}

function AppRoutes() {
  const side = useUser((s) => s.side);
  const roles = useUser((s) => s.roles);
  const permissions = useUser((s) => s.permissions);
  const sysType = useUser((s) => s.sysUser?.sys_type);
  const info = useMemo<RoutesInfo>(() => {
    const all = routesFor(side);
    const permitted = filterRoutes(all, [...roles, ...permissions], sysType);
    return { permitted, flat: flattenRoutes(permitted), flatAll: flattenRoutes(all) };
  }, [side, roles, permissions, sysType]);
  return (
    <RoutesContext.Provider value={info}>
      <Suspense fallback={<FullSpin />}>
        <Routes>
          <Route path="/" element={<Navigate to="/dashboard" replace />} />
          <Route path="/auth-redirect" element={<AuthRedirect />} />
          <Route path="/regionlist" element={<RegionListPage />} />
          <Route path="/401" element={<Page401 />} />
          <Route path="/404" element={<Page404 />} />
          <Route path="/spectaculars" element={<Spectaculars />} />
          <Route element={<Layout />}>
            {info.flat.map((f) => {
              const Page = f.route.component!;
              return <Route key={f.fullPath} path={f.fullPath} element={<Page />} />;
            })}
            <Route path="/redirect/*" element={<Redirect />} />
          </Route>
          <Route path="*" element={<Fallback info={info} />} />
        </Routes>
      </Suspense>
      <SessionEffects />
      <DialogHostGate />
    </RoutesContext.Provider>
  );
}

/** The navigation guard of spec 2.1. */
export default function Root() {
  const location = useLocation();
  const token = useUser((s) => s.token);
  const rolesLoaded = useUser((s) => s.roles.length > 0);
  const fullPath = location.pathname + location.search;

  if (!token) {
    if (!WHITE_LIST.includes(location.pathname)) return <Navigate to={loginUrl(fullPath)} replace />;
    return (
      <Suspense fallback={<FullSpin />}>
        <Routes>
          <Route path="/login" element={<Login />} />
          <Route path="/auth-redirect" element={<AuthRedirect />} />
        </Routes>
        <DialogHostGate />
      </Suspense>
    );
  }
  // with a token /login goes to / (or to the page the sign-in was asked for)
  if (location.pathname === '/login') {
    return <Navigate to={safeRedirect(new URLSearchParams(location.search).get('redirect'))} replace />;
  }
  if (!rolesLoaded) return <UserLoader />;
  return <AppRoutes />;
}
