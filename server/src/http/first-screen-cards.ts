import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  FIRST_SCREEN_DATA_ID,
  HOME_TOP_ARREARS,
  HOME_WIDE_CARDS,
  PENDING_ON_HOME,
  accessCardColor,
  groupedAmount,
  groupedInt,
  metersCardColor,
  serviceText,
  visibleHomeCards,
  type FirstScreenData,
  type HomeCardKey,
  type HomeWords,
  type SystemInfo,
} from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { feeDashboard } from '../modules/fees/reports.js';
import { repairDashboard } from '../modules/steward/repairReports.js';
import { parkingDashboard } from '../modules/carpark/reports.js';
import { patrolDashboard } from '../modules/patrols/records.js';
import { activityDashboard } from '../modules/activities/activities.js';
import { accessDashboard } from '../modules/access/dashboard.js';
import { meterDashboard } from '../modules/meters/logs.js';
import { latestPendingBacklog } from '../modules/system/methods.js';
import { escapeHtml, fill } from './html.js';
import type { Session } from './registry.js';

/*
 * The home page's figure cards in the first screen (first-screen.ts): the cards the console's
 * dashboard draws for this user (HOME_CARDS), with the same figures, so that the largest text of
 * the page (this month's collection) is on screen at the first paint. The figures go to the
 * console too (FirstScreenData), which draws its cards from them without asking again.
 */

export interface FirstScreenCards {
  keys: HomeCardKey[];
  data: FirstScreenData;
}

/**
 * The user's cards and their figures: only the queries the visible cards need. A community whose
 * subscription ended gets the cards without figures, as the console draws them when its calls
 * answer AUTH_END.
 */
export async function firstScreenCardsOf(db: Kysely<DB>, session: Session, ended: boolean): Promise<FirstScreenCards> {
  if (session.rid === null) return { keys: [], data: {} };
  const rid = session.rid;
  const keys = visibleHomeCards({ side: session.side, roles: session.roles, sysType: session.sysType, modulesOff: session.modulesOff });
  if (ended) return { keys, data: {} };
  const [pending, feedashboard, repairdashboard, parkingdashboard, patroldashboard, activitydashboard, accessdashboard, meterdashboard] =
    await Promise.all([
      // the to-do card's count and the home page's latest pending to-dos, from one page of them
      keys.includes('backlog') ? latestPendingBacklog(db, rid, session, PENDING_ON_HOME) : undefined,
      keys.includes('feesMonth') || keys.includes('feesArrears') ? feeDashboard(db, rid) : undefined,
      keys.includes('repairs') ? repairDashboard(db, rid) : undefined,
      keys.includes('parking') ? parkingDashboard(db, rid) : undefined,
      keys.includes('patrol') ? patrolDashboard(db, rid) : undefined,
      keys.includes('activities') ? activityDashboard(db, rid) : undefined,
      keys.includes('access') ? accessDashboard(db, rid) : undefined,
      keys.includes('meters') ? meterDashboard(db, rid) : undefined,
    ]);
  const data: FirstScreenData = {};
  if (pending !== undefined) {
    data.backlog = pending.total;
    data.backlogPending = pending;
  }
  if (feedashboard) data.feedashboard = feedashboard;
  if (repairdashboard) data.repairdashboard = repairdashboard;
  if (parkingdashboard) data.parkingdashboard = parkingdashboard;
  if (patroldashboard) data.patroldashboard = patroldashboard;
  if (activitydashboard) data.activitydashboard = activitydashboard;
  if (accessdashboard) data.accessdashboard = accessdashboard;
  if (meterdashboard) data.meterdashboard = meterdashboard;
  return { keys, data };
}

// ---------------------------------------------------------------------------------------------
// markup: antd's Card (small) and Statistic as the dashboard's FigureCard lays them out; styles in web/index.html

const require = createRequire(import.meta.url);
/** antd's outlined icons, as @ant-design/icons draws them */
function icon(name: string): string {
  const svg = fs.readFileSync(require.resolve(`@ant-design/icons-svg/inline-svg/outlined/${name}.svg`), 'utf8');
  return `<span class="fs-anticon">${svg.replace('<svg ', '<svg width="1em" height="1em" fill="currentColor" aria-hidden="true" ')}</span>`;
}
const ICONS = {
  backlog: icon('schedule'),
  feesMonth: icon('account-book'),
  daysLeft: icon('field-time'),
  arrears: icon('warning'),
  repairs: icon('tool'),
  parking: icon('car'),
  patrol: icon('safety'),
  activities: icon('calendar'),
  access: icon('api'),
  meters: icon('thunderbolt'),
};

/** the dashboard's FigureCard: an icon in its colour, a title, a value and a footer */
function figure(figureIcon: string, color: string, title: string, value: string, footer?: string): string {
  return (
    `<div class="fs-panel fs-figure-card"><div class="fs-figure"><div class="fs-figure-icon" style="color:${color}">${figureIcon}</div>` +
    `<div class="fs-figure-text"><div class="fs-figure-title">${escapeHtml(title)}</div><div class="fs-figure-value">${escapeHtml(value)}</div>` +
    `${footer ? `<div class="fs-figure-footer">${escapeHtml(footer)}</div>` : ''}</div></div></div>`
  );
}

function arrearsCard(words: HomeWords, data: FirstScreenData): string {
  const rows = (data.feedashboard?.top_arrears ?? []).slice(0, HOME_TOP_ARREARS);
  const body =
    rows.length > 0
      ? `<ul class="fs-arrears">${rows
          .map(
            (b) =>
              `<li><span>${escapeHtml(`${b.building_title}（${fill(words.rooms, { n: b.rooms })}）`)}</span>` +
              `<span class="fs-arrears-amount">¥${groupedAmount(b.arrears)}</span></li>`,
          )
          .join('')}</ul>`
      : `<div class="fs-empty">${escapeHtml(words.noArrears)}</div>`;
  return (
    `<div class="fs-panel"><div class="fs-panel-head"><span class="fs-panel-title"><span class="fs-head-icon">${ICONS.arrears}</span>` +
    `${escapeHtml(words.topArrears)}</span></div><div class="fs-panel-body">${body}</div></div>`
  );
}

function card(key: HomeCardKey, words: HomeWords, data: FirstScreenData, info: Pick<SystemInfo, 'end_time' | 'days_left'>): string {
  const fees = data.feedashboard;
  switch (key) {
    case 'backlog':
      return figure(ICONS.backlog, '#36a3f7', words.backlog, groupedInt(data.backlog ?? 0));
    case 'feesMonth':
      return figure(
        ICONS.feesMonth,
        '#34bfa3',
        fill(words.feesMonth, { month: fees?.month ?? '' }),
        fees ? `¥${groupedAmount(fees.received)}` : '-',
        fees ? fill(words.feesMonthFooter, { receivable: groupedAmount(fees.receivable), rate: fees.rate }) : undefined,
      );
    case 'feesArrears':
      return arrearsCard(words, data);
    case 'repairs': {
      const r = data.repairdashboard;
      return figure(
        ICONS.repairs,
        '#f4a93a',
        words.repairs,
        r ? groupedInt(r.open) : '-',
        r ? fill(words.repairsFooter, { overdue: r.overdue, today: r.today }) : undefined,
      );
    }
    case 'parking': {
      const p = data.parkingdashboard;
      return figure(
        ICONS.parking,
        '#8e7cc3',
        words.parking,
        p ? fill(words.parkingValue, { inside: groupedInt(p.inside), total: groupedInt(p.total_spaces) }) : '-',
        p ? fill(words.parkingFooter, { amount: groupedAmount(p.total) }) : undefined,
      );
    }
    case 'patrol': {
      const p = data.patroldashboard;
      return figure(
        ICONS.patrol,
        '#36a3f7',
        words.patrol,
        p ? fill(words.patrolValue, { done: groupedInt(p.points_done), due: groupedInt(p.points_due) }) : '-',
        p ? fill(words.patrolFooter, { rate: p.rate, missed: p.missed_tasks }) : undefined,
      );
    }
    case 'activities': {
      const a = data.activitydashboard;
      return figure(
        ICONS.activities,
        '#f4516c',
        words.activities,
        a ? groupedInt(a.open) : '-',
        a ? fill(words.activitiesFooter, { signed: a.signed, reviewing: a.reviewing }) : undefined,
      );
    }
    case 'access': {
      const a = data.accessdashboard;
      return figure(
        ICONS.access,
        accessCardColor(a),
        words.access,
        a ? fill(words.accessValue, { offline: groupedInt(a.offline), total: groupedInt(a.total) }) : '-',
        a ? fill(words.accessFooter, { expected: a.expected, arrived: a.arrived }) : undefined,
      );
    }
    case 'meters': {
      const m = data.meterdashboard;
      return figure(
        ICONS.meters,
        metersCardColor(m),
        words.meters,
        m ? groupedInt(m.closed) : '-',
        m ? fill(words.metersFooter, { offline: m.offline_meters, low: m.low, piles: m.offline_piles }) : undefined,
      );
    }
    case 'daysLeft': {
      const days = info.end_time ? info.days_left : null;
      return figure(
        ICONS.daysLeft,
        days !== null && days < 30 ? '#f4516c' : '#40c9c6',
        words.daysLeft,
        days === null ? '-' : days < 0 ? words.expired : groupedInt(days),
        serviceText(words, days) || undefined,
      );
    }
  }
}

/** The row of cards (a grid as antd's Row and Col lay them out), or nothing without cards. */
export function renderCards(cards: FirstScreenCards, words: HomeWords, info: Pick<SystemInfo, 'end_time' | 'days_left'>): string {
  if (cards.keys.length === 0) return '';
  // each card in a cell of the grid, a wide one (HOME_WIDE_CARDS) over two columns, as on the dashboard
  const cell = (k: HomeCardKey) =>
    `<div class="fs-cell${HOME_WIDE_CARDS.includes(k) ? ' fs-cell-wide' : ''}">${card(k, words, cards.data, info)}</div>`;
  return `<div class="fs-cards">${cards.keys.map(cell).join('')}</div>`;
}

/** The figures for the console, as JSON no markup can break out of. */
export function renderCardData(cards: FirstScreenCards): string {
  if (Object.keys(cards.data).length === 0) return '';
  const json = JSON.stringify(cards.data).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${json}</script>`;
}
