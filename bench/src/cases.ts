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
