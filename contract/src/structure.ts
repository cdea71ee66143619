import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from './common.js';
import { WIRE_DATE_RE } from './dates.js';
import { money } from './money.js';
import { fileBase64, type FileAnswer } from './files.js';
import type { ExportQueued } from './jobs.js';
import type { ListAnswer } from './codes.js';
import type { OneTimeCode } from './auth.js';
import { COMMUNITY_MODULE_KEYS, moduleKeys, type CommunityModule } from './leader/modules.js';
import { staffMobile, staffName, username } from './team/staff.js';

import { ROOM_CATEGORY_KIND, building, roomCategory, unit, title } from './structure/resources.js';
import { enumKeys, enumOrAll, valueEnum, wireDay, type ResourceOutputs } from './kit/resource.js';

/** Room states (docs/product.md#area-structure): the list's tags, the board's colours, the import's words. */
export const ROOM_STATE = valueEnum(
  {
    vacant: { text: '空置', tone: 'default' },
    occupied: { text: '已入住', tone: 'success' },
    rented: { text: '出租', tone: 'processing' },
    renovating: { text: '装修中', tone: 'warning' },
  },
  { key: 'room_state', name: '房屋状态' },
);
export type RoomState = keyof typeof ROOM_STATE;
export const ROOM_STATES = enumKeys(ROOM_STATE);

export * from './structure/resources.js';

export type RoomCategoryKind = keyof typeof ROOM_CATEGORY_KIND;

/** Headers of the room import template, in order. */
export const ROOM_IMPORT_HEADERS = ['楼栋', '单元', '房号', '楼层', '建筑面积', '套内面积', '房屋类型', '状态', '备注'] as const;
export const ROOM_IMPORT_MAX_ROWS = 20000;

export const AREA_RE = /^\d{1,10}(\.\d{1,2})?$/;
/** An area in square metres: not negative, at most two decimals; decimal string out. */
export const areaValue = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!AREA_RE.test(s)) {
    ctx.addIssue({ code: 'custom', message: '面积格式不正确，应为不小于0且最多两位小数的数字' });
    return z.NEVER;
  }
  return s;
});

const wireDate = z.string().trim().regex(WIRE_DATE_RE, '日期格式应为 YYYY-MM-DD');
const delayLogCreateTime = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => v || undefined);
const url = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === '' || /^(https?:\/\/|\/)/.test(v), { message: '地址必须以 http://、https:// 或 / 开头' });
const phone = z
  .string()
  .trim()
  .max(30)
  .refine((v) => v === '' || /^[\d\-+() ]{5,30}$/.test(v), { message: '联系电话格式不正确' });
const roomState = z.enum(ROOM_STATES, { error: '房屋状态取值不正确' });

/** "lng,lat" in degrees, '' when not set. */
export const MAP_POINT_RE = /^-?\d{1,3}(\.\d{1,8})?,-?\d{1,2}(\.\d{1,8})?$/;
/** A community's map point, "lng,lat" (GCJ-02, as the map service gives it), '' when not set. */
export const mapPoint = z
  .string()
  .trim()
  .max(40)
  .refine(
    (v) => v === '' || (MAP_POINT_RE.test(v) && Math.abs(Number(v.split(',')[0])) <= 180 && Math.abs(Number(v.split(',')[1])) <= 90),
    {
      message: '地图坐标格式应为“经度,纬度”，如 116.397428,39.90923',
    },
  );

const regionFields = {
  title: title(60, '小区名称'),
  address: text(200).default(''),
  phone: phone.default(''),
  area: areaValue.default('0'),
  logo_url: url.default(''),
  region_img: url.default(''),
  copyright: text(200).default(''),
};

const leaderRegionFields = {
  ...regionFields,
  province: text(20).default(''),
  city: text(20).default(''),
  district: text(20).default(''),
  map_point: mapPoint.default(''),
  /** the customer-service QR code's image: an upload's address */
  service_qr: url.default(''),
  end_time: wireDate,
  price_per_year: money,
  status: z.enum(['Y', 'N']).default('Y'),
};

/** The community's first administrator, made with it: a one-time password shown once, changed at first sign-in. */
const firstAdmin = z.object({ username, name: staffName, mobile: staffMobile });

const roomFields = {
  bid: id,
  tid: id,
  title: title(30, '房号'),
  floor: int(-10, 200).default(1),
  category_id: optionalId,
  built_area: areaValue.default('0'),
  indoor_area: areaValue.default('0'),
  state: roomState.default('vacant'),
  remark: text(200).default(''),
};

const roomFilters = {
  bid: optionalId,
  tid: optionalId,
  category_id: optionalId,
  state: z.union([z.literal(''), roomState]).optional(),
  floor: z.union([z.literal(''), int(-10, 200)]).optional(),
  keyword: text(30).optional(),
};

const delayMonths = int(-1e9, 1e9).pipe(z.number().min(1, '延期月数至少为1').max(120, '延期月数不能超过120'));

/** A community's state on the group's list. */
export const REGION_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
/** Where a community's service period stands: 已过期, 30 天内到期 (the list's orange), 正常. */
export const REGION_EXPIRY = valueEnum({
  expired: { text: '已过期', tone: 'error' },
  soon: { text: '30天内到期', tone: 'warning' },
  ok: { text: '正常', tone: 'success' },
});
export type RegionExpiry = keyof typeof REGION_EXPIRY;
/** The days left below which a community shows as 30天内到期. */
export const REGION_SOON_DAYS = 30;

const leaderRegionFilters = {
  /** part of the name, the address or the province, city or district */
  title: text(60).optional(),
  status: enumOrAll(REGION_STATUS, '状态').optional(),
  expiry: enumOrAll(REGION_EXPIRY, '到期状态').optional(),
};

export const structureMethods = {
  // communities
  regioninfo: z.object({}),
  regionedit: z.object(regionFields),
  leaderregionlist: z.object({ ...paging, ...leaderRegionFilters }),
  leaderregionexport: z.object(leaderRegionFilters),
  leaderregionadd: z.object({
    ...leaderRegionFields,
    modules: moduleKeys.default([...COMMUNITY_MODULE_KEYS]),
    admin: firstAdmin.optional(),
  }),
  leaderregionedit: z.object({ id, ...leaderRegionFields }),
  leaderregiondelay: z.object({ rid: id, months: delayMonths, remark: text(200).default('') }),
  /** a one-time code that opens the community as its administrator (docs/product.md#enter-community) */
  leaderregionenter: z.object({ rid: id, redirect: text(200).default('/dashboard') }),
  /** the same extension for several communities at once, all or none */
  leaderregiondelaybatch: z.object({
    rids: z.array(id).min(1, '请选择小区').max(200, '一次最多延期 200 个小区'),
    months: delayMonths,
    remark: text(200).default(''),
  }),
  /** the group's renewals summed per month of a year: how many, days added, money taken */
  regiondelaymonthly: z.object({ year: int(2000, 2100) }),
  regiondelaylog: z.object({
    ...paging,
    sort: z.enum(['asc', 'desc']).default('desc'),
    rid: optionalId,
    /** when the extension was made: [from, to] days of the business time zone, both included */
    create_time: delayLogCreateTime,
  }),
  /** the community's own renewal log as a workbook, with the list's filter */
  regiondelaylogexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), create_time: delayLogCreateTime }),
  /** the group's renewal log as a workbook in the answer, with the list's filters (a community, the days made) */
  leaderregiondelaylogexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), rid: optionalId, create_time: delayLogCreateTime }),
  ...roomCategory.schemas,
  ...building.schemas,
  ...unit.schemas,
  // rooms
  roomlist: z.object({ ...paging, ...roomFilters }),
  roominfo: z.object({ id }),
  room_small_list: z.object({ tid: id }),
  roomadd: z.object(roomFields),
  roomedit: z.object({ id, ...roomFields }),
  roomdel: z.object({ id }),
  /** every room of one building, for the room-state board (房态图, house_show) */
  roommap: z.object({ bid: id }),
  roomexport: z.object({ sort: z.enum(['asc', 'desc']).default('asc'), ...roomFilters }),
  // import
  roomimporttemplate: z.object({}),
  // skip_existing Y: rows naming a room that exists already are left out and counted, not errors
  roomimport: z.object({ file_base64: fileBase64, filename: text(200).min(1, '请选择文件'), skip_existing: yn.default('N') }),
  roomimporterrors: z.object({ job_id: id }),
  importloglist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc') }),
} satisfies Record<string, z.ZodType>;

export interface RegionDetail {
  id: number;
  title: string;
  address: string;
  phone: string;
  area: string;
  logo_url: string;
  region_img: string;
  copyright: string;
  end_time: string;
  days_left: number;
}

export interface LeaderRegion extends RegionDetail {
  province: string;
  city: string;
  district: string;
  /** "lng,lat", '' when not set */
  map_point: string;
  /** the customer-service QR code's image address, '' when none */
  service_qr: string;
  /** the modules open in it (docs/product.md#community-modules) */
  modules: CommunityModule[];
  price_per_year: string;
  status: 'Y' | 'N';
  building_count: number;
  room_count: number;
  create_time: string;
}

/** One month of a group's renewals (regiondelaymonthly). */
export interface RegionDelayMonth {
  /** YYYY-MM */
  month: string;
  /** renewals made that month */
  count: number;
  /** communities renewed */
  communities: number;
  /** days of service added */
  days: number;
  /** money taken (online payments; codes and manual extensions count 0) */
  amount: string;
}

export interface RegionDelayLogItem {
  id: number;
  rid: number;
  region_title: string;
  kind: 'pay' | 'code' | 'manual';
  kind_ch: string;
  ref: string;
  old_end: string;
  new_end: string;
  /** days the extension added (new_end - old_end) */
  days: number;
  amount: string;
  operator: string;
  create_time: string;
}

export interface RoomCategory {
  id: number;
  title: string;
  kind: RoomCategoryKind;
  kind_ch: string;
  sort: number;
  room_count: number;
}

export interface Building {
  id: number;
  title: string;
  floors: number;
  sort: number;
  remark: string;
  unit_count: number;
  room_count: number;
  create_time: string;
}

export interface Unit {
  id: number;
  bid: number;
  building_title: string;
  title: string;
  sort: number;
  room_count: number;
  create_time: string;
}

export interface Room {
  id: number;
  rid: number;
  bid: number;
  tid: number;
  title: string;
  floor: number;
  category_id: number | null;
  category_title: string;
  built_area: string;
  indoor_area: string;
  state: RoomState;
  state_ch: string;
  remark: string;
  building_title: string;
  unit_title: string;
  /** 1号楼1单元1101 */
  address: string;
  create_time: string;
}

export interface SmallItem {
  id: number;
  title: string;
}

export interface RoomMapItem {
  id: number;
  tid: number;
  unit_title: string;
  title: string;
  floor: number;
  state: RoomState;
  state_ch: string;
  category_title: string;
  built_area: string;
}

/** One bad cell of an import: the Excel row number, the column header and why. */
export interface ImportRowError {
  row: number;
  column: string;
  reason: string;
}

export interface RoomImportResult {
  created_buildings: number;
  created_units: number;
  created_rooms: number;
  /** Rows left out because their room exists (roomimport with skip_existing Y). */
  skipped_rooms: number;
  errors: ImportRowError[];
}

export interface ImportLogItem {
  id: number;
  kind: string;
  filename: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  /** 等待中 / 导入中 / 导入成功 / 校验未通过 / 失败 / 已取消 */
  status_ch: string;
  total: number;
  progress: number;
  created_buildings: number;
  created_units: number;
  created_rooms: number;
  skipped_rooms: number;
  error_count: number;
  error: string;
  create_user: string;
  create_time: string;
  finish_time: string;
}

export type StructureOutputs = ResourceOutputs<typeof roomCategory.def, RoomCategory> &
  ResourceOutputs<typeof building.def, Building> &
  ResourceOutputs<typeof unit.def, Unit> &
  StructureOwnOutputs;

interface StructureOwnOutputs {
  regioninfo: RegionDetail;
  regionedit: RegionDetail;
  leaderregionlist: ListAnswer<LeaderRegion>;
  /** admin: the first administrator's account and one-time password, when one was asked for */
  leaderregionadd: { id: number; admin: { username: string; password: string } | null };
  leaderregionedit: LeaderRegion;
  leaderregionenter: OneTimeCode;
  leaderregiondelay: { rid: number; end_time: string };
  leaderregiondelaybatch: { items: Array<{ rid: number; title: string; end_time: string }> };
  regiondelaymonthly: { year: number; items: RegionDelayMonth[]; totals: Omit<RegionDelayMonth, 'month'> };
  regiondelaylog: ListAnswer<RegionDelayLogItem>;
  regiondelaylogexport: ExportQueued;
  leaderregiondelaylogexport: FileAnswer;
  /** the filtered communities as an Excel file, made in the call */
  leaderregionexport: FileAnswer;
  roomlist: ListAnswer<Room>;
  roominfo: Room;
  room_small_list: { items: SmallItem[] };
  roomadd: { id: number };
  roomedit: null;
  roomdel: null;
  roommap: { items: RoomMapItem[] };
  roomexport: ExportQueued;
  roomimporttemplate: FileAnswer;
  roomimport: { job_id: number };
  roomimporterrors: FileAnswer;
  importloglist: ListAnswer<ImportLogItem>;
}
