/**
 * Customer care (客户关怀 /crm/customerlist, customshow, addcus, editcus; docs/product.md#crm-care):
 * the care records of owners and tenants. A record follows the owners area's person where there is
 * one (adding from a resident copies their name, mobile, gender, ID number, birthday, rooms and
 * move-in day, and a person is recorded once); someone outside the directory is recorded by name and
 * mobile. 从住户导入 records a building's residents not recorded yet, all or nothing. The affairs,
 * group affairs and recurring rules are in ./careAffairs.ts.
 */
import { z } from 'zod';
import { id, optionalId, text } from '../common.js';
import { createTimeColumn, enumOrAll, enumSchema, optionalDay, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { isValidIdCard, MOBILE_RE } from '../owners.js';
import type { SmallItem } from '../structure.js';
import { CRM_ROLES } from './roles.js';

export const CARE_ROLES = CRM_ROLES.care;

export const CARE_CUSTOMER_KIND = valueEnum({
  owner: { text: '业主', tone: 'processing' },
  family: { text: '家属', tone: 'default' },
  tenant: { text: '租户', tone: 'warning' },
  other: { text: '其他', tone: 'default' },
});
export type CareCustomerKind = keyof typeof CARE_CUSTOMER_KIND;

/** 特别关注: the words are the values (a rule or a group affair names one as its tag). */
export const CARE_ATTENTION = valueEnum({
  独居老人: { text: '独居老人', tone: 'error' },
  空巢老人: { text: '空巢老人', tone: 'warning' },
  行动不便: { text: '行动不便', tone: 'error' },
  残障人士: { text: '残障人士', tone: 'warning' },
  孕产妇: { text: '孕产妇', tone: 'warning' },
  慢性病: { text: '慢性病', tone: 'warning' },
  困难家庭: { text: '困难家庭', tone: 'warning' },
  优抚对象: { text: '优抚对象', tone: 'processing' },
});
export type CareAttention = keyof typeof CARE_ATTENTION;

export const CARE_STATUS = valueEnum({ Y: { text: '关怀中', tone: 'success' }, N: { text: '已停止', tone: 'default' } });

export const CARE_GENDER = valueEnum({ M: { text: '男' }, F: { text: '女' }, '': { text: '未知' } });

/** 生日月份 of the list's filter and the group affairs. */
export const BIRTH_MONTH = valueEnum(
  Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i + 1), { text: `${i + 1}月` }])) as Record<
    '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '10' | '11' | '12',
    { text: string }
  >,
);

export const HAS_OPEN = valueEnum({ Y: { text: '有待办事务', tone: 'warning' }, N: { text: '无待办事务' } });

/** The tags a form suggests (any word may be typed). */
export const CARE_TAG_SUGGESTIONS = ['重点客户', 'VIP', '新入住', '投诉回访', '老党员', '志愿者', '宠物家庭'] as const;

/** The birthday an 18-digit ID number records (YYYY-MM-DD), or null. */
export function birthdayOfIdCard(value: string): string | null {
  if (!isValidIdCard(value)) return null;
  return `${value.slice(6, 10)}-${value.slice(10, 12)}-${value.slice(12, 14)}`;
}

/** Full years from a birthday to a day (both YYYY-MM-DD). */
export function ageOn(birthday: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(birthday.slice(0, 4));
  return day.slice(5) < birthday.slice(5) ? years - 1 : years;
}

/** A mobile or an ID number as an account without contact_whole was shown it (team/contact.ts): sent back, it keeps what is stored. */
const MASKED_MOBILE_RE = /^1\d{2}\*{4}\d{4}$/;
const MASKED_ID_CARD_RE = /^\d{4}\*{10}[\dX]{4}$/;

const careMobile = z
  .union(
    [z.literal(''), z.string().trim().regex(MASKED_MOBILE_RE), z.string().trim().regex(MOBILE_RE, '手机号码格式不正确，应为11位手机号')],
    {
      error: '手机号码格式不正确，应为11位手机号',
    },
  )
  .default('');
const careIdCard = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => v === '' || MASKED_ID_CARD_RE.test(v) || isValidIdCard(v), { message: '身份证号码不正确' })
  .default('');

/** A list of words: each 1 to 10 characters, at most `max`, repeats dropped. */
const words = (max: number, label: string) =>
  z
    .array(text(10).min(1, `${label}不能为空`))
    .max(max, `${label}最多 ${max} 个`)
    .default([])
    .transform((v) => [...new Set(v)]);

export interface CareCustomerItem {
  id: number;
  /** the owners area's person (null: someone outside the directory) */
  member_id: number | null;
  kind: CareCustomerKind;
  kind_ch: string;
  realname: string;
  /** masked (138****8000) for an account without contact_whole */
  mobile: string;
  gender: '' | 'M' | 'F';
  gender_ch: string;
  birthday: string | null;
  /** full years today; null without a birthday */
  age: number | null;
  /** masked for an account without contact_whole */
  id_card: string;
  hids: number[];
  /** the rooms' addresses, 、-joined */
  houses: string;
  move_in_date: string | null;
  family_notes: string;
  preferences: string;
  tags: string[];
  attention: CareAttention[];
  steward_id: number | null;
  steward_name: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** affairs 待办, and of them past their day */
  open_affairs: number;
  overdue_affairs: number;
  /** the last affair done ('' none) */
  last_care_time: string;
  create_time: string;
}

export const careCustomer = resource<CareCustomerItem>()({
  name: 'carecustomer',
  label: '关怀客户',
  methods: { list: 'carelist', add: 'careadd', edit: 'careedit', del: 'caredel', info: 'careinfo', export: 'careexport' },
  roles: { read: CARE_ROLES, write: CARE_ROLES },
  form: { add: '/crm/addcus', edit: '/crm/editcus' },
  echoId: true,
  sort: 'desc',
  fields: {
    keyword: { label: '姓名/手机号', zod: text(30), in: ['filter'] },
    hid: {
      label: '房屋',
      zod: optionalId,
      widget: 'room',
      in: ['form'],
      once: true,
      help: '住户建档：先选房屋再选住户，资料从住户带入；非住户可不选住户，直接填写姓名和手机号',
    },
    member_id: {
      label: '住户',
      zod: optionalId,
      widget: { small: 'care_resident_small_list', dependsOn: { hid: 'hid' } },
      in: ['form'],
      once: true,
    },
    realname: { label: '姓名', zod: text(30).default(''), in: ['form', 'table', 'export'], fixed: true, width: 90 },
    kind: {
      label: '客户类型',
      zod: enumSchema(CARE_CUSTOMER_KIND, '客户类型').optional(),
      help: '住户建档时按其身份带出',
      enum: CARE_CUSTOMER_KIND,
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    mobile: { label: '手机号', zod: careMobile, in: ['form', 'table', 'export'], width: 120 },
    gender: {
      label: '性别',
      zod: enumSchema(CARE_GENDER, '性别').default(''),
      enum: CARE_GENDER,
      widget: 'radio',
      in: ['form', 'table', 'export'],
      width: 60,
    },
    birthday: {
      label: '生日',
      zod: optionalDay,
      widget: 'date',
      in: ['form', 'table', 'export'],
      width: 110,
      help: '留空时按身份证号带出',
    },
    id_card: { label: '身份证号', zod: careIdCard, in: ['form', 'export'] },
    move_in_date: { label: '入住日期', zod: optionalDay, widget: 'date', in: ['form', 'export'] },
    attention: {
      label: '特别关注',
      zod: z.array(enumSchema(CARE_ATTENTION, '特别关注')).max(8).default([]),
      enum: CARE_ATTENTION,
      widget: 'custom',
      in: ['form', 'table', 'export'],
      width: 160,
    },
    tags: { label: '标签', zod: words(10, '标签'), widget: 'custom', in: ['form', 'export'] },
    // the filters of a list field: rows holding the word (not named as the field: a row holds several)
    special: {
      label: '特别关注',
      enum: CARE_ATTENTION,
      filterZod: enumOrAll(CARE_ATTENTION, '特别关注').optional(),
      in: ['filter'],
    },
    tag: { label: '标签', zod: text(10), in: ['filter'] },
    steward_id: {
      label: '负责管家',
      zod: optionalId.transform((v) => v ?? null),
      widget: { small: 'care_staff_small_list' },
      in: ['form', 'filter'],
    },
    bid: { label: '楼栋', widget: { small: 'building_small_list' }, in: ['filter'] },
    birth_month: {
      label: '生日月份',
      enum: BIRTH_MONTH,
      filterZod: enumOrAll(BIRTH_MONTH, '生日月份').optional(),
      in: ['filter'],
    },
    has_open: { label: '待办事务', enum: HAS_OPEN, in: ['filter'] },
    family_notes: {
      label: '家庭情况',
      zod: text(500).default(''),
      widget: 'textarea',
      in: ['form', 'export'],
      help: '家庭成员、紧急联系人等',
    },
    preferences: {
      label: '偏好与禁忌',
      zod: text(500).default(''),
      widget: 'textarea',
      in: ['form', 'export'],
      help: '方便联系的时间、兴趣、饮食禁忌等',
    },
    status: {
      label: '关怀状态',
      zod: z.enum(['Y', 'N']).default('Y'),
      enum: CARE_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
      help: '已停止的客户不再按规则生成事务，也不参与批量事务',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [
    { key: 'age', label: '年龄', width: 60 },
    { key: 'houses', label: '房屋', width: 180 },
    { key: 'steward_name', label: '负责管家', width: 90 },
    { key: 'open_affairs', label: '待办事务', width: 90 },
    { key: 'last_care_time', label: '最近关怀', width: 170 },
    createTimeColumn('建档时间'),
  ],
  rules: [
    {
      message: '请选择住户，或填写姓名和手机号',
      path: 'member_id',
      // an edit keeps the record's person
      check: (v) => v.id !== undefined || !!v.member_id || (!!v.realname && !!v.mobile),
    },
  ],
});

/** What adding from a resident fills in (carememberinfo): the person's data and whether they are recorded. */
export interface CareMemberPrefill {
  member_id: number;
  realname: string;
  mobile: string;
  gender: '' | 'M' | 'F';
  id_card: string;
  birthday: string | null;
  kind: CareCustomerKind;
  move_in_date: string | null;
  houses: string;
  /** the record of this person, when there is one already */
  customer_id: number | null;
}

/** Which residents 从住户导入 takes. */
export const CARE_IMPORT_KINDS = ['owner', 'family', 'tenant'] as const;
const importKinds = z
  .array(z.enum(CARE_IMPORT_KINDS, { error: '住户身份取值不正确' }))
  .min(1, '请至少选择一种住户身份')
  .max(3)
  .transform((v) => [...new Set(v)]);

/** At most this many records an import. */
export const CARE_IMPORT_MAX = 5000;

export const careSchemas = {
  ...careCustomer.schemas,
  carememberinfo: z.object({ member_id: id }),
  care_staff_small_list: z.object({}),
  /** the people living now in a room, for adding one (those recorded already say so) */
  care_resident_small_list: z.object({ hid: id }),
  /** 从住户导入: how many live in the building, how many are recorded, how many would be added */
  careimportpreview: z.object({ bid: id, kinds: importKinds }),
  careimport: z.object({ bid: id, kinds: importKinds, steward_id: optionalId }),
} as const;

export interface CareImportPreview {
  building: string;
  /** the people living there now, of the chosen kinds */
  residents: number;
  /** of them recorded already */
  recorded: number;
  to_add: number;
}

export type CareOutputs = ResourceOutputs<typeof careCustomer.def, CareCustomerItem> & {
  carememberinfo: CareMemberPrefill;
  care_staff_small_list: { items: SmallItem[] };
  care_resident_small_list: { items: Array<SmallItem & { relation: CareCustomerKind; customer_id: number | null }> };
  careimportpreview: CareImportPreview;
  careimport: { added: number; skipped: number };
};
