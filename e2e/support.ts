import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchBrowser } from './browser.js';

export const baseUrl = () => inject('baseUrl');

/** A describe block that runs in Chromium, skipped only outside CI on a machine without it. */
export function journey(name: string, body: (b: { page(viewport?: { width: number; height: number }): Promise<Page> }) => void) {
  describe.skipIf(!inject('browserAvailable'))(name, () => {
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
    });
    body({
      async page(viewport = DESKTOP) {
        const context = await browser.newContext({ viewport, locale: 'zh-CN', baseURL: baseUrl() });
        contexts.push(context);
        const page = await context.newPage();
        // generous: on a loaded machine (load 13 on 2 cores) a page can take many seconds to draw
        page.setDefaultTimeout(30_000);
        return page;
      },
    });
  });
}

/** Signs in through the login page and waits for the console. */
export async function signIn(page: Page, username: string, password = 'demo123456', redirect = ''): Promise<void> {
  await page.goto(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Calls the API directly (for set-up and checks a user would not see). */
export async function api<T = any>(
  method: string,
  payload: Record<string, unknown> = {},
  token?: string,
  side: 'community' | 'group' = 'community',
) {
  const res = await fetch(`${baseUrl()}/${side === 'group' ? 'webapi_leader' : 'webapi'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
    body: JSON.stringify({ method, ...payload }),
  });
  return (await res.json()) as { return_code: string; return_msg: string; data: T };
}

export async function apiLogin(username: string, password = 'demo123456'): Promise<string> {
  const res = await api<{ token: string }>('login', { username, password });
  if (res.return_code !== 'SUCCESS') throw new Error(res.return_msg);
  return res.data.token;
}
