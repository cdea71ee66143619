import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { DESKTOP, launchBrowser, screenshot } from './browser.js';
import { menusStill, stable } from './antd.js';

/**
 * The server of this worker: a worker's journey files run one after another on it
 * (global-setup.ts). VITEST_POOL_ID numbers the workers from 1.
 */
export function journeyServer() {
  const servers = inject('servers');
  return servers[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % servers.length]!;
}
export const baseUrl = () => journeyServer().baseUrl;

/** A describe block that runs in Chromium, skipped only outside CI on a machine without it. */
export function journey(name: string, body: (b: { page(viewport?: { width: number; height: number }): Promise<Page> }) => void) {
  describe.skipIf(!inject('browserAvailable'))(name, () => {
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    // the console's answers other than SUCCESS, per context, for the failure log: a dialog that
    // stands in the way says what, these say which call raised it
    const refused = new Map<BrowserContext, string[]>();
    const pending = new Map<BrowserContext, Map<Request, string>>();
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    // a failed step leaves a picture of every open page and, in the log, what its dialogs said:
    // enough to tell on a CI run what stood in the way
    let firstOfTest = 0;
    let logFrom = 0;
    beforeEach(() => {
      firstOfTest = contexts.length;
      logFrom = fs.statSync(journeyServer().serverLog).size;
    });
    afterEach(async ({ task }) => {
      if (task.result?.state !== 'fail') return;
      // the pages the test opened, or else the one it went on with
      const opened = contexts.slice(firstOfTest);
      const pages = (opened.length ? opened : contexts.slice(-1)).flatMap((c) => c.pages()).filter((p) => !p.isClosed());
      for (const [i, p] of pages.entries()) {
        const name = `failed-${task.name.slice(0, 40).replace(/[^\w\u4e00-\u9fff]+/g, '-')}-${i}`;
        await screenshot(p, name).catch(() => undefined);
        const dialogs = await p
          .locator('.ant-modal-wrap:visible, .ant-drawer-open, .ant-dropdown:visible')
          .allInnerTexts()
          .catch(() => []);
        console.log(`[${name}] ${p.url()} dialogs: ${JSON.stringify(dialogs).slice(0, 600)}`);
      }
      for (const c of opened.length ? opened : contexts.slice(-1)) {
        const answers = refused.get(c) ?? [];
        if (answers.length) console.log(`refused answers:\n${answers.slice(-20).join('\n')}`);
        const waiting = [...(pending.get(c)?.values() ?? [])];
        if (waiting.length) console.log(`calls still unanswered:\n${waiting.join('\n')}`);
      }
      // what the server said while the test ran (it logs warnings and errors only)
      const log = fs.readFileSync(journeyServer().serverLog).subarray(logFrom).toString();
      if (log.trim()) console.log(`the server's log during the test:\n${log.slice(-4000)}`);
    });
    afterAll(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
    });
    body({
      async page(viewport = DESKTOP) {
        // reduced motion: the console then opens its dialogs without animation, and a click on a
        // dialog's button lands on the button (docs/architecture.md#journeys); the browser keeps
        // the users' time zone, whose calendar the console's default months and days follow
        const context = await browser.newContext({
          viewport,
          locale: 'zh-CN',
          timezoneId: 'Asia/Shanghai',
          baseURL: baseUrl(),
          reducedMotion: 'reduce',
        });
        contexts.push(context);
        const answers: string[] = [];
        refused.set(context, answers);
        const started = Date.now();
        // the console's calls still unanswered, for the failure log: a dialog waiting on its call says which
        const inFlight = new Map<Request, string>();
        pending.set(context, inFlight);
        context.on('request', (req) => {
          if (!/\/webapi(_leader)?$/.test(new URL(req.url()).pathname)) return;
          inFlight.set(req, `${req.headers()['x-method'] ?? '?'} sent at +${Date.now() - started} ms`);
        });
        const answered = (req: Request) => void inFlight.delete(req);
        context.on('requestfinished', answered);
        context.on('requestfailed', answered);
        context.on('response', (res) => {
          if (!/\/webapi(_leader)?$/.test(new URL(res.url()).pathname)) return;
          void res
            .json()
            .then((body: { return_code?: string; return_msg?: string }) => {
              if (body.return_code === 'SUCCESS') return;
              const method = res.request().headers()['x-method'] ?? '?';
              const token = res.request().headers()['x-token']?.slice(0, 6) ?? '-';
              answers.push(`+${Date.now() - started} ms ${method} token ${token}…: ${body.return_code} ${body.return_msg ?? ''}`);
            })
            .catch(() => undefined);
        });
        const page = await context.newPage();
        // generous: on a loaded machine (load 13 on 2 cores) a page can take many seconds to draw
        page.setDefaultTimeout(30_000);
        return page;
      },
    });
  });
}

/**
 * 'YYYY-MM' of this month plus `months` in the business calendar (Asia/Shanghai, UTC+8, as the
 * console and the server count months), whatever the machine's time zone.
 */
export function businessMonth(months = 0): string {
  const shanghai = new Date(Date.now() + 8 * 3_600_000);
  const d = new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth() + months, 1));
  return d.toISOString().slice(0, 7);
}

/** Signs in through the login page and waits for the console. */
export async function signIn(page: Page, username: string, password = 'demo123456', redirect = ''): Promise<void> {
  await page.goto(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * An amount as the pages show it, thousands grouped: '12345.6' → '12,345.60' (the web's
 * formatMoney, written again here so that a journey checks it rather than repeats it).
 */
export const grouped = (v: string) => {
  const [whole = '', fraction = ''] = v.split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${fraction.padEnd(2, '0')}`;
};

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

/** The passwords the steward may have: the demo's, or the one shell.e2e.ts changes it to (the journeys share one database). */
const STEWARD_PASSWORDS = ['demo123456', 'Steward#2026'] as const;
let stewardPasswordNow: string | undefined;

/** The steward's password now, found once per file (at most one wrong try, which a right one follows). */
export async function stewardPassword(): Promise<string> {
  if (stewardPasswordNow) return stewardPasswordNow;
  for (const p of STEWARD_PASSWORDS) {
    if (
      await apiLogin('steward', p).then(
        () => true,
        () => false,
      )
    )
      return (stewardPasswordNow = p);
  }
  throw new Error('the steward cannot sign in');
}

/** A session of the steward 钱管家. */
export async function stewardToken(): Promise<string> {
  return apiLogin('steward', await stewardPassword());
}

/**
 * Signs the steward 钱管家 in on a page; the demo's weak password is reminded once
 * (docs/product.md#weak-password, its own journey in shell.e2e.ts): 暂不修改.
 */
export async function signInSteward(page: Page, to: string): Promise<void> {
  const password = await stewardPassword();
  await signIn(page, 'steward', password, to);
  if (password !== STEWARD_PASSWORDS[0]) return;
  await page.getByTestId('weak-password-later').click();
  await page.getByTestId('weak-password-dialog').waitFor({ state: 'hidden' });
}

/**
 * Clicks an entry of the top bar: its icon where the window is wide enough for every icon, else
 * the entry of the "more" menu; then, for a list (sizes, languages), its option `option`.
 */
export async function topBar(page: Page, testId: string, option?: string): Promise<void> {
  const entry = page.locator(`[data-testid="${testId}"]:visible`);
  // a menu still closing from the step before shows entries that are about to go: let it go
  await menusStill(page);
  // an icon in the bar, or the entry of a "more" menu already open, or else open it
  if ((await entry.count()) === 0) await page.getByTestId('navbar-more').click();
  await stable(page, entry);
  await entry.click();
  if (option) {
    const choice = page.locator(`[data-testid="${option}"]:visible`);
    await stable(page, choice);
    await choice.click();
  }
}
