/**
 * 收费对象 (/fees/feethinglist, issue 34): each billable room, parking space and car with the fee
 * items that apply to it, resolved from the bindings as bill generation resolves them.
 */
import { z } from 'zod';
import { optionalId, paging, text } from '../common.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import type { PricingMethod } from './setup.js';

/** What a fee is charged on: a room, a parking space (sold or rented, with a room) or a car in use (with a room). */
export const THING_KIND = valueEnum({
  room: { text: '房屋' },
  space: { text: '车位' },
  car: { text: '车辆' },
});
export type ThingKind = keyof typeof THING_KIND;

/** A yes/no filter: true, or nothing ('' and null mean "no filter", as on every list). */
const flag = z
  .union([z.boolean(), z.literal(''), z.null()])
  .optional()
  .transform((v) => v === true);

/** Filters of the list and its export (feethingpagelist, feethingpageexport). */
export const feeThingFilters = {
  kind: enumSchema(THING_KIND, '收费对象类型').default('room'),
  /** the building of the room the bill is charged to */
  building_id: optionalId,
  /** only the things this item applies to (with unbound: those it does not apply to) */
  item_id: optionalId,
  /** a room's address, a space's number or plate, a car's plate */
  keywords: text(50).optional(),
  /** only the things no item applies to (with item_id: not that item) */
  unbound: flag,
};

export const feeThingSchemas = {
  feethingpagelist: z.object({ ...paging, ...feeThingFilters }),
  feethingpageexport: z.object({ ...feeThingFilters, sort: z.enum(['asc', 'desc']).default('asc') }),
};

/** One fee item that applies to a thing, and the binding it comes through (the narrowest when several). */
export interface FeeThingItem {
  item_id: number;
  item_title: string;
  cost_type: string;
  pricing: PricingMethod;
  pricing_ch: string;
  unit_price: string;
  /** the binding's scope (BIND_SCOPES) and its text: 楼栋, 全小区, 单个房屋… */
  via_scope: string;
  via_scope_ch: string;
  /** what the binding names: 3号楼, 住宅, 地下停车场A区… */
  via_title: string;
}

/** One row of feethingpagelist. */
export interface FeeThingRow {
  id: number;
  kind: ThingKind;
  kind_ch: string;
  /** a room's address, a space's lot and number, a car's plate */
  title: string;
  /** the room the bills are charged to */
  hid: number;
  bid: number;
  tid: number;
  address: string;
  /** the room's first current owner; for a space or car its registered member, else the room's owner */
  owner_name: string;
  /** a room's built area (m²); null for spaces and cars */
  area: string | null;
  items: FeeThingItem[];
}
