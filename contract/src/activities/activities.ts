/**
 * 社区活动报名 (/service: signuplist, signup_add, signup_edit, signup_userlist, signup_form_show;
 * docs/product.md#activities): an activity with its windows, seats, join rules, price, refund rule,
 * waiting list, review, visibility and custom form; sign-ups taken at the counter for an owner.
 */
import { z } from 'zod';
import { id, int, noControlChars, optionalId, paging, text, yn } from '../common.js';
import { imageUrl } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { moneyUpTo } from '../money.js';

/** Who manages activities and sign-ups (spec role `service`; admin always passes). */
export const ACTIVITY_ROLES = ['service'] as const;

/** Spec status: Y 上架 (on sale), N 下架 (off). */
export const ACTIVITY_SALE = valueEnum({
  Y: { text: '上架', tone: 'success' },
  N: { text: '下架', tone: 'error' },
});
/** The phase, computed from the windows and the clock (a cancelled activity is 已取消). */
export const ACTIVITY_PHASE = valueEnum({
  pre: { text: '预发布', tone: 'default' },
  open: { text: '报名中', tone: 'success' },
  closed: { text: '报名结束', tone: 'warning' },
  running: { text: '进行中', tone: 'processing' },
  ended: { text: '已结束', tone: 'default' },
  cancelled: { text: '已取消', tone: 'error' },
});
export type ActivityPhase = keyof typeof ACTIVITY_PHASE;
/**
 * How many more sign-ups an activity needs to go ahead (最少成团), 0 when it has enough or sets no
 * minimum; once its sign-up has closed short, the organisers decide (the activitymin to-do).
 */
export function seatsShortOfMinimum(a: { min_num: number; totle_num: number; phase: ActivityPhase }): number {
  if (a.min_num <= 0 || a.phase === 'cancelled' || a.phase === 'ended' || a.phase === 'running') return 0;
  return Math.max(0, a.min_num - a.totle_num);
}

/** Who may join. */
export const ACTIVITY_JOIN_TYPE = valueEnum({
  owner: { text: '仅业主' },
  resident: { text: '业主和租户' },
  all: { text: '所有人' },
});
/** A seat a person, or a seat a household with up to N companions. */
export const ACTIVITY_JOIN_MODE = valueEnum({
  person: { text: '按人' },
  household: { text: '按户' },
});
export const ACTIVITY_REFUND_RULE = valueEnum({
  none: { text: '不可退' },
  deadline: { text: '报名截止前可退' },
  hours: { text: '活动开始前 N 小时可退' },
});
export const ACTIVITY_REFUND_FEE_TYPE = valueEnum({
  fixed: { text: '固定金额' },
  percent: { text: '按比例' },
});
export const ACTIVITY_SCOPE = valueEnum({
  all: { text: '全小区' },
  building: { text: '指定楼栋' },
});
export const ACTIVITY_FIELD_TYPE = valueEnum({
  text: { text: '单行文本' },
  textarea: { text: '多行文本' },
  radio: { text: '单选' },
  checkbox: { text: '多选' },
  date: { text: '日期' },
  mobile: { text: '手机号' },
  idcard: { text: '身份证号' },
  number: { text: '数字' },
  image: { text: '图片' },
});
export type ActivityFieldType = keyof typeof ACTIVITY_FIELD_TYPE;

/** A sign-up's state. */
export const SIGNUP_STATUS = valueEnum({
  P: { text: '待支付', tone: 'warning' },
  R: { text: '待审核', tone: 'processing' },
  Y: { text: '已报名', tone: 'success' },
  W: { text: '候补', tone: 'default' },
  C: { text: '已取消', tone: 'error' },
  S: { text: '已签到', tone: 'success' },
  A: { text: '未到场', tone: 'warning' },
});
export type SignupStatus = keyof typeof SIGNUP_STATUS;
export const SIGNUP_PAY_STATUS = valueEnum({
  N: { text: '免费', tone: 'default' },
  U: { text: '未支付', tone: 'warning' },
  Y: { text: '已支付', tone: 'success' },
  R: { text: '退款中', tone: 'processing' },
  F: { text: '已退款', tone: 'default' },
});
export type SignupPayStatus = keyof typeof SIGNUP_PAY_STATUS;

export const ACTIVITY_TITLE_MAX = 50;
export const ACTIVITY_BODY_MAX = 60_000;
export const ACTIVITY_FORM_MAX_FIELDS = 30;
/** The highest price of a seat (10,000 yuan). */
export const ACTIVITY_PRICE_MAX_FEN = 1_000_000n;

/** YYYY-MM-DD HH:mm(:ss), or a day alone (its midnight) */
const wireMinute = z.string().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '时间格式为 YYYY-MM-DD HH:mm');

/** A question of the custom form; `id` (kept from the saved form on edit) names its answers forever. */
export const activityField = z.object({
  id: z
    .string()
    .regex(/^f[0-9a-z]{1,20}$/, '表单项编号无效')
    .optional(),
  label: noControlChars(z.string().trim().min(1, '请输入表单项名称').max(30, '表单项名称不能超过30个字')),
  type: enumSchema(ACTIVITY_FIELD_TYPE, '表单项类型'),
  required: yn.default('N'),
  /** the choices of a radio or checkbox field */
  options: z
    .array(noControlChars(z.string().trim().min(1, '选项不能为空').max(30, '选项不能超过30个字')))
    .max(20, '选项最多20个')
    .default([]),
});
export type ActivityField = z.infer<typeof activityField> & { id: string };

const activityFields = {
  title: noControlChars(z.string().trim().min(1, '请输入活动标题').max(ACTIVITY_TITLE_MAX, `标题不能超过${ACTIVITY_TITLE_MAX}个字`)),
  cover: imageUrl,
  body: z.string().max(ACTIVITY_BODY_MAX, '详情太长，请精简').default(''),
  place: text(100).default(''),
  start_time: wireMinute,
  end_time: wireMinute,
  event_start_time: wireMinute,
  event_end_time: wireMinute,
  /** seats; 0 unlimited */
  limit_num: int(0, 100_000),
  min_num: int(0, 100_000).default(0),
  join_type: enumSchema(ACTIVITY_JOIN_TYPE, '参与对象'),
  join_mode: enumSchema(ACTIVITY_JOIN_MODE, '参与方式').default('person'),
  companions_max: int(0, 20).default(0),
  household_limit: int(1, 50).default(1),
  is_pay: yn.default('N'),
  price: moneyUpTo(ACTIVITY_PRICE_MAX_FEN).default('0'),
  pay_minutes: int(1, 10080).default(15),
  refund_rule: enumSchema(ACTIVITY_REFUND_RULE, '退款规则').default('none'),
  refund_hours: int(0, 720).default(0),
  refund_fee_type: enumSchema(ACTIVITY_REFUND_FEE_TYPE, '手续费方式').default('fixed'),
  refund_fee: moneyUpTo(ACTIVITY_PRICE_MAX_FEN).default('0'),
  waitlist: yn.default('N'),
  confirm_hours: int(1, 720).default(48),
  review: yn.default('N'),
  scope: enumSchema(ACTIVITY_SCOPE, '可见范围').default('all'),
  scope_bids: z.array(id).max(500, '所选楼栋太多').default([]),
  form: z.array(activityField).max(ACTIVITY_FORM_MAX_FIELDS, `表单项最多${ACTIVITY_FORM_MAX_FIELDS}个`).default([]),
  status: yn.default('Y'),
};

const phaseFilter = z.union([enumSchema(ACTIVITY_PHASE, '阶段'), z.literal('')]).optional();
const day = z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD'), z.literal('')]).optional();

const activityFilters = {
  title: text(50).optional(),
  phase: phaseFilter,
  is_pay: z.union([yn, z.literal('')]).optional(),
  status: z.union([yn, z.literal('')]).optional(),
  /** the event between these days (business time zone, both included) */
  event_from: day,
  event_to: day,
};

/** An answer: text, a number, a list of choices, or an image's address. */
const answer = z.union([z.string().max(500, '回答不能超过500个字'), z.number(), z.array(z.string().max(30)).max(20)]);

const signupFilters = {
  /** the activity */
  id,
  status: z.union([enumSchema(SIGNUP_STATUS, '状态'), z.literal('')]).optional(),
  pay_status: z.union([enumSchema(SIGNUP_PAY_STATUS, '支付状态'), z.literal('')]).optional(),
  hid: optionalId,
  /** a name, a mobile or a sign-up number */
  keyword: text(30).optional(),
};

export const activitySchemas = {
  signuplist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...activityFilters }),
  signupinfo: z.object({ id }),
  signupadd: z.object(activityFields),
  signupedit: z.object({ id, ...activityFields }),
  signupdel: z.object({ id }),
  /** 上架 / 下架 */
  signupstatus: z.object({ id, status: yn }),
  /** cancels the activity: every sign-up cancelled and refunded in full; an SMS through the template if one is given */
  signupcancelactivity: z.object({
    id,
    reason: noControlChars(z.string().trim().min(1, '请填写取消原因').max(200)),
    sms_template_id: optionalId,
  }),
  signupexport: z.object(activityFilters),
  /** a sign-up taken for a resident of a room (at the counter; the owner app calls the same) */
  signupjoin: z.object({
    activity_id: id,
    hid: id,
    member_id: id,
    companions: int(0, 20).default(0),
    answers: z.record(z.string().max(30), answer).default({}),
    remark: text(200).default(''),
  }),
  signupuserlist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('asc'), ...signupFilters }),
  signupuserexport: z.object(signupFilters),
  /** approve (Y) or refuse (N) a sign-up waiting for review */
  signupapprove: z.object({ id, approve: yn, remark: text(200).default('') }),
  /** cancels a sign-up; a paid one is refunded by the activity's rule (force_full: staff refund in full) */
  signupcancel: z.object({ id, reason: text(200).default(''), force_full: yn.default('N') }),
  /** check in by the sign-up's id, or by its code (the QR code's text: the sign-up number) */
  signupcheckin: z.object({ activity_id: id, id: optionalId, code: text(40).optional() }),
  /** offers a seat now to a waiting sign-up (promotion out of turn) */
  signuppromote: z.object({ id }),
  /** a waiting sign-up offered a seat (free activity) takes it within the confirm hours */
  signupconfirm: z.object({ id }),
  signupformshow: z.object({ ...paging, id }),
  signupformexport: z.object({ id }),
  signup_activity_small_list: z.object({}),
  activitydashboard: z.object({}),
};

export interface ActivityItem {
  id: number;
  title: string;
  cover: string;
  body: string;
  place: string;
  start_time: string;
  end_time: string;
  event_start_time: string;
  event_end_time: string;
  limit_num: number;
  /** seats taken (待支付, 待审核, 已报名, 已签到, 未到场) */
  totle_num: number;
  waiting_num: number;
  checked_num: number;
  min_num: number;
  join_type: keyof typeof ACTIVITY_JOIN_TYPE;
  join_type_ch: string;
  join_mode: keyof typeof ACTIVITY_JOIN_MODE;
  join_mode_ch: string;
  companions_max: number;
  household_limit: number;
  is_pay: 'Y' | 'N';
  is_pay_ch: string;
  price: string;
  /** once a sign-up has paid the price cannot change */
  price_locked: boolean;
  pay_minutes: number;
  refund_rule: keyof typeof ACTIVITY_REFUND_RULE;
  refund_rule_ch: string;
  refund_hours: number;
  refund_fee_type: keyof typeof ACTIVITY_REFUND_FEE_TYPE;
  refund_fee: string;
  waitlist: 'Y' | 'N';
  confirm_hours: number;
  review: 'Y' | 'N';
  scope: keyof typeof ACTIVITY_SCOPE;
  scope_bids: number[];
  scope_ch: string;
  form: ActivityField[];
  status: 'Y' | 'N';
  status_ch: string;
  phase: ActivityPhase;
  phase_ch: string;
  paid_amount: string;
  refunded_amount: string;
  cancel_reason: string;
  create_user: string;
  create_time: string;
}

export interface SignupItem {
  id: number;
  no: string;
  activity_id: number;
  member_id: number;
  realname: string;
  mobile: string;
  hid: number;
  address: string;
  companions: number;
  /** people coming: the person and the companions */
  people: number;
  answers: Record<string, string | number | string[]>;
  status: SignupStatus;
  /** 候补 #2 */
  status_ch: string;
  wait_pos: number;
  pay_status: SignupPayStatus;
  pay_status_ch: string;
  amount: string;
  refund_amount: string;
  bill_id: number | null;
  pay_deadline: string;
  offer_expires_at: string;
  checked_in_at: string;
  cancel_reason: string;
  create_time: string;
}

export interface SignupFormQuestion {
  id: string;
  label: string;
  type: ActivityFieldType;
  type_ch: string;
  /** answered by */
  answered: number;
  /** choice counts (radio, checkbox) */
  choices: Array<{ option: string; count: number }>;
  /** number fields: sum and average */
  sum: string;
  avg: string;
}

export interface ActivityOutputs {
  signuplist: { items: ActivityItem[]; total: number };
  signupinfo: ActivityItem;
  signupadd: { id: number };
  signupedit: null;
  signupdel: null;
  signupstatus: null;
  signupcancelactivity: { cancelled: number; refunded: number; sms_job_id: number | null };
  signupexport: ExportQueued;
  signupjoin: SignupItem;
  signupuserlist: {
    items: SignupItem[];
    total: number;
    activity: ActivityItem;
    counts: Record<SignupStatus, number>;
  };
  signupuserexport: ExportQueued;
  signupapprove: SignupItem;
  signupcancel: SignupItem;
  signupcheckin: SignupItem;
  signuppromote: SignupItem;
  signupconfirm: SignupItem;
  signupformshow: {
    items: SignupItem[];
    total: number;
    fields: ActivityField[];
    questions: SignupFormQuestion[];
  };
  signupformexport: ExportQueued;
  signup_activity_small_list: { items: Array<{ id: number; title: string }> };
  activitydashboard: ActivityDashboard;
}

/** The home page's activities card: open for sign-up now, the people signed up to them, sign-ups to review. */
export interface ActivityDashboard {
  open: number;
  signed: number;
  reviewing: number;
}
