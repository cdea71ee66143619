import { describe, expect, it } from 'vitest';
import { safeRedirect, sessionCookieAttributes } from './auth';

describe('the session cookie', () => {
  it('is Secure when the console is served over HTTPS (issue 33), SameSite=Lax always', () => {
    expect(sessionCookieAttributes('https:')).toEqual({ sameSite: 'Lax', secure: true });
    expect(sessionCookieAttributes('http:')).toEqual({ sameSite: 'Lax', secure: false });
  });
});

describe('the sign-in redirect', () => {
  it('follows same-site paths only', () => {
    expect(safeRedirect('/setup/backlog?status=E')).toBe('/setup/backlog?status=E');
    for (const bad of ['//evil.example', 'https://evil.example', '/login?redirect=/x', '', null]) expect(safeRedirect(bad)).toBe('/');
  });
});
