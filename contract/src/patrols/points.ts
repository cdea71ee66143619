/**
 * Patrol points (巡更点, /security/patrolpointlist, patrolpointadd, patrolpointedit;
 * docs/product.md#patrols) as a resource (docs/resources.md): name, number, type, location, the
 * check-in codes (QR, NFC tag, wand button, GPS with a radius), a checklist, photo required.
 */
import { z } from 'zod';
import { coordinate, optionalId, int, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { PATROL_ROLES } from './roles.js';

export const POINT_KIND = valueEnum({
  S: { text: '安防', tone: 'processing' },
  E: { text: '设备', tone: 'warning' },
  V: { text: '环境', tone: 'success' },
  F: { text: '消防', tone: 'error' },
});
export type PointKind = keyof typeof POINT_KIND;
export const POINT_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const YES_NO_PHOTO = valueEnum({ Y: { text: '需拍照', tone: 'warning' }, N: { text: '不需要', tone: 'default' } });

export const CHECK_ITEM_TYPE = valueEnum({
  normal: { text: '正常/异常' },
  single: { text: '单选' },
  multiple: { text: '多选' },
  text: { text: '简答' },
});
export type CheckItemType = keyof typeof CHECK_ITEM_TYPE;

/** An NFC tag's id as stored and matched: upper case, letters and digits only ('04:a1-b2' → '04A1B2'). */
export const normaliseNfc = (v: string): string => v.toUpperCase().replace(/[^0-9A-Z]/g, '');

export const checkItem = z
  .object({
    title: text(40).min(1, '请输入检查项名称'),
    type: z.enum(['normal', 'single', 'multiple', 'text'], { message: '检查项类型取值不正确' }),
    options: z.array(text(20).min(1, '选项不能为空')).max(10, '一个检查项最多 10 个选项').default([]),
  })
  .refine((v) => (v.type !== 'single' && v.type !== 'multiple') || v.options.length >= 2, {
    message: '单选、多选检查项至少要 2 个选项',
    path: ['options'],
  });
export type CheckItem = z.output<typeof checkItem>;

export interface PatrolPointItem {
  id: number;
  number: string;
  name: string;
  kind: PointKind;
  kind_ch: string;
  bid: number | null;
  tid: number | null;
  place: string;
  asset_id: number | null;
  /** 楼栋-单元, the place and the asset (编码 名称) */
  location: string;
  qr_code: string;
  nfc_uid: string;
  wand_no: string;
  lat: number | null;
  lng: number | null;
  radius: number;
  checklist: CheckItem[];
  photo_required: 'Y' | 'N';
  photo_required_ch: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** 二维码、NFC、钮号、GPS: the ways set */
  methods: string;
  checklist_count: number;
  /** plans whose route holds the point */
  plan_count: number;
  create_time: string;
}

export const patrolPoint = resource<PatrolPointItem>()({
  name: 'patrolpoint',
  label: '巡更点',
  methods: {
    list: 'patrolpointlist',
    add: 'patrolpointadd',
    edit: 'patrolpointedit',
    del: 'patrolpointdel',
    info: 'patrolpointinfo',
    small: 'patrolpoint_small_list',
    export: 'patrolpointexport',
  },
  roles: { read: PATROL_ROLES.staff, write: PATROL_ROLES.staff },
  form: { add: '/security/patrolpointadd', edit: '/security/patrolpointedit' },
  echoId: true,
  fields: {
    number: {
      label: '编号',
      zod: text(20)
        .regex(/^[A-Za-z0-9-]*$/, '编号只能是字母、数字或横线')
        .default(''),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 90,
      help: '不填则自动编号；印在二维码标签上，签到时可手工输入',
    },
    name: { label: '名称', zod: text(30).min(1, '请输入巡更点名称'), in: ['form', 'table', 'filter', 'export'], fixed: true, width: 140 },
    kind: {
      label: '类型',
      zod: z.enum(['S', 'E', 'V', 'F'], { message: '请选择巡更点类型' }),
      enum: POINT_KIND,
      widget: 'select',
      in: ['form', 'table', 'filter', 'export'],
      width: 70,
    },
    bid: { label: '楼栋', zod: optionalId.transform((v) => v ?? null), widget: { small: 'building_small_list' }, in: ['form', 'filter'] },
    tid: {
      label: '单元',
      zod: optionalId.transform((v) => v ?? null),
      widget: { small: 'unit_small_list', dependsOn: { bid: 'bid' } },
      in: ['form'],
    },
    place: { label: '区域/位置', zod: text(60).default(''), in: ['form'], placeholder: '如 地下车库B2出入口' },
    asset_id: {
      label: '设备',
      zod: optionalId.transform((v) => v ?? null),
      widget: { small: 'asset_small_list' },
      in: ['form'],
      help: '巡查设备台账中的一台设备时选择（如 消防泵、配电柜）',
    },
    nfc_uid: {
      label: 'NFC标签',
      zod: text(40)
        .default('')
        .transform(normaliseNfc)
        .refine((v) => v.length <= 32, { message: 'NFC标签最多 32 位' }),
      in: ['form', 'table', 'export'],
      width: 120,
      help: '大小写、冒号和横线不区分，保存为大写无分隔',
    },
    wand_no: {
      label: '钮号',
      zod: text(20)
        .regex(/^[A-Za-z0-9]*$/, '钮号只能是字母或数字')
        .default(''),
      in: ['form', 'table', 'export'],
      width: 90,
      help: '巡更棒信息钮的编号',
    },
    lat: { label: '纬度', zod: coordinate(90, '纬度'), widget: 'decimal', in: ['form', 'export'] },
    lng: { label: '经度', zod: coordinate(180, '经度'), widget: 'decimal', in: ['form', 'export'] },
    radius: { label: 'GPS半径(米)', zod: int(5, 5000).default(50), widget: 'int', in: ['form', 'export'] },
    checklist: {
      label: '检查项',
      zod: z.array(checkItem).max(20, '最多 20 个检查项').default([]),
      widget: 'custom',
      in: ['form'],
    },
    photo_required: {
      label: '必须拍照',
      zod: yn.default('N'),
      enum: YES_NO_PHOTO,
      widget: 'radio',
      in: ['form', 'table', 'export'],
      width: 90,
    },
    status: {
      label: '状态',
      zod: yn.default('Y'),
      enum: POINT_STATUS,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 70,
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  rules: [
    {
      check: (v) => (v.lat === null || v.lat === undefined) === (v.lng === null || v.lng === undefined),
      message: '经度和纬度要同时填写',
      path: 'lng',
    },
    {
      check: (v) => Boolean(v.bid) || Boolean(v.asset_id) || String(v.place ?? '').trim() !== '',
      message: '请选择楼栋、设备或填写区域位置',
      path: 'place',
    },
  ],
  columns: [
    { key: 'location', label: '位置', width: 160 },
    { key: 'methods', label: '签到方式', width: 150 },
    { key: 'checklist_count', label: '检查项', width: 70 },
    { key: 'plan_count', label: '所属计划', width: 80 },
    createTimeColumn(),
  ],
});

export const pointSchemas = { ...patrolPoint.schemas } as const;
export type PointOutputs = ResourceOutputs<typeof patrolPoint.def, PatrolPointItem>;
