/**
 * Visitors (访客, /carpark/visitorlist; docs/product.md#visitors): staff register a visitor for an owner
 * (the room, then the owner living there), with the visit's window, the reason (a visitor_reason item of
 * the dictionary) and its text, a plate, companions and a photo. With the community's review setting the
 * registration waits for a manager (status '' → Y or 3); without it, it is Y at once. The pass code (the
 * QR) opens from 30 minutes before the visit to its leave time, twice (in and out), unless revoked; the
 * first use marks the visit D. A visitor's car gets a reserved space of the chosen lot and the lot's white
 * list until its free time ends (car_status); a job ends both.
 */
import { z } from 'zod';
import type { YN } from '../codes.js';
import { id, int, optionalId, text, yn } from '../common.js';
import type { ListAnswer } from '../codes.js';
import { imageUrl } from '../files.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { MOBILE_RE, VISITOR_STATUS } from '../owners.js';
import { plate } from '../carpark/cars.js';
import { wireTimeText } from '../carpark/tempFeeConfig.js';
import { VISITOR_ROLES } from './roles.js';

export { VISITOR_STATUS };
export type VisitorStatus = '' | 'Y' | 'D' | 'C' | '3';

/** How long before the visit the pass code opens, and how many times it opens (in and out). */
export const PASS_EARLY_MINUTES = 30;
export const PASS_MAX_USES = 2;
/** The longest visit one registration covers. */
export const VISIT_MAX_DAYS = 7;

export const VISITOR_GENDER = valueEnum({ M: { text: '男' }, F: { text: '女' }, '': { text: '未知' } });

/** The visitor's car (visitors.car_status, 202611300740_visitors.sql). */
export const VISITOR_CAR_STATUS = valueEnum({
  '': { text: '无车辆', tone: 'default' },
  P: { text: '待审核', tone: 'warning' },
  R: { text: '已预留', tone: 'success' },
  E: { text: '已到期', tone: 'default' },
  X: { text: '已释放', tone: 'default' },
  N: { text: '未预留', tone: 'warning' },
});
export type VisitorCarStatus = '' | 'P' | 'R' | 'E' | 'X' | 'N';

const optionalPlate = z.union([z.literal(''), plate]).default('');
const mobile = z.string().trim().regex(MOBILE_RE, '手机号格式不正确');
const dateRangeFilter = z
  .union([
    z.literal(''),
    z.null(),
    z.tuple([
      z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD'),
      z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD'),
    ]),
  ])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

export interface VisitorRow {
  id: number;
  realname: string;
  gender: '' | 'M' | 'F';
  gender_ch: string;
  mobile: string;
  hid: number;
  bid: number;
  tid: number;
  address: string;
  member_id: number | null;
  owner_name: string;
  owner_mobile: string;
  visit_cause: string;
  visit_note: string;
  visit_time: string;
  leave_time: string;
  carlicense: string;
  companions: number;
  photo: string;
  status: VisitorStatus;
  status_ch: string;
  /** the QR's content; shown while the pass may open (Y or D, not revoked) */
  pass_code: string;
  pass_uses: number;
  pass_revoked: YN;
  /** the pass opens now or later: Y or D, not revoked, uses left, leave time not past */
  pass_valid: boolean;
  last_pass_time: string;
  car_status: VisitorCarStatus;
  car_status_ch: string;
  car_remark: string;
  lot_id: number | null;
  lot_title: string;
  space_title: string;
  free_until: string;
  review_remark: string;
  creator: string;
  create_time: string;
}

export const visitor = resource<VisitorRow>()({
  name: 'visitor',
  label: '访客',
  methods: { list: 'visitorlist', add: 'visitoradd', edit: 'visitoredit', info: 'visitorinfo', export: 'visitorexport' },
  roles: { read: VISITOR_ROLES.staff, write: VISITOR_ROLES.staff },
  sort: 'desc',
  fields: {
    keyword: { label: '关键字', placeholder: '姓名/手机号/车牌', in: ['filter'] },
    realname: { label: '访客姓名', zod: text(20).min(1, '请输入访客姓名'), in: ['form', 'table', 'export'], fixed: true, width: 100 },
    gender: {
      label: '性别',
      zod: z.enum(['', 'M', 'F'], { error: '性别取值不正确' }).default(''),
      enum: VISITOR_GENDER,
      widget: 'radio',
      in: ['form', 'export'],
    },
    mobile: { label: '手机号', zod: mobile, in: ['form', 'table', 'export'], width: 120 },
    hid: { label: '访问房屋', zod: id, widget: 'room', in: ['form', 'filter'] },
    // the people living now in the room (checked by the kit); the page's picker reads visitor_member_small_list
    member_id: { label: '被访业主', zod: id, widget: { membersOf: 'hid' }, in: ['form'] },
    visit_cause: {
      label: '来访事由',
      zod: text(30).min(1, '请选择来访事由'),
      widget: 'custom',
      in: ['form', 'table', 'export'],
      width: 100,
    },
    visit_note: { label: '事由说明', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
    visit_time: { label: '来访时间', zod: wireTimeText, widget: 'custom', in: ['form', 'table', 'export'], width: 160 },
    leave_time: { label: '离开时间', zod: wireTimeText, widget: 'custom', in: ['form', 'table', 'export'], width: 160 },
    carlicense: {
      label: '车牌号',
      zod: optionalPlate,
      in: ['form', 'table', 'export'],
      width: 100,
      help: '填写后按访客设置为车辆预留车位并加入白名单',
    },
    companions: { label: '随行人数', zod: int(0, 50).default(0), widget: 'int', in: ['form', 'export'] },
    photo: { label: '照片', zod: z.union([z.literal(''), imageUrl]).default(''), widget: 'custom', in: ['form'] },
    status: {
      label: '状态',
      enum: VISITOR_STATUS,
      // '' is 待审核, but an empty filter means none: the filter sends 待审核 as `pending`
      filterZod: z.union([z.literal(''), z.enum(['pending', 'Y', 'D', 'C', '3'])], { error: '状态取值不正确' }).optional(),
      in: ['table', 'filter', 'export'],
      width: 90,
    },
    car_status: { label: '车辆状态', enum: VISITOR_CAR_STATUS, in: ['table', 'filter', 'export'], width: 90 },
    visit_day: { label: '来访日期', widget: 'dateRange', filterZod: dateRangeFilter, in: ['filter'] },
  },
  columns: [
    { key: 'address', label: '房屋', width: 150 },
    { key: 'owner_name', label: '被访业主', width: 90 },
    { key: 'space_title', label: '预留车位', width: 100 },
    { key: 'free_until', label: '免费截止', width: 160 },
    { key: 'pass_uses', label: '通行次数', width: 80 },
    { key: 'creator', label: '登记人', width: 90 },
    createTimeColumn('登记时间'),
  ],
  rules: [
    {
      check: (v) => !v.visit_time || !v.leave_time || String(v.leave_time) > String(v.visit_time),
      message: '离开时间须晚于来访时间',
      path: 'leave_time',
    },
  ],
});

/** Review (when the community's setting asks for it), cancel: the visitor workflow. */
export const visitorFlow = workflow({
  name: 'visitor',
  label: '访客登记',
  states: VISITOR_STATUS,
  transitions: {
    approve: {
      method: 'visitorapprove',
      label: '通过',
      from: [''],
      to: 'Y',
      roles: VISITOR_ROLES.manager,
      fixed: { approve: true },
      input: { remark: text(200).default('') },
      inputLabels: { remark: '审核意见' },
    },
    refuse: {
      method: 'visitorapprove',
      label: '拒绝',
      from: [''],
      to: '3',
      roles: VISITOR_ROLES.manager,
      fixed: { approve: false },
      // shared with 通过 (one method): the reason is checked when refusing (visitors.ts)
      input: { remark: text(200).default('') },
      inputLabels: { remark: '拒绝原因' },
      danger: true,
    },
    cancel: {
      method: 'visitorcancel',
      label: '取消',
      from: ['', 'Y'],
      to: 'C',
      roles: VISITOR_ROLES.staff,
      input: { remark: text(200).default('') },
      inputLabels: { remark: '取消原因' },
      confirm: '取消后通行码失效，预留的车位释放。确定取消？',
      danger: true,
    },
  },
  steps: { arrive: '到访（通行码首次使用）', revoke: '作废通行码', edit: '修改' },
  logMethod: 'visitorlog',
});

/** The community's visitor settings. */
export interface VisitorSettings {
  review: YN;
  push_face: YN;
  reserve_car: YN;
  lot_id: number | null;
  lot_title: string;
  free_minutes: number;
  daily_car_limit: number;
  update_time: string;
}

export const visitorSettingsInput = z
  .object({
    review: yn,
    push_face: yn,
    reserve_car: yn,
    lot_id: optionalId,
    free_minutes: int(10, 1440).default(120),
    daily_car_limit: int(0, 50).default(0),
  })
  .refine((v) => v.reserve_car === 'N' || !!v.lot_id, { message: '开启车位预留时请选择停车场', path: ['lot_id'] });

/** What a device's scan of a pass code answers. */
export interface VisitorPassAnswer {
  open: boolean;
  /** why not, or 欢迎光临 / 一路顺风 */
  reason: string;
  visitor_id: number | null;
  realname: string;
  /** uses so far, after this one */
  uses: number;
}

export const visitorSchemas = {
  ...visitor.schemas,
  ...visitorFlow.schemas,
  visitorrevoke: z.object({ id, remark: text(200).default('') }),
  visitorpasscheck: z.object({
    device_id: id,
    code: z.string().trim().min(1, '请输入通行码').max(40, '通行码不正确'),
    /** the scan's time (the device's; the simulator may set it); absent: now */
    time: z.union([z.literal(''), wireTimeText]).optional(),
  }),
  visitorsetinfo: z.object({}),
  visitorsetedit: visitorSettingsInput,
  /** ends the reservations whose free time is over at `time` (the job's run; the simulator passes its clock) */
  visitorcarrelease: z.object({ time: z.union([z.literal(''), wireTimeText]).optional() }),
  visitor_today: z.object({}),
  /** the register form's owner picker: the people living now in a room (the guards cannot read the member list) */
  visitor_member_small_list: z.object({ hid: id }),
  /** the pass check's device picker: the community's door devices */
  visitor_device_small_list: z.object({}),
};

export type VisitorOutputs = ResourceOutputs<typeof visitor.def, VisitorRow> & {
  visitorapprove: VisitorRow;
  visitorcancel: VisitorRow;
  visitorlog: { items: WorkflowLogItem[] };
  visitorrevoke: VisitorRow;
  visitorpasscheck: VisitorPassAnswer;
  visitorsetinfo: VisitorSettings;
  visitorsetedit: VisitorSettings;
  visitorcarrelease: { released: number };
  visitor_today: { expected: number; arrived: number; cars: number };
  visitor_member_small_list: { items: Array<{ id: number; title: string }> };
  visitor_device_small_list: { items: Array<{ id: number; title: string }> };
};

/** A visitor list as the drawer and pages page it (kept for callers typing a page). */
export type VisitorList = ListAnswer<VisitorRow>;
