import { describe, expect, it } from 'vitest';
import { isExternal, validUsername } from './validate';
import { loginUrl, safeRedirect, endpointFor } from './auth';

describe('isExternal (spec 5)', () => {
  it('accepts http, https, mailto and tel', () => {
    for (const p of ['http://a.cn', 'https://a.cn/x', 'mailto:a@b.cn', 'tel:13800000000']) expect(isExternal(p)).toBe(true);
  });
  it('rejects app paths and other schemes', () => {
    for (const p of ['/dashboard', 'setup/backlog', 'ftp://x', 'javascript:alert(1)', '']) expect(isExternal(p)).toBe(false);
  });
});

describe('validUsername (spec 5)', () => {
  it('accepts only admin or editor', () => {
    expect(validUsername('admin')).toBe(true);
    expect(validUsername(' editor ')).toBe(true);
    expect(validUsername('visitor')).toBe(false);
    expect(validUsername('Admin')).toBe(false);
  });
});

describe('login redirect (spec 2.1)', () => {
  it('keeps the full path with its query', () => {
    expect(loginUrl('/setup/backlog?status=Y&page=2')).toBe('/login?redirect=%2Fsetup%2Fbacklog%3Fstatus%3DY%26page%3D2');
  });
  it('has no redirect for / and login itself', () => {
    expect(loginUrl('/')).toBe('/login');
    expect(loginUrl('/login?redirect=%2Fx')).toBe('/login');
  });
  it('follows only same-site paths', () => {
    expect(safeRedirect('/setup/backlog?a=1')).toBe('/setup/backlog?a=1');
    expect(safeRedirect('//evil.com')).toBe('/');
    expect(safeRedirect('https://evil.com')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });
  it('sends group-side calls to /webapi_leader', () => {
    expect(endpointFor('group')).toBe('/webapi_leader');
    expect(endpointFor('community')).toBe('/webapi');
  });
});
