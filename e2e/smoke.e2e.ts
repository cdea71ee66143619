import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pagesFor, routeManifest, type ManifestPage, type ManifestSide } from '../web/src/routeManifest.js';
import { DESKTOP, PHONE } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

/**
 * Opens every page of the route tree (web/src/routeManifest.ts, generated from it) as a user
 * would find it: the community side as admin, the group side as leader. A page fails on a console
 * error, an uncaught error, a 4xx/5xx answer, an error notice, a redirect (401, 404, login), or an
 * empty page area. Pages added to the tree later are opened without a change here; only a page
 * whose address needs a record (a :param, or a record named in the query) needs a line in
 * ADDRESSES, and the journey says so by name.
 */

const ACCOUNTS: { account: string; side: ManifestSide; phone?: boolean }[] = [
  { account: 'admin', side: 'community' },
  { account: 'leader', side: 'group' },
  // on a phone every page also fits its width: wide tables and boards scroll inside their box
  { account: 'admin', side: 'community', phone: true },
];

type Ask = (method: string, payload?: Record<string, unknown>) => Promise<Record<string, unknown>[]>;

/** The first row's `field` of a demo list (a real record to open). */
const first = async (ask: Ask, method: string, field = 'id', payload: Record<string, unknown> = {}) => {
  const value = (await ask(method, { page: 1, limit: 1, ...payload }))[0]?.[field];
  if (value === undefined) throw new Error(`the demo data has no ${method} row to open`);
  return String(value);
};

/** Addresses of the pages that show one record: the demo's first one. */
const ADDRESSES: Record<string, (ask: Ask) => Promise<string>> = {
  '/editroom': async (ask) => `/editroom?id=${await first(ask, 'roomlist')}`,
  '/roominfo': async (ask) => `/roominfo?id=${await first(ask, 'roomlist')}`,
  '/fees/feeitemedit': async (ask) => `/fees/feeitemedit?id=${await first(ask, 'feeitemlist')}`,
  '/fees/print/receipt/:id': async (ask) => `/fees/print/receipt/${await first(ask, 'paymentlist')}`,
  '/fees/print/shift/:id': async (ask) => `/fees/print/shift/${await first(ask, 'shiftlist')}`,
  '/fees/print_billcall': async (ask) => `/fees/print_billcall?hids=${await first(ask, 'feebillcall', 'hid')}`,
  '/fees/conbill': async (ask) => `/fees/conbill?hid=${await first(ask, 'feebillcall', 'hid')}`,
  '/fees/print_billcallmx': async (ask) => `/fees/print_billcallmx?hids=${await first(ask, 'feebillcall', 'hid')}`,
  '/fees/costedit': async (ask) => `/fees/costedit?id=${await first(ask, 'costdetaillist', 'id', { status: 'Y' })}`,
  '/fees/costinfo': async (ask) => `/fees/costinfo?id=${await first(ask, 'costdetaillist')}`,
  '/fees/costitemedit': async (ask) => `/fees/costitemedit?id=${await first(ask, 'costitemlist')}`,
  '/team/categoryedit': async (ask) => `/team/categoryedit?id=${await first(ask, 'deptlist')}`,
  '/setup/categoryedit': async (ask) => `/setup/categoryedit?id=${await first(ask, 'categorylist')}`,
  '/steward/noticesedit': async (ask) => `/steward/noticesedit?id=${await first(ask, 'noticelist', 'id', { status: 'D' })}`,
  '/steward/readnumlist': async (ask) => `/steward/readnumlist?id=${await first(ask, 'noticelist', 'id', { status: 'P' })}`,
  '/carpark/caredit': async (ask) => `/carpark/caredit?id=${await first(ask, 'carlist')}`,
  '/carpark/charging_edit': async (ask) => `/carpark/charging_edit?id=${await first(ask, 'chargerlist')}`,
  '/carpark/hardwareedit': async (ask) => `/carpark/hardwareedit?id=${await first(ask, 'accessdevicelist')}`,
  '/carpark/editcardus': async (ask) => `/carpark/editcardus?id=${await first(ask, 'carduslist')}`,
  '/carpark/cardsedit': async (ask) => `/carpark/cardsedit?id=${await first(ask, 'cardslist')}`,
  '/crm/editcrm': async (ask) => `/crm/editcrm?id=${await first(ask, 'crmlist')}`,
  '/crm/crm_show': async (ask) => `/crm/crm_show?id=${await first(ask, 'crmlist')}`,
  '/mobilesys/graphicedit': async (ask) => `/mobilesys/graphicedit?id=${await first(ask, 'graphiclist')}`,
  '/mobilesys/menuedit': async (ask) => `/mobilesys/menuedit?id=${await first(ask, 'appmenulist')}`,
  '/apply/banneredit': async (ask) => `/apply/banneredit?id=${await first(ask, 'bannerlist')}`,
  '/mobile/graphicedit': async (ask) => `/mobile/graphicedit?id=${await first(ask, 'leadergraphiclist')}`,
  '/crm/editroomsales': async (ask) => `/crm/editroomsales?id=${await first(ask, 'roomsaleslist', 'id', { status: 'D' })}`,
  '/crm/roomshow': async (ask) => `/crm/roomshow?id=${await first(ask, 'roomsaleslist')}`,
  '/crm/contract_audit': async (ask) => `/crm/contract_audit?id=${await first(ask, 'roomsaleslist', 'id', { status: 'A' })}`,
  '/crm/contract_audit_info': async (ask) => `/crm/contract_audit_info?id=${await first(ask, 'roomsaleslist', 'id', { status: 'Y' })}`,
  '/crm/uploadimg': async (ask) => `/crm/uploadimg?id=${await first(ask, 'roomsaleslist', 'id', { status: 'Y' })}`,
  '/crm/customshow': async (ask) => `/crm/customshow?id=${await first(ask, 'carelist')}`,
  '/crm/editcus': async (ask) => `/crm/editcus?id=${await first(ask, 'carelist')}`,
  '/crm/leaseedit': async (ask) => `/crm/leaseedit?id=${await first(ask, 'leaselist', 'id', { approval_status: 'B' })}`,
  '/crm/rerent': async (ask) => `/crm/rerent?id=${await first(ask, 'leaselist', 'id', { status: 'X' })}`,
  '/crm/signout': async (ask) => `/crm/signout?id=${await first(ask, 'leaselist', 'id', { status: 'Y' })}`,
  '/crm/lease_approval_info': async (ask) => `/crm/lease_approval_info?id=${await first(ask, 'leaselist', 'id', { approval_status: 'P' })}`,
};

async function addressOf(page: ManifestPage, ask: Ask): Promise<string> {
  const known = ADDRESSES[page.path];
  if (known) return known(ask);
  if (page.path.includes(':')) throw new Error(`${page.path} needs a record: add how to find one to ADDRESSES in e2e/smoke.e2e.ts`);
  return page.path;
}

/** Goes to an address inside the console (as its links do: no reload). */
async function goInApp(page: Page, address: string) {
  await page.evaluate((url) => {
    window.history.pushState(null, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, address);
}

/** What the page area shows: its visible text, and whether a table, form or chart is visible. */
function mainArea(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector<HTMLElement>('.app-main-inner');
    if (!main) return { text: '', widgets: 0, loading: 0 };
    const visible = (e: Element) => e.checkVisibility();
    return {
      text: main.innerText.trim(),
      widgets: Array.from(main.querySelectorAll('table, form, canvas, .ant-result, .ant-empty')).filter(visible).length,
      loading: Array.from(main.querySelectorAll('.page-loading, .ant-spin-spinning, .ant-skeleton-active')).filter(visible).length,
    };
  });
}

journey('smoke: every page of the route tree', ({ page: newPage }) => {
  for (const { account, side, phone } of ACCOUNTS) {
    const where = phone ? ' on a phone, none wider than the screen' : '';
    it(`opens every page of the ${side} side as ${account} without an error or an empty page${where}`, { timeout: 600_000 }, async () => {
      const token = await apiLogin(account);
      const ask: Ask = async (method, payload = {}) => {
        const res = await api<{ items?: Record<string, unknown>[] }>(method, payload, token, side);
        if (res.return_code !== 'SUCCESS') throw new Error(`${method}: ${res.return_msg}`);
        return res.data.items ?? [];
      };
      const user = await api<{ roles: string[]; permissions: string[] }>('userinfo', {}, token, side);
      const pages = pagesFor(side, [...user.data.roles, ...user.data.permissions]);
      expect(pages.length).toBeGreaterThan(0);
      // pages the account's roles do not open are not in its menus either (they answer 401)
      const closed = routeManifest[side].filter((p) => !pages.includes(p)).map((p) => p.path);
      if (closed.length) console.log(`smoke ${account} (${side}): not permitted, left out: ${closed.join(' ')}`);

      const page = await newPage(phone ? PHONE : DESKTOP);
      const problems: string[] = [];
      let current = '/login';
      let inFlight = 0;
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`${current}: console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`${current}: uncaught ${e.name}: ${e.message}`));
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${current}: ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
      });
      const api$ = (url: string) => /\/webapi(_leader)?$/.test(new URL(url).pathname);
      page.on('request', (r) => {
        if (api$(r.url())) inFlight++;
      });
      const done = (r: { url(): string }) => {
        if (api$(r.url())) inFlight--;
      };
      page.on('requestfinished', done);
      page.on('requestfailed', done);

      await signIn(page, account);
      const opened: string[] = [];
      for (const entry of pages) {
        const address = await addressOf(entry, ask);
        current = address;
        await goInApp(page, address);
        const path = new URL(address, 'http://x').pathname;
        // what the user sees: the page's own title last in the breadcrumb, its content drawn
        // and nothing left loading
        const seen = await expect
          .poll(
            async () => {
              const here = new URL(page.url()).pathname;
              const crumb = (await page.locator('.app-breadcrumb .ant-breadcrumb-link').allTextContents()).at(-1);
              const area = await mainArea(page);
              return here === path && crumb?.trim() === entry.title && area.loading === 0 && inFlight === 0;
            },
            { timeout: 30_000, interval: 100 },
          )
          .toBe(true)
          .then(
            () => true,
            () => false,
          );
        const area = await mainArea(page);
        const here = new URL(page.url()).pathname;
        if (!seen) {
          const crumb = (await page.locator('.app-breadcrumb').allTextContents()).join('');
          problems.push(
            `${address}: not shown within 30 s (at ${here}, breadcrumb "${crumb}", ${area.loading} loading, ${inFlight} calls open)`,
          );
        } else if (!area.text && area.widgets === 0) problems.push(`${address}: the page area is empty`);
        // a notice stays a few seconds: each is told once, for the page that raised it
        const notices = await page.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLElement>('.ant-message-notice-error, .ant-notification-notice-error'))
            .filter((e) => !e.dataset.smokeSeen)
            .map((e) => {
              e.dataset.smokeSeen = '1';
              return e.innerText;
            }),
        );
        for (const n of notices) problems.push(`${address}: error notice "${n}"`);
        if (phone && seen) {
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > PHONE.width) problems.push(`${address}: the page scrolls sideways on a phone (${width} px wide)`);
        }
        opened.push(address);
      }
      console.log(`smoke ${account} (${side}): ${opened.length} pages: ${opened.join(' ')}`);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
});
