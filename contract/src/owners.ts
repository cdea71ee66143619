import { z } from 'zod';
import { LIMITS, type ListAnswer, type YN } from './codes.js';
import { id, int, optionalId, paging, text, yn } from './common.js';
import { fileBase64, type FileAnswer } from './files.js';
import type { ExportQueued } from './jobs.js';
import { MSG } from './messages.js';
import { WIRE_DATE_RE } from './dates.js';
import { valueEnum } from './kit/resource.js';
export * from './owners/cars.js';
export * from './owners/roles.js';

/* ---------- validation rules shared by the server and the web forms ---------- */

export const MOBILE_RE = /^1[3-9]\d{9}$/;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** 18-digit resident ID number with a valid birth date and check digit. */
export function isValidIdCard(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(v)) return false;
  const y = +v.slice(6, 10);
  const m = +v.slice(10, 12);
  const d = +v.slice(12, 14);
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d) return false;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(v[i]), 0);
  return ID_CHECK[sum % 11] === v[17];
}

/** The gender an 18-digit ID number records (its 17th digit: odd for men, even for women); '' for none or an invalid one. */
export function genderOfIdCard(value: string): '' | 'M' | 'F' {
  if (!isValidIdCard(value)) return '';
  return Number(value[16]) % 2 === 1 ? 'M' : 'F';
}

const mobile = z.string().trim().regex(MOBILE_RE, '手机号码格式不正确，应为11位手机号');
/** A mobile or an ID number as shown masked (team/contact.ts) */
const MASKED_MOBILE_RE = /^1\d{2}\*{4}\d{4}$/;
const MASKED_ID_CARD_RE = /^\d{4}\*{10}[\dX]{4}$/;
const idCard = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => v === '' || isValidIdCard(v), { message: '身份证号码不正确' });
const wireDate = z.string().regex(WIRE_DATE_RE, '日期格式应为 YYYY-MM-DD');
const optionalDate = z
  .union([z.literal(''), z.null(), wireDate])
  .optional()
  .transform((v) => v || undefined);

export const RELATIONS = ['owner', 'family', 'tenant'] as const;
export type RelationCode = (typeof RELATIONS)[number];
export const RELATION_CH: Record<RelationCode, string> = { owner: '业主', family: '家属', tenant: '租户' };
export const GENDER_CH: Record<string, string> = { M: '男', F: '女', '': '未知' };

/*
 * The owner drawer's coded values (docs/product.md#owner-drawer-tabs): the server's `status_ch` and
 * the tabs' tags. Their tables belong to the coming areas (server/src/db/OWNERS.md), which take
 * these with them.
 */
export const VISITOR_STATUS = valueEnum(
  {
    '': { text: '待审核', tone: 'warning' },
    Y: { text: '已通过', tone: 'warning' },
    D: { text: '已到访', tone: 'success' },
    C: { text: '已取消', tone: 'default' },
    '3': { text: '已拒绝', tone: 'error' },
  },
  { key: 'visitor_status', name: '访客状态' },
);
export const FACE_STATUS = valueEnum(
  {
    '': { text: '未下发', tone: 'processing' },
    Y: { text: '已生效', tone: 'success' },
    N: { text: '驳回或下发失败', tone: 'error' },
    P: { text: '下发中', tone: 'error' },
    W: { text: '待审核', tone: 'warning' },
  },
  { key: 'face_status', name: '人脸状态' },
);
/** How a pass at a door was made, and what the door did (access_passes; docs/product.md#access-control). */
export const PASS_METHOD = valueEnum({
  face: { text: '人脸' },
  card: { text: '刷卡' },
  qr: { text: '二维码' },
  remote: { text: '远程开门' },
});
export const PASS_RESULT = valueEnum({ open: { text: '开门', tone: 'success' }, refused: { text: '拒绝', tone: 'error' } });
/** An activity's spec status (Y on sale, N off; docs/product.md#activities); E is kept for the spec's "other". */
export const ACTIVITY_STATUS = valueEnum({
  Y: { text: '上架', tone: 'success' },
  N: { text: '下架', tone: 'error' },
  E: { text: '其他', tone: 'processing' },
});
export const SPACE_STATUS = valueEnum({
  idle: { text: '空闲', tone: 'default' },
  sold: { text: '已售', tone: 'success' },
  rented: { text: '已租', tone: 'processing' },
});
/** A balance-ledger line: paid, or not (yet). */
export const LEDGER_PAY_STATUS = valueEnum({ Y: { text: '已支付', tone: 'success' }, N: { text: '未支付', tone: 'default' } });

/* ---------- inputs ---------- */

/** A room as the drawer's tabs name it; rid/bid/tid must match the session's community and the room. */
const house = {
  rid: optionalId,
  bid: optionalId,
  tid: optionalId,
  hid: id,
};
const houseList = { ...paging, ...house };

const roomLink = z.object({
  hid: id,
  relation: z.enum(RELATIONS),
  move_in_date: optionalDate,
});

const memberFields = {
  realname: text(30).min(1, '请输入姓名'),
  mobile,
  id_card: idCard.optional().default(''),
  gender: z.enum(['', 'M', 'F']).optional().default(''),
  avatar: text(500).optional().default(''),
  wx_isbind: yn.optional().default('N'),
  app_isbind: yn.optional().default('N'),
  remark: text(200).optional().default(''),
};

const memberFilters = {
  name: text(30).optional(),
  mobile: text(11).optional(),
  bid: optionalId,
  hid: optionalId,
  relation: z.union([z.literal(''), z.enum(RELATIONS)]).optional(),
  wx_isbind: z.union([z.literal(''), yn]).optional(),
  app_isbind: z.union([z.literal(''), yn]).optional(),
  /** Y: only people living in a room now; N: only people who moved out of every room */
  living: z.union([z.literal(''), yn]).optional(),
};

export const ownersMethods = {
  /* docs/product.md#owner-search: the global owner search */
  getkeywordtohouses: z.object({
    keywords: z
      .string({ error: MSG.ownerKeywordRequired })
      .trim()
      .min(1, MSG.ownerKeywordRequired)
      .max(LIMITS.ownerSearchMax, `keywords 长度不能超过${LIMITS.ownerSearchMax}个字符`),
  }),
  /* docs/product.md#owner-drawer-header: the drawer's header */
  houseinfoplus: z.object({ ...house, keyword: text(50).optional(), building_cate_id: optionalId }),
  /* the drawer's tabs */
  housecarlist: z.object({ ...houseList, carlicense: text(12).optional() }),
  member_otherhouse_list: z.object({ ...houseList, keyword: text(30).optional() }),
  housecarportlist: z.object({ ...houseList, keyword: text(30).optional() }),
  visitorapplylist: z.object({ ...houseList, keyword: text(30).optional() }),
  homebonuslist: z.object({ ...houseList, mid: optionalId }),
  homeconsumelist: z.object({
    ...houseList,
    mid: optionalId,
    io_type: int(1, 2)
      .pipe(z.union([z.literal(1), z.literal(2)]))
      .default(LIMITS.ioTypeBalanceConsume),
  }),
  housecarinoutlist: z.object({ ...houseList, parkid: optionalId, carno: text(12).optional() }),
  housesignuplist: z.object({ ...houseList, title: text(50).optional() }),
  housecurrentlist: z.object({ ...houseList, device: optionalId }),
  housefacelist: z.object({ ...houseList, start_date: optionalDate, end_date: optionalDate }),
  merchant_auth_small_list: z.object({}),
  car_parking_small_list: z.object({ rid: optionalId }),
  access_device_small_list: z.object({}),

  /* owner management (/basismembers/index) */
  memberlist: z.object({ ...paging, ...memberFilters }),
  memberinfo: z.object({ id }),
  memberadd: z.object({ ...memberFields, rooms: z.array(roomLink).min(1, '请至少选择一个房屋').max(20) }),
  // an account without CONTACT_WHOLE edits the masked values it was shown: unchanged, they keep what is stored
  memberedit: z.object({
    id,
    ...memberFields,
    mobile: z.union([z.string().trim().regex(MASKED_MOBILE_RE), mobile]),
    id_card: z
      .union([z.string().trim().toUpperCase().regex(MASKED_ID_CARD_RE), idCard])
      .optional()
      .default(''),
    rooms: z.array(roomLink).max(20).optional().default([]),
  }),
  membermoveout: z.object({ id, date: wireDate.optional() }),
  memberexport: z.object({ ...memberFilters, sort: paging.sort }),
  memberimporttemplate: z.object({}),
  memberimport: z.object({ file_base64: fileBase64, filename: text(200).min(1, '请选择文件') }),
  memberimporterrors: z.object({ job_id: id }),
} satisfies Record<string, z.ZodType>;

/* ---------- answers ---------- */

/** House search result (docs/product.md#entities). */
/**
 * What a room owes today: its unpaid bills' fees, their late fees as of today and the sum, from the
 * one computation every screen reads (room_arrears, server migration 202611261945_fee_arrears.sql):
 * the drawer's 欠费, the owner search, the cashier's 欠费合计 and the arrears reports agree.
 */
export interface RoomArrears {
  bill_count: number;
  fee: string;
  late_fee: string;
  total: string;
}

export interface HouseSearchItem {
  /** the room-member link */
  id: number;
  rid: number;
  bid: number;
  tid: number;
  hid: number;
  mobile: string;
  /** '1号楼1单元1101' */
  address: string;
  realname: string;
  relation: RelationCode;
  relation_ch: string;
  /** what the room owes today */
  arrears: RoomArrears;
}

/** Owner info (docs/product.md#entities) plus the owner's rooms (the drawer's house tabs). */
export interface OwnerInfo {
  member_id: number | null;
  owner_headurl: string;
  owner_name: string;
  /** arrears: what the room owes today, its unpaid (E) and overdue (N) bills with their late fees (arrears.total) */
  gel_fee: string;
  /** the two parts of gel_fee: the bills' fees and their late fees */
  arrears: RoomArrears;
  mobile: string;
  owner_balance: string;
  wx_isbind: YN;
  app_isbind: YN;
  /** people living in the room now */
  member_num: number;
  owner_bonus: number;
  create_time: string;
  rid: number;
  bid: number;
  tid: number;
  hid: number;
  address: string;
  houses: Array<{ id: number; rid: number; bid: number; tid: number; address: string }>;
}

export interface HouseCarItem {
  id: number;
  realname: string;
  mobile: string;
  carlicense: string;
  car_type_ch: string;
  status: YN;
  status_ch: string;
  create_time: string;
}
export interface OtherHouseItem {
  id: number;
  hid: number;
  bid: number;
  tid: number;
  ownername: string;
  mobile: string;
  relation_ch: string;
  building_cate_name: string;
  address: string;
  last_login_time: string;
}
export interface CarportItem {
  id: number;
  parktitle: string;
  title: string;
  carlicense: string;
  status: string;
  status_ch: string;
  start_date: string;
  end_date: string;
  realname: string;
}
export interface VisitorItem {
  id: number;
  address: string;
  realname: string;
  mobile: string;
  visit_cause: string;
  status: string;
  status_ch: string;
  visit_time: string;
  create_time: string;
}
export interface BonusItem {
  id: number;
  merchant: string;
  orderid: string;
  name: string;
  code: string;
  user_code: string;
  num: number;
  pay_cate: string;
  cate: string;
  source: string;
  create_time: string;
  action_user: string;
}
export interface BalanceItem {
  id: number;
  merchant: string;
  orderid: string;
  io_type: 1 | 2;
  feetype: string;
  feetype_ch: string;
  paytype: string;
  paytype_ch: string;
  total_fee: string;
  status: YN;
  status_ch: string;
  create_user: string;
  create_time: string;
}
export interface ParkingRecordItem {
  id: number;
  parktitle: string;
  carno: string;
  inlane: string;
  intime: string;
  outlane: string;
  outtime: string;
  total_fee: string;
  pay_fee: string;
  car_type: string;
  reason: string;
}
export interface SignupActivityItem {
  id: number;
  title: string;
  limit_num: number;
  totle_num: number;
  join_type_ch: string;
  is_pay_ch: string;
  status: string;
  status_ch: string;
  start_time: string;
  end_time: string;
  event_start_time: string;
  event_end_time: string;
  create_user: string;
  create_time: string;
  realname: string;
}
/** A pass at a door of the room's residents (the drawer's 门禁通行 tab): the columns of 通行记录. */
export interface AccessRecordItem {
  id: number;
  /** the device's name and install address */
  room_name: string;
  address: string;
  rec_time: string;
  /** the person as the device named them (a resident, a visitor; '' an unknown face) */
  realname: string;
  /** PASS_METHOD (access/grants.ts) and its text */
  method: string;
  method_ch: string;
  similarity: string;
  snapshot: string;
  /** PASS_RESULT: open | refused */
  result: string;
}
export interface FacePermissionItem {
  id: number;
  area_title: string;
  door_start_time: string;
  door_end_time: string;
  status: string;
  status_ch: string;
  create_user: string;
  create_time: string;
  realname: string;
}

export interface MemberRoom {
  /** the room-member link id (membermoveout takes it) */
  id: number;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  relation: RelationCode;
  relation_ch: string;
  move_in_date: string;
  move_out_date: string;
  status: YN;
}
export interface MemberItem {
  id: number;
  realname: string;
  mobile: string;
  id_card: string;
  gender: '' | 'M' | 'F';
  gender_ch: string;
  avatar: string;
  wx_isbind: YN;
  app_isbind: YN;
  balance: string;
  bonus: number;
  remark: string;
  create_time: string;
  rooms: MemberRoom[];
  /** the rooms lived in now, as one text */
  houses: string;
}
export interface MemberDetail extends MemberItem {
  cars: Array<{ id: number; hid: number; carlicense: string; car_type_ch: string; status_ch: string }>;
}
/** Result of a member_import job: nothing is written when errors is not empty. */
export interface MemberImportResult {
  created_members: number;
  linked_rooms: number;
  errors: Array<{ row: number; column: string; reason: string }>;
}

/** Headers of the member import template, in order. */
export const MEMBER_IMPORT_HEADERS = ['楼栋', '单元', '房号', '姓名', '手机号', '身份', '身份证号', '性别', '入住日期'] as const;
export const MEMBER_IMPORT_MAX_ROWS = 20000;

export type OwnersOutputs = OwnersOwnOutputs;

interface OwnersOwnOutputs {
  getkeywordtohouses: { items: HouseSearchItem[] };
  houseinfoplus: { items: OwnerInfo };
  housecarlist: ListAnswer<HouseCarItem>;
  member_otherhouse_list: ListAnswer<OtherHouseItem>;
  housecarportlist: ListAnswer<CarportItem>;
  visitorapplylist: ListAnswer<VisitorItem>;
  homebonuslist: ListAnswer<BonusItem>;
  homeconsumelist: ListAnswer<BalanceItem>;
  housecarinoutlist: ListAnswer<ParkingRecordItem>;
  housesignuplist: ListAnswer<SignupActivityItem>;
  housecurrentlist: ListAnswer<AccessRecordItem>;
  housefacelist: ListAnswer<FacePermissionItem>;
  merchant_auth_small_list: { items: Array<{ id: number; merchant: string }> };
  car_parking_small_list: { items: Array<{ id: number; title: string }> };
  access_device_small_list: { items: Array<{ id: number; title: string; address: string }> };
  memberlist: ListAnswer<MemberItem>;
  memberinfo: MemberDetail;
  memberadd: { id: number };
  memberedit: { id: number };
  membermoveout: { id: number; move_out_date: string };
  memberexport: ExportQueued;
  memberimporttemplate: FileAnswer;
  memberimport: { job_id: number };
  memberimporterrors: FileAnswer;
}
