/**
 * The management board (管理看板 /spectaculars; docs/product.md#management-board): one method per
 * widget, each refreshed on its own interval and stamped with when its figures were read. Only
 * these (and the system information) answer a board session.
 */
import { z } from 'zod';
import type { PatrolDashboard } from '../patrols/records.js';

/** How often each widget reads its figures again, in seconds. */
export const BOARD_REFRESH_SECONDS = {
  assets: 300,
  money: 60,
  orders: 60,
  alerts: 60,
  patrols: 120,
  feed: 10,
  group: 300,
} as const;

/** How many months the group board's trend covers, this one included. */
export const BOARD_TREND_MONTHS = 6;
/** Arrears older than this many months raise the board's alert. */
export const BOARD_OLD_ARREARS_MONTHS = 6;
/** How many events the live feed shows. */
export const BOARD_FEED_SIZE = 12;

/** When a widget's figures were read (YYYY-MM-DD HH:mm:ss, the community's time). */
interface Stamped {
  as_of: string;
}

export interface BoardAssets extends Stamped {
  buildings: number;
  rooms: number;
  /** rooms lived in or let */
  occupied: number;
  vacant: number;
  /** occupied of rooms, percent with one decimal */
  occupancy: string;
  spaces: number;
  /** spaces sold or let */
  spaces_taken: number;
  devices: number;
  devices_online: number;
}

export interface BoardMoney extends Stamped {
  /** the bill period: this month */
  month: string;
  receivable: string;
  received: string;
  /** 收费率: received of receivable, percent */
  rate: string;
  today_amount: string;
  today_count: number;
  /** what every room owes today (fees, late fees aside) */
  arrears: string;
}

export interface BoardOrders extends Stamped {
  repairs_open: number;
  repairs_overdue: number;
  repairs_today: number;
  repairs_finished_month: number;
  /** the average overall rating of this month's rated repairs (out of 5), '' when none */
  satisfaction: string;
  complaints_open: number;
  complaints_overdue: number;
}

export interface BoardAlert {
  key: 'old_arrears' | 'devices_offline' | 'repairs_overdue' | 'complaints_overdue' | 'valves_closed';
  label: string;
  count: number;
  /** for money alerts, the sum */
  amount: string | null;
}

export interface BoardAlerts extends Stamped {
  items: BoardAlert[];
}

export type BoardPatrols = PatrolDashboard & Stamped;

export interface BoardFeedItem {
  /** unique across kinds: `<kind>-<id>` */
  key: string;
  at: string;
  kind: 'payment' | 'gate' | 'door';
  /** what happened, with the person's name masked */
  text: string;
}

export interface BoardFeed extends Stamped {
  items: BoardFeedItem[];
}

export interface BoardCommunityRow {
  rid: number;
  title: string;
  receivable: string;
  received: string;
  rate: string;
}

export interface BoardGroup extends Stamped {
  month: string;
  communities: number;
  receivable: string;
  received: string;
  rate: string;
  /** the group's communities by this month's 收费率, highest first */
  ranking: BoardCommunityRow[];
  /** the group's receivable and received per month, oldest first */
  trend: Array<{ month: string; receivable: string; received: string; rate: string }>;
}

const none = z.object({});

export const boardSchemas = {
  boardassets: none,
  boardmoney: none,
  boardorders: none,
  boardalerts: none,
  boardpatrols: none,
  boardfeed: none,
  boardgroup: none,
};

export interface BoardOutputs {
  boardassets: BoardAssets;
  boardmoney: BoardMoney;
  boardorders: BoardOrders;
  boardalerts: BoardAlerts;
  boardpatrols: BoardPatrols;
  boardfeed: BoardFeed;
  boardgroup: BoardGroup;
}
