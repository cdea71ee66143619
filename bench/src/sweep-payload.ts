import { addDays, addMonths } from '@wuye/contract';
import { today } from '../../server/src/lib/wire.js';

/** A method of the catalogue (/api-docs.json) as the sweep reads it. */
export interface SweepMethod {
  method: string;
  side: string;
  writes: boolean;
  input: SweepSchema & { oneOf?: SweepSchema[] };
}

interface SweepProperty {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  items?: { enum?: unknown[] };
}
interface SweepSchema {
  properties?: Record<string, SweepProperty>;
  required?: string[];
}

export interface SweepContext {
  room: { rid: number; bid: number; tid: number; hid: number };
  /** the id a detail method asks for, by method */
  ids: Record<string, number | undefined>;
  itemId: number | undefined;
}

/** Values the sweep knows by field name: the demo owner's room, a fee item, this month, a year up to today. */
function knownValues(ctx: SweepContext): Record<string, unknown> {
  const day = today();
  const month = day.slice(0, 7);
  return {
    ...ctx.room,
    hids: [ctx.room.hid],
    item_id: ctx.itemId,
    itemid: ctx.itemId,
    keywords: '1380',
    period: month,
    // a month grid (schedulegrid, scheduleexport)
    month,
    start_period: addMonths(`${month}-01`, -11).slice(0, 7),
    end_period: month,
    start_date: addDays(addMonths(day, -12), 1),
    end_date: day,
    year: Number(day.slice(0, 4)),
    // a pile's ports (chargerportlist): the first pile's
    charger_id: ctx.ids.chargerinfo,
  };
}

/**
 * The payload a page sends when it first opens the method: page 1 of 10 and only the fields the
 * method requires, from the demo owner's room and the lists' first rows (a year up to today
 * for reports). Undefined when a required value is not at hand (a job's id, a renewal order).
 */
export function sweepPayload(m: SweepMethod, ctx: SweepContext): Record<string, unknown> | undefined {
  // a choice of payloads (e.g. which report to export): the first
  const schema = m.input.oneOf?.[0] ?? m.input;
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const known: Record<string, unknown> = { ...knownValues(ctx), id: ctx.ids[m.method], ...METHOD_VALUES[m.method] };
  const payload: Record<string, unknown> = {};
  if ('page' in props) payload.page = 1;
  if ('limit' in props) payload.limit = 10;
  // a room's tabs ask for the room whole: its building and unit come with it
  const roomFields = required.has('hid') ? ['rid', 'bid', 'tid', 'hid'] : [];
  for (const field of new Set([...required, ...roomFields])) {
    if (field === 'page' || field === 'limit') continue;
    const value = props[field]?.const ?? known[field] ?? props[field]?.enum?.[0];
    if (value === undefined) return undefined;
    payload[field] = value;
  }
  return payload;
}

/** Values a method asks for that its own page picks (the dictionary's list opens on a type). */
const METHOD_VALUES: Record<string, Record<string, unknown>> = {
  dictlist: { type: 'visitor_reason' },
  // the meters' usage report opens on the last three months; the cashier's meter search on a room number
  meterreport: { from: addMonths(`${today().slice(0, 7)}-01`, -2).slice(0, 7), to: today().slice(0, 7) },
  meterpick: { keyword: '101' },
  // 开始充电's member search, on the first digits of a mobile
  chargemembers: { keyword: '1380' },
  // the group's pages open on this year
  leaderfeesummary: { start_period: `${today().slice(0, 4)}-01`, end_period: today().slice(0, 7) },
  leaderfeesummaryexport: { start_period: `${today().slice(0, 4)}-01`, end_period: today().slice(0, 7) },
  leaderfeetrend: { start_period: `${today().slice(0, 4)}-01`, end_period: today().slice(0, 7) },
  leaderfeedetail: { start_period: `${today().slice(0, 4)}-01`, end_period: today().slice(0, 7), rid: 1 },
  regiondelaymonthly: { year: Number(today().slice(0, 4)) },
  // the report home opens on the last 30 days
  pannelindex: { start_date: addDays(today(), -29), end_date: today() },
};

/** The other types the dictionary's list shows (--filters): the group's car brands, a community's tags, a system type. */
const DICT_TYPES = ['car_brand', 'owner_tag', 'bill_status'];

/** what a user types into a list's text filters: a room number, a surname, a mobile prefix... */
const TYPED: Record<string, unknown> = {
  keyword: '1101',
  name: '陈',
  realname: '陈',
  mobile: '1380',
  title: '1',
  carlicense: '沪A',
  cashier: '赵',
  receipt_no: '0001',
  min_fee: '1000',
  max_fee: '100',
};

/**
 * The first call's payload again with one optional filter each (--filters): a choice's first
 * value, the demo owner's room or this month where the field names one, else what a user types.
 */
/**
 * Each kind of keyword the owner search takes besides the sweep's mobile prefix (modules/owners/search.ts):
 * a whole mobile number, its last four digits, a room number, an address written out and a name part.
 */
const SEARCH_KEYWORDS = ['13800138000', '8000', '1101', '1号楼1单元1101', '秀英'];

export function filterPayloads(m: SweepMethod, base: Record<string, unknown>, ctx: SweepContext): Array<Record<string, unknown>> {
  if (m.method === 'getkeywordtohouses') return SEARCH_KEYWORDS.map((keywords) => ({ ...base, keywords }));
  const extra = m.method === 'dictlist' ? DICT_TYPES.map((type) => ({ ...base, type })) : [];
  const schema = m.input.oneOf?.[0] ?? m.input;
  const day = today();
  const known: Record<string, unknown> = { ...knownValues(ctx), ...TYPED };
  const out: Array<Record<string, unknown>> = [];
  for (const [field, p] of Object.entries(schema.properties ?? {})) {
    if (field in base || ['page', 'limit', 'sort', 'rid', 'end_date'].includes(field)) continue;
    if (field === 'start_date') {
      out.push({ ...base, start_date: `${day.slice(0, 7)}-01`, end_date: day });
      continue;
    }
    const value =
      p.enum?.[0] ??
      (p.type === 'array' && p.items?.enum ? [p.items.enum[0]] : undefined) ??
      known[field] ??
      (p.type === 'boolean' ? true : undefined);
    if (value !== undefined) out.push({ ...base, [field]: value });
  }
  return [...extra, ...out];
}
