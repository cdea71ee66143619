import { COOKIES, HOME_WORDS, parseLanguage, todayText, type SystemInfo } from '@wuye/contract';
import { formatWireDate } from '@wuye/contract/dates';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import { systemInfoOf } from '../modules/system/info.js';
import { authenticate, subscriptionEnded } from './authenticate.js';
import { BizError } from './errors.js';
import { firstScreenCardsOf, renderCardData, renderCards, type FirstScreenCards } from './first-screen-cards.js';
import { escapeHtml, fill } from './html.js';
import type { Session } from './registry.js';
import type { SessionCache } from './session-cache.js';

/*
 * The home page's first screen, drawn here from the session so that a signed-in reload of the
 * console shows its frame, welcome card and figure cards (first-screen-cards.ts) at the first
 * paint instead of a spinner while the scripts download (docs/adr/0007-first-screen.md: on a phone the scripts take
 * seconds). The console removes it when its own page has rendered (web/src/shell/firstScreen.ts);
 * its styles sit in web/index.html. Only the home page: its content is known without the
 * console's route table.
 */

/** The client routes that open on the home page. */
const HOME_PATHS = new Set(['/', '/dashboard']);

export interface FirstScreen {
  name: string;
  info: Pick<SystemInfo, 'region_title' | 'sub_title' | 'logo_url' | 'end_time' | 'days_left'>;
  side: Session['side'];
  /** the business day (YYYY-MM-DD) in the configured time zone */
  today: string;
  /** the figure cards under the welcome card; none on the group side */
  cards?: FirstScreenCards;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // a cookie we did not write: ignored
    }
  }
  return out;
}

export function isHomePath(url: string): boolean {
  return HOME_PATHS.has(url.split('?')[0]!);
}

/** The data of the first screen, or null without a live session (the spinner then stays). */
export async function firstScreenOf(
  db: Kysely<DB>,
  config: Config,
  cookies: Record<string, string>,
  cache?: SessionCache,
): Promise<FirstScreen | null> {
  const token = cookies[COOKIES.token];
  if (!token) return null;
  try {
    const { session, regionEnd } = await authenticate(db, config, token, cache);
    const [info, cards] = await Promise.all([
      systemInfoOf(db, config, session),
      firstScreenCardsOf(db, session, subscriptionEnded(regionEnd, config.timeZone)),
    ]);
    return { name: session.name, info, side: session.side, today: formatWireDate(new Date(), config.timeZone), cards };
  } catch (err) {
    // a dead token: the console signs the user out itself
    if (err instanceof BizError) return null;
    throw err;
  }
}

/** antd's HomeOutlined, the sidebar's logo when the community has none (web/src/shell/Sidebar.tsx) */
const HOME_ICON =
  '<svg class="fs-logo-icon" viewBox="64 64 896 896" aria-hidden="true"><path d="M946.5 505L560.1 118.8l-25.9-25.9a31.5 31.5 0 00-44.4 0L77.5 505a63.9 63.9 0 00-18.8 46c.4 35.2 29.7 63.3 64.9 63.3h42.5V940h691.8V614.3h43.4c17.1 0 33.2-6.7 45.3-18.8a63.6 63.6 0 0018.7-45.3c0-17-6.7-33.1-18.8-45.2zM568 868H456V664h112v204zm217.9-325.7V868H632V640c0-22.1-17.9-40-40-40H432c-22.1 0-40 17.9-40 40v228H238.1V542.3h-96l370-369.7 23.1 23.1L882 542.3h-96.1z"/></svg>';

function logo(info: FirstScreen['info']): string {
  const image = info.logo_url ? `<img class="fs-logo-img" src="${escapeHtml(info.logo_url)}" alt="">` : HOME_ICON;
  return `<div class="fs-logo">${image}<span>${escapeHtml(info.sub_title || info.region_title)}</span></div>`;
}

/** The description items, as antd's Descriptions lays them out: `columns` to a row. */
function descriptions(items: [string, string][], columns: number, className: string): string {
  const rows: string[] = [];
  for (let i = 0; i < items.length; i += columns) {
    const cells = items
      .slice(i, i + columns)
      .map(([label, value]) => `<td><div><span class="fs-label">${escapeHtml(label)}</span><span>${value}</span></div></td>`);
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  return `<table class="${className}"><tbody>${rows.join('')}</tbody></table>`;
}

/** The shell's layout as the user set it: sidebar closed, tag strip, logo, theme colour. */
function layoutOf(cookies: Record<string, string>): { classes: string; style: string } {
  const layout = new URLSearchParams(cookies[COOKIES.layout] ?? '');
  const classes = ['fs'];
  if (cookies[COOKIES.sidebar] === '0') classes.push('fs-closed');
  if (layout.get('tags') === '0') classes.push('fs-notags');
  if (layout.get('logo') === '0') classes.push('fs-nologo');
  const theme = layout.get('theme') ?? '';
  const style = /^[0-9a-fA-F]{6}$/.test(theme) ? ` style="--fs-theme:#${theme}"` : '';
  return { classes: classes.join(' '), style };
}

/** The first screen's markup, inserted before the console's root element. */
export function renderFirstScreen(screen: FirstScreen, cookies: Record<string, string>): string {
  const words = HOME_WORDS[parseLanguage(cookies[COOKIES.language])];
  const { info } = screen;
  // as the console's welcome card (web/src/pages/dashboard/Dashboard.tsx): the days left are on their card
  const today: [string, string] = [words.today, escapeHtml(todayText(words, screen.today))];
  const items: [string, string][] =
    screen.side === 'group'
      ? [[words.group, escapeHtml(info.region_title || words.noRegion)], today]
      : [[words.region, escapeHtml(info.region_title || '-')], [words.endTime, escapeHtml(info.end_time.slice(0, 10) || '-')], today];
  const title = escapeHtml(words.title);
  const { classes, style } = layoutOf(cookies);
  return (
    `<div id="first-screen" class="${classes}"${style} aria-busy="true">` +
    `<div class="fs-side">${logo(info)}</div>` +
    '<div class="fs-main"><div class="fs-bar"></div>' +
    `<div class="fs-tags"><span class="fs-tag">${title}</span></div>` +
    `<div class="fs-content"><div class="fs-crumb">${title}</div>` +
    `<div class="fs-card"><h2>${escapeHtml(fill(words.welcome, { name: screen.name }))}</h2>` +
    descriptions(items, 3, 'fs-wide') +
    descriptions(items, 1, 'fs-narrow') +
    `</div>${screen.cards ? renderCards(screen.cards, words, info) : ''}</div></div></div>` +
    (screen.cards ? renderCardData(screen.cards) : '')
  );
}

/**
 * Starts the console's scripts and styles, held in <template id="console-assets">, after the first
 * frame (or after 200 ms where no frame comes, as in a background tab). Inline, so the first screen
 * needs no request of its own; allowed by its hash in the content security policy (app.ts).
 */
const ASSET_LOADER =
  '(function(){var done=false;function load(){if(done)return;done=true;' +
  'var t=document.getElementById("console-assets");if(!t)return;' +
  'Array.prototype.forEach.call(t.content.children,function(e){var n=document.createElement(e.tagName);' +
  'Array.prototype.forEach.call(e.attributes,function(a){n.setAttribute(a.name,a.value)});document.head.appendChild(n)})}' +
  'requestAnimationFrame(function(){setTimeout(load)});setTimeout(load,200)})()';

/** The loader's hash for the content security policy's script-src. */
export const ASSET_LOADER_HASH = `'sha256-${createHash('sha256').update(ASSET_LOADER).digest('base64')}'`;

/** The console's scripts, module preloads and style preloads of index.html */
const CONSOLE_ASSETS = /<script type="module"[^>]*><\/script>|<link rel="(?:modulepreload|preload)"[^>]*>/g;

/**
 * index.html with the first screen in front of the root element. The page is then on screen
 * before any script runs, so the console's assets start only after that first frame: nothing the
 * first paint, the page's largest text, could wait for. Lighthouse's phone simulation counts
 * every request that ends before the largest paint as holding it up; begun after it, they no
 * longer do, and the simulated figure is the paint the browser actually made.
 */
export function withFirstScreen(html: string, markup: string): string {
  const assets = html.match(CONSOLE_ASSETS) ?? [];
  if (assets.length === 0) return html.replace('<div id="root">', `${markup}<div id="root">`);
  return html
    .replace(CONSOLE_ASSETS, '')
    .replace('<div id="root">', `${markup}<div id="root">`)
    .replace('</body>', `<template id="console-assets">${assets.join('')}</template><script>${ASSET_LOADER}</script></body>`);
}
