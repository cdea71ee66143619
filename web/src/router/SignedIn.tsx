/**
 * Everything past the sign-in guard, in a chunk of its own: the route tree of every feature area
 * (with its icons and titles), the data-fetching client, the shell layout (not lazy: nearly every
 * signed-in page is inside it) and the session checks.
 * The sign-in page never downloads it; Root starts fetching it while the user info loads.
 */
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BACKLOG_COUNT_KEY, BACKLOG_PENDING_KEY } from '../api/backlog';
import { FEE_DASHBOARD_KEY } from '../api/feeDashboard';
import FullSpin from '../components/FullSpin';
import { communityRoutes, leaderRoutes, routeAliases, routesFor } from '../routes';
import { useDialogs } from '../stores/dialogs';
import { expiryAction, daysLeftOf, useSystem } from '../stores/system';
import { useUser } from '../stores/user';
import { readText, writeText } from '../stores/storage';
import { takeFirstScreenData } from '../shell/firstScreen';
import { AREA_CARD_METHODS } from '@wuye/contract/home';
import Layout from '../shell/Layout';
import { prefetchDictLabels } from '../pages/setup/dictLabels';
import { RoutesContext, type RoutesInfo } from './context';
import DialogHostGate from './DialogHostGate';
import { ChangePasswordModal } from '../shell/dialogs/ChangePasswordDialog';
import { aliasTarget, filterRoutes, findFlat, flattenRoutes, groupAliases, type RouteAlias } from './helpers';
import { loadSystemInfo } from './session';

const RegionListPage = lazy(() => import('../pages/region/RegionListPage'));
const AuthRedirect = lazy(() => import('../pages/login/AuthRedirect'));
const Page401 = lazy(() => import('../pages/error/Page401'));
const Page404 = lazy(() => import('../pages/error/Page404'));
const Redirect = lazy(() => import('../pages/redirect/Redirect'));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
seedFirstScreenFigures();
prefetchDictLabels(queryClient);

// what one session fetched is never shown to the next: signing out and in again as another user,
// in another community, happens in the same page
useUser.subscribe((state, prev) => {
  if (state.token !== prev.token) queryClient.clear();
});

/** The home page's cards start from the figures the server's first screen drew (shell/firstScreen.ts). */
function seedFirstScreenFigures() {
  const seeded = takeFirstScreenData();
  if (seeded.feedashboard) queryClient.setQueryData(FEE_DASHBOARD_KEY, seeded.feedashboard);
  // the areas' cards cache each answer under its method's name
  for (const method of AREA_CARD_METHODS) if (seeded[method]) queryClient.setQueryData([method], seeded[method]);
  if (seeded.backlog !== undefined) queryClient.setQueryData(BACKLOG_COUNT_KEY, seeded.backlog);
  if (seeded.backlogPending) queryClient.setQueryData(BACKLOG_PENDING_KEY, seeded.backlogPending);
}

/** Expiry check and weak-password prompt once the session is known (docs/product.md#community-expiry, #weak-password). */
function SessionEffects() {
  const roles = useUser((s) => s.roles);
  const sysUser = useUser((s) => s.sysUser);
  const info = useSystem((s) => s.info);
  // the system info kept in the session draws the shell at once; it is asked again once a page
  // load, so what changed since (the community's logo, floor plan, copyright) shows after F5 too
  useEffect(() => {
    void loadSystemInfo(true);
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
    // a password an administrator set is changed at once instead (AppRoutes)
    if (sysUser?.password_status === 'N' && sysUser.password_reset !== 'Y' && readText('session', 'weakPasswordPrompted') !== '1') {
      writeText('session', 'weakPasswordPrompted', '1');
      useDialogs.getState().setWeakPasswordOpen(true);
    }
  }, [sysUser]);
  return null;
}

/** Every page of both sides: a page of the other side is one the user may not open (401), not a missing one. */
const everyPage = flattenRoutes([...communityRoutes, ...leaderRoutes]);
const everyGroup = groupAliases([...communityRoutes, ...leaderRoutes]).map((a) => a.from);

/** Unknown paths go to /404, known but forbidden ones to /401 (docs/product.md#navigation-guard). */
function Fallback() {
  const { pathname } = useLocation();
  const known = !!findFlat(everyPage, pathname) || everyGroup.some((g) => g.toLowerCase() === pathname.toLowerCase());
  return <Navigate to={known ? '/401' : '/404'} replace />;
}

/** An alias's address leads to its page, with the visitor's query kept. */
function AliasRedirect({ alias }: { alias: RouteAlias }) {
  const params = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={aliasTarget(alias.to, params, search, hash)} replace />;
}

function AppRoutes() {
  const passwordReset = useUser((s) => s.sysUser?.password_reset === 'Y');
  const passwordExpired = useUser((s) => s.sysUser?.password_expired === 'Y');
  // a password an administrator set, or one past the security policy's days, is changed before
  // anything else opens (docs/product.md#team, #setup-settings)
  return passwordReset || passwordExpired ? <ChangePasswordModal required /> : <PermittedRoutes />;
}

function PermittedRoutes() {
  const side = useUser((s) => s.side);
  const roles = useUser((s) => s.roles);
  const permissions = useUser((s) => s.permissions);
  const sysType = useUser((s) => s.sysUser?.sys_type);
  const modulesOff = useUser((s) => s.modulesOff);
  const info = useMemo<RoutesInfo>(() => {
    const all = routesFor(side);
    const permitted = filterRoutes(all, [...roles, ...permissions], sysType, modulesOff);
    return { permitted, flat: flattenRoutes(permitted), flatAll: flattenRoutes(all) };
  }, [side, roles, permissions, sysType, modulesOff]);
  const aliases = useMemo(() => [...routeAliases, ...groupAliases(info.permitted)], [info.permitted]);
  return (
    <RoutesContext.Provider value={info}>
      <Suspense fallback={<FullSpin />}>
        <Routes>
          <Route path="/" element={<Navigate to="/dashboard" replace />} />
          <Route path="/auth-redirect" element={<AuthRedirect />} />
          <Route path="/regionlist" element={<RegionListPage />} />
          <Route path="/401" element={<Page401 />} />
          <Route path="/404" element={<Page404 />} />
          <Route element={<Layout />}>
            {info.flat.map((f) => {
              const Page = f.route.component!;
              return <Route key={f.fullPath} path={f.fullPath} element={<Page />} />;
            })}
            <Route path="/redirect/*" element={<Redirect />} />
          </Route>
          {aliases.map((a) => (
            <Route key={`alias:${a.from}`} path={a.from} element={<AliasRedirect alias={a} />} />
          ))}
          <Route path="*" element={<Fallback />} />
        </Routes>
      </Suspense>
      <SessionEffects />
      <DialogHostGate />
    </RoutesContext.Provider>
  );
}

export default function SignedIn() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  );
}
