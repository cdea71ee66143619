/**
 * The methods measured against the database itself. Each case builds its payload from the
 * demo data (via earlier answers); the raw side replays the SQL the handler issued for it.
 */
export interface ApiCase {
  method: string;
  payload: (ctx: CaseContext) => Record<string, unknown>;
}

export interface CaseContext {
  /** the demo owner's room, found through the owner search */
  room: { rid: number; bid: number; tid: number; hid: number };
}

export const DEMO_OWNER_MOBILE = '13800138000';

export const apiCases: ApiCase[] = [
  { method: 'getkeywordtohouses', payload: () => ({ keywords: '1380' }) },
  { method: 'getkeywordtohouses', payload: () => ({ keywords: '建国' }) },
  { method: 'houseinfoplus', payload: ({ room }) => ({ ...room }) },
  { method: 'feebilllist', payload: ({ room }) => ({ ...room, page: 1, limit: 10, sort: 'desc' }) },
  { method: 'feebilllist', payload: () => ({ page: 1, limit: 10, status: 'N' }) },
  { method: 'housecarlist', payload: ({ room }) => ({ ...room, page: 1, limit: 10 }) },
  { method: 'backlog_list', payload: () => ({ status: 'E', page: 1, limit: 10 }) },
];

/** What the scale cases need besides the demo owner's room. */
export interface ScaleContext extends CaseContext {
  /** this month (YYYY-MM) and today (YYYY-MM-DD) in the business time zone */
  month: string;
  day: string;
  firstMonth: string;
  yearAgo: string;
}

/** API cases on the scale data (bench/README.md#scale-benchmarks): the owner search, the drawer and the bill list at 2,000,000 bills. */
export const scaleApiCases: ApiCase[] = [
  { method: 'getkeywordtohouses', payload: () => ({ keywords: '1380' }) },
  { method: 'getkeywordtohouses', payload: () => ({ keywords: '秀英' }) },
  { method: 'houseinfoplus', payload: ({ room }) => ({ ...room }) },
  { method: 'feebilllist', payload: ({ room }) => ({ ...room, page: 1, limit: 10, sort: 'desc' }) },
  { method: 'feebilllist', payload: () => ({ page: 1, limit: 10, status: 'N' }) },
  {
    method: 'feebilllist',
    payload: ({ room }) => ({ bid: room.bid, cost_types: ['property'], status: 'N', page: 1, limit: 10, sort: 'desc' }),
  },
  { method: 'housecarlist', payload: ({ room }) => ({ ...room, page: 1, limit: 10 }) },
];

/** The reports over a community's year of bills and payments. */
export const scaleReportCases: Array<{ method: string; payload: (ctx: ScaleContext) => Record<string, unknown> }> = [
  { method: 'fees_count', payload: (c) => ({ start_period: c.firstMonth, end_period: c.month }) },
  { method: 'fees_count_nopay', payload: () => ({ page: 1, limit: 10 }) },
  { method: 'paymentstatis', payload: (c) => ({ start_date: c.yearAgo, end_date: c.day, group_by: 'pay_type' }) },
];
