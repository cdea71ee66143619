import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { MSG } from '@wuye/contract/messages';
import { ApiError } from '../api/client';
import { toastError } from '../api/feedback';
import FullSpin from '../components/FullSpin';
import { useUser } from '../stores/user';
import { loginUrl, safeRedirect } from '../utils/auth';
import Login from '../pages/login/Login';
import { FirstScreenDone } from '../shell/firstScreen';
import DialogHostGate from './DialogHostGate';
import { loadSystemInfo, takeUserLoad } from './session';

// The sign-in page is in the entry chunk, not lazy: it is the first page of every session, and a
// lazy chunk would be one more round trip before it shows. Its form, input and button code is
// what nearly every page after it needs too.

const AuthRedirect = lazy(() => import('../pages/login/AuthRedirect'));
/** the board window: a read-only board session of its own, whatever the console's session (BoardRoot) */
const BoardRoot = lazy(() => import('../pages/spectaculars/BoardRoot'));
/** 扫码充电: the owner's phone at a pile, with a charge session of its own (an SMS code), never the console's */
const ChargePhone = lazy(() => import('../pages/charging/PhonePage'));
/** the signed-in console: route tree, layout, pages (a chunk of its own, see SignedIn.tsx) */
const loadSignedIn = () => import('./SignedIn');
const SignedIn = lazy(loadSignedIn);

/**
 * Starts downloading the signed-in console and, when that is where we are going, the home page
 * (the route's import() then gets the same module).
 */
export function preloadSignedIn(): void {
  void loadSignedIn();
  if (['/', '/dashboard'].includes(window.location.pathname)) {
    void import('../pages/dashboard/Dashboard');
  }
}

/** docs/product.md#navigation-guard: without a token only these are open */
export const WHITE_LIST = ['/login', '/auth-redirect'];
/** pages that live outside the console's session: the board window and the owner's charging phone have sessions of their own */
export const STANDALONE = ['/spectaculars', '/h5/charge'];

/** Roles not yet loaded: fetch user info; on failure clear the token and go to login (docs/product.md#navigation-guard). */
function UserLoader() {
  useEffect(() => {
    // the console's code downloads while the user info loads (main.tsx has usually started both)
    preloadSignedIn();
    takeUserLoad().then(
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

/** The navigation guard (docs/product.md#navigation-guard). */
export default function Root() {
  const location = useLocation();
  const token = useUser((s) => s.token);
  const rolesLoaded = useUser((s) => s.roles.length > 0);
  const fullPath = location.pathname + location.search;

  if (STANDALONE.includes(location.pathname)) {
    return (
      <Suspense fallback={<FullSpin />}>
        <FirstScreenDone />
        {location.pathname === '/h5/charge' ? <ChargePhone /> : <BoardRoot />}
      </Suspense>
    );
  }
  if (!token) {
    if (!WHITE_LIST.includes(location.pathname)) return <Navigate to={loginUrl(fullPath)} replace />;
    return (
      <Suspense fallback={<FullSpin />}>
        <FirstScreenDone />
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
  return (
    <Suspense fallback={<FullSpin />}>
      <SignedIn />
    </Suspense>
  );
}
