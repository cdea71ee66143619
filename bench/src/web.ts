/**
 * npm run bench:web [-- --quick]: what a browser downloads before the sign-in page and the
 * dashboard are interactive (JavaScript, gzipped), and the Lighthouse performance score of both,
 * desktop preset and mobile default, with Debian's Chromium. Builds nothing: run `npm run build`
 * first. A full run writes the figures into bench/README.md between `<!-- web:start -->` and
 * `<!-- web:end -->`; `--quick` (one Lighthouse run per page instead of three) only prints them,
 * and so does `--js-only` (no Lighthouse); `--runs N` sets the Lighthouse runs, `--files` lists the
 * scripts of each step, and WEB_DIST=<dir> measures another build (printed, never recorded).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config as LhConfig, type Flags as LhFlags } from 'lighthouse';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { repoRoot, startServerProcess, type ServerProcess } from './server-process.js';

const quick = process.argv.includes('--quick');
/** `--js-only`: the download figures without Lighthouse (a quick look while changing the bundle) */
const jsOnly = process.argv.includes('--js-only');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const USER = { username: 'admin', password: 'demo123456' };
const COMMUNITY = '阳光花园';
/** one page of each feature area: each must arrive as chunks of its own, after the dashboard */
const FEATURE_PAGES = ['/roomlist', '/basismembers/index', '/fees/feebilllist', '/feecounts/fees_count'];
const SIGN_IN_TARGET_KB = 350;
const LH_TARGET = 90;
const runsArg = process.argv.indexOf('--runs');
/** Lighthouse runs per page and preset; the median is reported */
const LH_RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : quick ? 1 : 3;
/** the build measured: web/dist, or another one (WEB_DIST, read by the server too) */
const webDist = path.resolve(process.env.WEB_DIST ?? path.join(repoRoot, 'web/dist'));
const shotsDir = path.join(repoRoot, 'bench/results');

// ---------------------------------------------------------------------------------------------
// JavaScript downloaded until a page is interactive

interface JsFile {
  url: string;
  /** bytes of the body as it travelled (after content-encoding) */
  wire: number;
  /** bytes of the body gzipped at level 9, whatever the server sent */
  gzip: number;
  raw: number;
  encoding: string;
}

/** Collects every script the page fetches; `take()` waits for bodies still arriving. */
function watchScripts(page: Page) {
  const pending: Promise<JsFile | null>[] = [];
  const onFinished = (req: Request) => {
    if (req.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const res = await req.response();
        if (!res) return null;
        const [sizes, body] = await Promise.all([req.sizes(), res.body()]);
        return {
          url: new URL(req.url()).pathname,
          wire: sizes.responseBodySize,
          gzip: zlib.gzipSync(body, { level: 9 }).length,
          raw: body.length,
          encoding: (await res.headerValue('content-encoding')) ?? 'identity',
        };
      })(),
    );
  };
  page.on('requestfinished', onFinished);
  return {
    /** scripts fetched so far (and not taken before) */
    async take(): Promise<JsFile[]> {
      const got = await Promise.all(pending.splice(0));
      return got.filter((f): f is JsFile => f !== null);
    },
    stop: () => page.off('requestfinished', onFinished),
  };
}

const sum = (files: JsFile[], k: 'wire' | 'gzip' | 'raw') => files.reduce((n, f) => n + f[k], 0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function loginReady(page: Page) {
  await page.locator('[data-testid="login-username"]:not([disabled])').waitFor({ state: 'visible' });
  await page.getByTestId('login-submit').waitFor({ state: 'visible' });
}

async function dashboardReady(page: Page) {
  await page.waitForURL(/\/dashboard/);
  await page.getByTestId('sidebar').waitFor({ state: 'visible' });
  await page.getByTestId('dashboard-cards').waitFor({ state: 'visible' });
  await page.getByTestId('dashboard-region').filter({ hasText: COMMUNITY }).waitFor({ state: 'visible' });
}

/**
 * Requests in flight on a page. Playwright's 'networkidle' is a load state, reached once per
 * navigation: it says nothing after a client-side route change, hence this.
 */
function trackNetwork(page: Page) {
  let inflight = 0;
  let changed = performance.now();
  page.on('request', () => {
    inflight++;
    changed = performance.now();
  });
  const done = () => {
    inflight = Math.max(0, inflight - 1);
    changed = performance.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /** resolves once no request has been in flight for `ms` */
    async quiet(ms = 500, timeoutMs = 30_000) {
      const t0 = performance.now();
      while (inflight > 0 || performance.now() - changed < ms) {
        if (performance.now() - t0 > timeoutMs) throw new Error('the network did not go quiet');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
const networks = new WeakMap<Page, ReturnType<typeof trackNetwork>>();
const network = (page: Page) => {
  let n = networks.get(page);
  if (!n) networks.set(page, (n = trackNetwork(page)));
  return n;
};

/** Waits for the page's content, then for the network to go quiet (lazy chunks, calls). */
async function settle(page: Page, ready: (p: Page) => Promise<void>) {
  await ready(page);
  await network(page).quiet();
}

async function newContext(browser: Browser, base: string, token?: string): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  if (token) {
    await ctx.addCookies([
      { name: 'Admin-Token', value: token, url: base },
      { name: 'Admin-Side', value: 'community', url: base },
    ]);
  }
  return ctx;
}

interface JsFigures {
  signIn: JsFile[];
  /** signing in on that page until the dashboard is interactive: only what is added */
  afterSignIn: JsFile[];
  /** opening /dashboard with a session and an empty cache */
  dashboardCold: JsFile[];
  features: { path: string; files: JsFile[] }[];
  timings: { signInMs: number; afterSignInMs: number; dashboardColdMs: number };
}

async function measureJs(browser: Browser, server: ServerProcess, token: string): Promise<JsFigures> {
  fs.mkdirSync(shotsDir, { recursive: true });
  // 1. sign-in page from an empty cache, then signing in on it
  const ctx1 = await newContext(browser, server.url);
  const page1 = await ctx1.newPage();
  network(page1);
  const w1 = watchScripts(page1);
  let t = performance.now();
  await page1.goto('/login', { waitUntil: 'commit' });
  await settle(page1, loginReady);
  const signInMs = performance.now() - t;
  const signIn = await w1.take();
  await page1.screenshot({ path: path.join(shotsDir, 'web-login-1440.png') });
  await page1.getByTestId('login-username').fill(USER.username);
  await page1.getByTestId('login-password').fill(USER.password);
  t = performance.now();
  await page1.getByTestId('login-submit').click();
  await settle(page1, dashboardReady);
  const afterSignInMs = performance.now() - t;
  const afterSignIn = await w1.take();
  w1.stop();
  await ctx1.close();

  // 2. the dashboard opened directly with a session, empty cache; then one page per area
  const ctx2 = await newContext(browser, server.url, token);
  const page2 = await ctx2.newPage();
  network(page2);
  const w2 = watchScripts(page2);
  t = performance.now();
  await page2.goto('/dashboard', { waitUntil: 'commit' });
  await settle(page2, dashboardReady);
  const dashboardColdMs = performance.now() - t;
  const dashboardCold = await w2.take();
  await page2.screenshot({ path: path.join(shotsDir, 'web-dashboard-1440.png') });
  const features: JsFigures['features'] = [];
  for (const p of FEATURE_PAGES) {
    // client-side navigation, as the menu does
    await page2.evaluate(`history.pushState({}, '', ${JSON.stringify(p)}); dispatchEvent(new PopStateEvent('popstate'))`);
    await page2.waitForURL((u) => u.pathname === p);
    // the layout has taken the route (its tab is there) and the page's chunks have arrived
    await page2.locator(`[data-testid="tag"][data-path="${p}"]`).waitFor({ state: 'attached' });
    await page2.locator('.page-loading').first().waitFor({ state: 'detached' });
    await network(page2).quiet();
    features.push({ path: p, files: await w2.take() });
  }
  w2.stop();
  await ctx2.close();
  return { signIn, afterSignIn, dashboardCold, features, timings: { signInMs, afterSignInMs, dashboardColdMs } };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

interface LhRun {
  score: number;
  /** Lighthouse's own CPU speed figure of the machine during the run */
  benchmarkIndex: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

async function lighthouseOnce(url: string, preset: 'desktop' | 'mobile', token?: string): Promise<LhRun> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    if (token) {
      // the web app keeps its session in cookies (web/src/utils/auth.ts); Lighthouse's storage
      // reset clears caches and storage but leaves cookies, so a cold load stays signed in
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const origin = new URL(url).origin;
      await cdp.contexts()[0]!.addCookies([
        { name: 'Admin-Token', value: token, url: origin },
        { name: 'Admin-Side', value: 'community', url: origin },
      ]);
      await cdp.close();
    }
    const flags: LhFlags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
    const config: LhConfig | undefined = preset === 'desktop' ? desktopConfig : undefined;
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
    if (finalPath !== new URL(url).pathname) throw new Error(`Lighthouse ended on ${finalPath}, not ${new URL(url).pathname}`);
    const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      fcp: num('first-contentful-paint'),
      lcp: num('largest-contentful-paint'),
      tbt: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      si: num('speed-index'),
    };
  } finally {
    chrome.kill();
  }
}

/** Median run by score (runs vary on a shared machine), with the range of scores. */
async function lighthouseMedian(url: string, preset: 'desktop' | 'mobile', token?: string) {
  const runs: LhRun[] = [];
  for (let i = 0; i < LH_RUNS; i++) {
    // on a busy machine Lighthouse now and then loses its trace (NO_NAVSTART, NO_FCP): run it again
    for (let attempt = 1; ; attempt++) {
      try {
        runs.push(await lighthouseOnce(url, preset, token));
        break;
      } catch (err) {
        if (attempt >= 3 || !(err instanceof Error) || !err.message.startsWith('Lighthouse:')) throw err;
        console.warn(`${err.message}; running it again`);
      }
    }
  }
  runs.sort((a, b) => a.score - b.score);
  return { median: runs[Math.floor(runs.length / 2)]!, min: runs[0]!.score, max: runs[runs.length - 1]!.score };
}

// ---------------------------------------------------------------------------------------------

function checkBuild() {
  const dist = webDist;
  if (!fs.existsSync(path.join(dist, 'index.html')) || !fs.existsSync(path.join(dist, 'assets'))) {
    console.error(
      `bench:web measures the built console, and ${path.relative(repoRoot, dist) || dist} is missing: run \`npm run build\` first.`,
    );
    process.exit(2);
  }
  if (process.env.WEB_DIST) return;
  // a build older than the sources measures yesterday's product: say so, but measure
  const builtAt = fs.statSync(path.join(dist, 'index.html')).mtimeMs;
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }, 0);
  if (newest(path.join(repoRoot, 'web/src')) > builtAt) {
    console.warn('note: web/src has changed since web/dist was built; run `npm run build` to measure the current code.');
  }
}

async function signInToken(url: string): Promise<string> {
  const res = await fetch(`${url}/webapi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'login', ...USER }),
  });
  const answer = (await res.json()) as { return_code: string; return_msg: string; data: { token: string } };
  if (answer.return_code !== 'SUCCESS') throw new Error(`login: ${answer.return_msg}`);
  return answer.data.token;
}

const lines: string[] = [];
const row = (...cells: string[]) => lines.push(`| ${cells.join(' | ')} |`);

function jsCell(files: JsFile[]) {
  const enc = [...new Set(files.map((f) => f.encoding))].join('/');
  return `${kb(sum(files, 'gzip'))} KB gzipped in ${files.length} files (${kb(sum(files, 'raw'))} KB raw; ${kb(sum(files, 'wire'))} KB on the wire, ${enc})`;
}

/**
 * Rewrites the figures between `<!-- web:start -->` and `<!-- web:end -->`; the notes between
 * `<!-- web:notes:start -->` and `<!-- web:notes:end -->` inside it (before/after, findings) are kept.
 */
function writeReadme(stamp: string) {
  const file = path.join(repoRoot, 'bench/README.md');
  const text = fs.readFileSync(file, 'utf8');
  const notes = /<!-- web:notes:start -->[\s\S]*?<!-- web:notes:end -->/.exec(text)?.[0];
  const block = [
    '<!-- web:start -->',
    '### Web (`npm run bench:web`)',
    '',
    stamp,
    '',
    '| what | figure | target |',
    '|---|---|---|',
    ...lines,
    ...(notes ? ['', notes] : []),
    '<!-- web:end -->',
  ].join('\n');
  let next: string;
  if (/<!-- web:start -->[\s\S]*<!-- web:end -->/.test(text)) next = text.replace(/<!-- web:start -->[\s\S]*<!-- web:end -->/, () => block);
  else if (text.includes('<!-- figures:end -->')) next = text.replace('<!-- figures:end -->', () => `<!-- figures:end -->\n\n${block}`);
  else next = `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}

const loadAtStart = os.loadavg()[0]!.toFixed(1);

async function main() {
  checkBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-bench-web-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', DB_SCHEMA: '', RUN_JOBS: '0' });
  let browser: Browser | undefined;
  try {
    const token = await signInToken(server.url);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
    const js = await measureJs(browser, server, token);
    await browser.close();
    browser = undefined;

    const signInGz = sum(js.signIn, 'gzip');
    row(
      'JavaScript before /login is interactive (empty cache)',
      jsCell(js.signIn),
      `under ${SIGN_IN_TARGET_KB} KB gzipped${signInGz / 1024 < SIGN_IN_TARGET_KB ? ' ✓' : ' ✗'}`,
    );
    row('… then signing in as admin until the dashboard is interactive (added)', jsCell(js.afterSignIn), '—');
    row('JavaScript before /dashboard is interactive (session, empty cache)', jsCell(js.dashboardCold), '—');
    const loaded = new Set([...js.signIn, ...js.afterSignIn, ...js.dashboardCold].map((f) => f.url));
    for (const f of js.features) {
      const own = f.files.filter((x) => !loaded.has(x.url));
      f.files.forEach((x) => loaded.add(x.url));
      row(
        `… then opening ${f.path} (client-side)`,
        `${kb(sum(own, 'gzip'))} KB gzipped in ${own.length} chunks of its own`,
        `separate chunks${own.length > 0 ? ' ✓' : ' ✗'}`,
      );
    }

    const lh: { label: string; path: string; preset: 'desktop' | 'mobile'; token?: string }[] = [
      { label: '/login', path: '/login', preset: 'desktop' },
      { label: '/login', path: '/login', preset: 'mobile' },
      { label: '/dashboard (signed in)', path: '/dashboard', preset: 'desktop', token },
      { label: '/dashboard (signed in)', path: '/dashboard', preset: 'mobile', token },
    ];
    for (const c of jsOnly ? [] : lh) {
      const { median: m, min, max } = await lighthouseMedian(server.url + c.path, c.preset, c.token);
      const range = LH_RUNS > 1 ? ` (median of ${LH_RUNS}: ${min}–${max})` : '';
      const bi = `, benchmarkIndex ${Math.round(m.benchmarkIndex)}`;
      row(
        `Lighthouse performance, ${c.label}, ${c.preset === 'desktop' ? 'desktop preset' : 'mobile default'}`,
        `${m.score}${range}; FCP ${(m.fcp / 1000).toFixed(2)} s, LCP ${(m.lcp / 1000).toFixed(2)} s, TBT ${Math.round(m.tbt)} ms, CLS ${m.cls.toFixed(3)}, SI ${(m.si / 1000).toFixed(2)} s${bi}`,
        `${LH_TARGET} or more${m.score >= LH_TARGET ? ' ✓' : ' ✗'}`,
      );
    }

    const load = os.loadavg()[0]!.toFixed(1);
    const stamp =
      `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}, load average ${loadAtStart} at the start, ${load} at the end), Node ${process.version}, ` +
      `Chromium at ${CHROMIUM_PATH}, demo data on a fresh embedded database${quick ? ', quick mode' : ''}${process.env.WEB_DIST ? `, build ${webDist}` : ''}. ` +
      'Counted: every script response until the page shows its content and the network is idle; gzipped = the bodies at gzip -9. ' +
      `Interactive after ${Math.round(js.timings.signInMs)} ms (/login), ${Math.round(js.timings.afterSignInMs)} ms (sign-in to dashboard), ${Math.round(js.timings.dashboardColdMs)} ms (/dashboard) in headless Chromium, unthrottled.`;
    console.log(`\n${stamp}\n\n| what | figure | target |\n|---|---|---|\n${lines.join('\n')}\n`);
    if (process.argv.includes('--files')) {
      for (const [name, files] of [
        ['sign-in', js.signIn],
        ['after sign-in', js.afterSignIn],
        ['dashboard cold', js.dashboardCold],
      ] as const) {
        console.log(`${name}:`);
        for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(f.gzip).padStart(7)} KB  ${f.url}`);
      }
    }
    // the recorded figures are those of this tree's build
    if (!quick && !jsOnly && !process.env.WEB_DIST) writeReadme(stamp);
  } finally {
    await browser?.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
