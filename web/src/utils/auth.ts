import Cookies from 'js-cookie';
import { COOKIES } from '@wuye/contract/home';

/** Cookie names of the session (docs/product.md#session-states: the token lives in a cookie). */
export const TOKEN_KEY = COOKIES.token;
export const SIDE_KEY = 'Admin-Side';

export type Side = 'community' | 'group';

/** Cookie attributes of the session: Secure whenever the console is served over HTTPS. */
export function sessionCookieAttributes(protocol: string = typeof window === 'undefined' ? 'http:' : window.location.protocol) {
  return { sameSite: 'Lax' as const, secure: protocol === 'https:' };
}

export function getToken(): string {
  return Cookies.get(TOKEN_KEY) ?? '';
}
export function setToken(token: string): void {
  Cookies.set(TOKEN_KEY, token, sessionCookieAttributes());
}
export function removeToken(): void {
  Cookies.remove(TOKEN_KEY);
}

export function getSide(): Side {
  return Cookies.get(SIDE_KEY) === 'group' ? 'group' : 'community';
}
export function setSide(side: Side): void {
  Cookies.set(SIDE_KEY, side, sessionCookieAttributes());
}
export function removeSide(): void {
  Cookies.remove(SIDE_KEY);
}

/** The endpoint of the signed-in side: the group side talks to /webapi_leader. */
export function endpointFor(side: Side): string {
  return side === 'group' ? '/webapi_leader' : '/webapi';
}

/** /login?redirect=<full path with query> (docs/product.md#navigation-guard, #public-routes). */
export function loginUrl(fullPath?: string): string {
  if (!fullPath || fullPath === '/' || fullPath.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/** Only same-site paths are followed after sign-in. */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/login')) return '/';
  return raw;
}
